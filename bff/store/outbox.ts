import type { Queryable } from '../../shared/server/index.ts';
import { engineText } from '../attachments/store.ts';
import {
  CONVERSATION_COLUMNS,
  toConversationRecord,
  type ConversationRecord,
  type ConversationRow,
} from './conversations.ts';

/** A customer message the engine has not accepted yet. */
export interface PendingMessage {
  id: number;
  /** What the engine is told: the message's text, after its attachments' names (`engineText`). */
  text: string;
  messageId: string;
}

/** What the relay has to do for a conversation: the conversation, and its oldest pending message (if any). */
export interface OutboxWork {
  conversation: ConversationRecord;
  pending: PendingMessage | undefined;
}

/**
 * Takes (or renews) the right to forward a conversation's outbox until `until`, and reads its
 * work, in one statement. Gives undefined while another relay (another node) holds an unexpired
 * lease.
 */
export async function claimOutbox(
  db: Queryable,
  conversationId: number,
  owner: string,
  now: Date,
  until: Date,
): Promise<OutboxWork | undefined> {
  const [row] = await db.query<
    ConversationRow & { pending_id: number | null; pending_text: string | null; pending_message_id: string | null }
  >(
    `WITH c AS (
       UPDATE conversations SET relay_owner = $2, relay_lease_until = $3
       WHERE id = $1 AND (relay_owner IS NULL OR relay_owner = $2 OR relay_lease_until < $4) RETURNING *
     )
     SELECT ${CONVERSATION_COLUMNS}, p.id AS pending_id, p.text AS pending_text, p.message_id AS pending_message_id
     FROM c LEFT JOIN LATERAL (SELECT m.id, ${engineText('m')} AS text, m.message_id FROM messages m WHERE m.conversation_id = c.id AND m.upstream = 'pending' ORDER BY m.id LIMIT 1) p ON true`,
    [conversationId, owner, until, now],
  );
  if (!row) return undefined;
  const pending =
    row.pending_id === null
      ? undefined
      : { id: row.pending_id, text: row.pending_text!, messageId: row.pending_message_id! };
  return { conversation: toConversationRecord(row), pending };
}

/**
 * The common tail of a relay's step, as CTEs named `lease_w` and `lease_c` for a statement to take
 * in: while `owner` holds the conversation's lease, renews it until `until` when work is left (a
 * pending message, or a close not yet passed on), or else lets it go. `done` is the id of a pending
 * message the same statement accepts (its change is not visible to the statement's other parts),
 * or 0. Read the outcome with `LEASE_NEXT_COLUMNS` and `leaseOutcome`.
 */
export const leaseContinuation = (
  conversationId: string,
  owner: string,
  until: string,
  done: string,
  when = 'true',
): string =>
  `lease_w AS (
       SELECT c.id, EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.upstream = 'pending' AND m.id <> ${done})
         OR (c.close_requested AND NOT c.engine_closed) AS work_left
       FROM conversations c WHERE c.id = ${conversationId} AND c.relay_owner = ${owner} AND ${when}
     ), lease_c AS (
       UPDATE conversations u SET relay_owner = CASE WHEN lease_w.work_left THEN ${owner} END, relay_lease_until = CASE WHEN lease_w.work_left THEN ${until}::timestamptz END
       FROM lease_w WHERE u.id = lease_w.id AND u.relay_owner = ${owner} RETURNING u.*, lease_w.work_left
     )`;

const NEXT_CONVERSATION_COLUMNS = CONVERSATION_COLUMNS.replaceAll(/c\.(\w+)/g, 'c.$1 AS next_$1');

/** What a `leaseContinuation` did, to select: its columns are prefixed `next_` (select list and FROM). */
export const leaseNextSelect = (done: string): string =>
  `${NEXT_CONVERSATION_COLUMNS}, c.work_left AS next_work_left,
     p.id AS next_pending_id, p.text AS next_pending_text, p.message_id AS next_pending_message_id
     FROM lease_c c LEFT JOIN LATERAL (
       SELECT m.id, ${engineText('m')} AS text, m.message_id FROM messages m
       WHERE m.conversation_id = c.id AND m.upstream = 'pending' AND m.id <> ${done} ORDER BY m.id LIMIT 1
     ) p ON true`;

/** What the relay does next, from a row of `leaseNextSelect`: undefined when the lease was let go, or is not this owner's. */
export function leaseOutcome(row: Record<string, unknown> | undefined): OutboxWork | undefined {
  if (!row?.['next_work_left']) return undefined;
  const conversation = Object.fromEntries(
    Object.entries(row)
      .filter(([name]) => name.startsWith('next_'))
      .map(([name, value]) => [name.slice(5), value]),
  ) as unknown as ConversationRow;
  const pending =
    row['next_pending_id'] == null
      ? undefined
      : {
          id: Number(row['next_pending_id']),
          text: String(row['next_pending_text']),
          messageId: String(row['next_pending_message_id']),
        };
  // Its created_at is a Date, or text when the statement gave its row as JSON (`JsonRow`).
  return {
    conversation: toConversationRecord({ ...conversation, created_at: new Date(conversation.created_at) }),
    pending,
  };
}

/**
 * After a step, while holding the lease: renews it and reads the next work when there is any (a
 * pending message, or a close not yet passed on), or else lets it go, in one statement. Gives
 * undefined when the lease was let go, or is no longer this owner's (it ran out and another relay
 * took it). An answer the relay records usually does this in its own statement (`recordAnswerEvent`).
 */
export async function continueOutbox(
  db: Queryable,
  conversationId: number,
  owner: string,
  until: Date,
): Promise<OutboxWork | undefined> {
  const [row] = await db.query<Record<string, unknown>>(
    `WITH ${leaseContinuation('$1', '$2', '$3', '0')} SELECT ${leaseNextSelect('0')}`,
    [conversationId, owner, until],
  );
  return leaseOutcome(row);
}

/**
 * Lets the lease go and tells whether work came in meanwhile (a message or a close, stored by
 * another node that could not claim the lease): then the caller drains again.
 */
export async function releaseOutbox(db: Queryable, conversationId: number, owner: string): Promise<boolean> {
  const [row] = await db.query<{ work_left: boolean }>(
    `UPDATE conversations c SET relay_owner = NULL, relay_lease_until = NULL WHERE id = $1 AND relay_owner = $2
     RETURNING EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.upstream = 'pending')
       OR (c.close_requested AND NOT c.engine_closed) AS work_left`,
    [conversationId, owner],
  );
  return row?.work_left ?? false;
}

export async function setUpstream(
  db: Queryable,
  messageRowId: number,
  upstream: 'forwarded' | 'rejected',
): Promise<void> {
  await db.query('UPDATE messages SET upstream = $2 WHERE id = $1', [messageRowId, upstream]);
}

/** Conversations with work for the engine: messages waiting, or a close not yet passed on. */
export async function conversationsWithUpstreamWork(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `SELECT DISTINCT conversation_id AS id FROM messages WHERE upstream = 'pending'
     UNION SELECT id FROM conversations WHERE close_requested AND NOT engine_closed`,
  );
  return rows.map((row) => row.id);
}
