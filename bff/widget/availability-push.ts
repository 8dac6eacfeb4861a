import type { Server } from 'socket.io';
import { WIDGET_NAMESPACE, type AvailabilityChange } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { findInbox } from '../store/inboxes.ts';
import { inboxEngineSpeaks } from '../calls/ai-call-speech.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import { widgetInboxRoom } from './socket.ts';
import { inboxAvailability } from './widget-config.ts';

/**
 * The inboxes a person answers in an account: every one for its administrators, else those they
 * are a member of (as `availableForInbox` counts them).
 */
async function inboxesAnsweredBy(sql: Sql, accountId: number, userId: number): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `SELECT i.id FROM inboxes i JOIN account_users a ON a.account_id = i.account_id AND a.user_id = $2
     WHERE i.account_id = $1 AND (a.role = 'administrator'
       OR EXISTS (SELECT 1 FROM inbox_members m WHERE m.inbox_id = i.id AND m.user_id = a.user_id))`,
    [accountId, userId],
  );
  return rows.map((row) => row.id);
}

/**
 * A person switched "Available" (issue 31): every open widget of the inboxes they answer, on every
 * node (the inbox's room travels through the adapter), hears whether someone answers now and
 * whether it may call (`availability:changed`), and its header follows without a reload.
 */
export async function pushInboxAvailability(
  io: Server,
  { sql, now, engines }: { sql: Sql; now: () => Date; engines: Pick<EngineAccounts, 'forInbox'> },
  { accountId, userId }: { accountId: number; userId: number },
): Promise<void> {
  const widget = io.of(WIDGET_NAMESPACE);
  for (const inboxId of await inboxesAnsweredBy(sql, accountId, userId)) {
    const inbox = await findInbox(sql, inboxId);
    if (!inbox) continue;
    const at = now();
    // The room holds the widgets of both environments; one engine answers them, so either key may ask it.
    const speaks = async () =>
      (await inboxEngineSpeaks(engines, inboxId, 'live', at)) || inboxEngineSpeaks(engines, inboxId, 'sandbox', at);
    const { available, calls } = await inboxAvailability(sql, inbox, at, speaks);
    const change: AvailabilityChange = {
      // A person said it just now: presence is in use in this account.
      people_available: available === true,
      calls,
    };
    widget.to(widgetInboxRoom(inboxId)).emit('availability:changed', change);
  }
}
