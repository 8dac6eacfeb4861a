/**
 * A person's `RoomChannel` (Chatwoot's agents: `pubsub_token` with `account_id` and `user_id`). The
 * pubsub_token is the one shown with the person's access token or session
 * (`personPubsubToken`, kept as its hash beside the token), so it works as long as that token
 * does, for the person the identifier names, in an account where they still have a standing.
 */
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { createDeskConversationAccess } from '../helpdesk/desk-conversation-access.ts';
import { currentStanding } from '../helpdesk/desk-socket-access.ts';
import { accountAvailabilities } from '../helpdesk/store/availabilities.ts';
import { hashToken } from '../helpdesk/store/credentials.ts';
import type { RoomIdentifier } from './protocol.ts';

/** Who a person's subscription hears of: their account, and its inboxes they answer (undefined: all, as an administrator). */
export interface PersonRoom {
  userId: number;
  accountId: number;
  inboxIds: string[] | undefined;
}

export type PersonSubscription =
  { granted: true; person: PersonRoom } | { granted: false; why: 'not_a_person' | 'unknown_token' | 'not_a_member' };

const idOf = (value: number | string | undefined): number | undefined => {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
};

/** Decides a person's subscription now: the token, its holder, their standing in the account, their inboxes. */
export async function subscribePerson(sql: Sql, identifier: RoomIdentifier, now: Date): Promise<PersonSubscription> {
  const userId = idOf(identifier.user_id);
  const accountId = idOf(identifier.account_id);
  if (userId === undefined || accountId === undefined) return { granted: false, why: 'not_a_person' };
  const [row] = await sql.query<{ token_hash: string; user_id: number | null }>(
    'SELECT token_hash, user_id FROM access_tokens WHERE pubsub_hash = $1 AND (expires_at IS NULL OR expires_at > $2)',
    [hashToken(identifier.pubsub_token), now],
  );
  if (!row || row.user_id !== userId) return { granted: false, why: 'unknown_token' };
  const current = await currentStanding(sql, row.token_hash, accountId, now).catch((error: unknown) => {
    // A suspended account leaves its people nothing to hear, as on every route.
    if (error instanceof ParleyError && error.code === 'account_suspended') return undefined;
    throw error;
  });
  if (!current || current.caller.kind !== 'user') return { granted: false, why: 'not_a_member' };
  const access = createDeskConversationAccess({ sql, now: () => now });
  const inboxIds = await access.visibleInboxIds(accountId, current.caller, current.standing);
  return { granted: true, person: { userId, accountId, inboxIds } };
}

/** Chatwoot's presence.update for the people of an account: each person's availability, by id. */
export async function accountPresence(sql: Sql, accountId: number) {
  const users: Record<string, string> = {};
  for (const row of await accountAvailabilities(sql, accountId)) users[row.user_id] = row.availability_status;
  return { account_id: accountId, users, contacts: {} };
}
