/**
 * Chatwoot's `RoomChannel` (app/channels/room_channel.rb): a subscription with a Client API
 * contact's `pubsub_token` streams the events of that contact's conversations. The token is the
 * credential, as in Chatwoot; the inbox's allowed origins and the account's suspension are held
 * to as the Client API's routes hold to them.
 */
import type { Queryable, SecretBox, Sql } from '../../shared/server/index.ts';
import { findContactByPubsubToken, type ContactRecord } from '../client-api/store/contacts.ts';
import { parseJson, RoomIdentifier } from './protocol.ts';

/** What a contact's subscription needs to know of its inbox. */
export interface RoomInbox {
  identifier: string;
  /** The account the inbox is of (null: an inbox of no account, as the demo's first one may be). */
  accountId: number | null;
  allowedOrigins: string[];
  suspended: boolean;
}

export type RoomSubscription =
  | { granted: true; contact: ContactRecord; inbox: RoomInbox }
  | { granted: false; why: 'unknown_token' | 'suspended' | 'origin' };

export async function roomInboxOf(db: Queryable, inboxId: string): Promise<RoomInbox | undefined> {
  const [row] = await db.query<{
    identifier: string;
    account_id: number | null;
    client_api_origins: string[];
    suspended: boolean;
  }>(
    `SELECT i.identifier, i.account_id, i.client_api_origins, COALESCE(a.status = 'suspended', false) AS suspended
     FROM inboxes i LEFT JOIN accounts a ON a.id = i.account_id WHERE i.id = $1`,
    [inboxId],
  );
  return (
    row && {
      identifier: row.identifier,
      accountId: row.account_id,
      allowedOrigins: row.client_api_origins,
      suspended: row.suspended,
    }
  );
}

/** The identifier as RoomChannel's parameters, or undefined when it names no RoomChannel. */
export function roomOf(identifier: string): RoomIdentifier | undefined {
  const parsed = RoomIdentifier.safeParse(parseJson(identifier));
  return parsed.success ? parsed.data : undefined;
}

/** Whether the identifier names a person (Chatwoot's agents add account_id and user_id), not a contact. */
export const namesPerson = (room: RoomIdentifier) => room.user_id !== undefined || room.account_id !== undefined;

/** Decides a contact's subscription: the token, the inbox's origins, the account's standing. */
export async function subscribeToRoom(
  sql: Sql,
  secrets: SecretBox,
  room: RoomIdentifier,
  origin: string | undefined,
): Promise<RoomSubscription> {
  const contact = await findContactByPubsubToken(sql, secrets, room.pubsub_token);
  const inbox = contact && (await roomInboxOf(sql, contact.inboxId));
  if (!contact || !inbox) return { granted: false, why: 'unknown_token' };
  if (inbox.suspended) return { granted: false, why: 'suspended' };
  // Apps send no Origin; a browser's page must be one the inbox lists, when it lists any (as on the Client API's routes).
  if (origin && inbox.allowedOrigins.length > 0 && !inbox.allowedOrigins.includes(origin))
    return { granted: false, why: 'origin' };
  return { granted: true, contact, inbox };
}

/**
 * Chatwoot's answer to a subscription and to `update_presence`: who is online. Parley keeps no
 * presence of people, so no one is listed (the AI answers at every hour).
 */
export const presenceOf = (inbox: RoomInbox) => ({ account_id: inbox.accountId, users: {}, contacts: {} });
