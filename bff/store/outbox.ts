import type { Queryable } from '../../shared/server/index.ts';
import {
  CONVERSATION_COLUMNS,
  toConversationRecord,
  type ConversationRecord,
  type ConversationRow,
} from './conversations.ts';

/**
 * What the engine is told of a customer's message `m` (the relay's outbox reads it): each of its
 * attachments named first, `[photo: broken-mug.jpg]`, `[file: receipt.pdf]`, `[voice note: note.ogg]` or
 * `[video: clip.mp4]`, then its text. A
 * message without attachments is its text as it is. At most 150,000 characters, as a message's text.
 */
const engineText = (m: string): string =>
  `LEFT(CONCAT_WS(' ', (SELECT string_agg(CASE WHEN a.content_type = 'application/pdf' THEN '[file: ' WHEN a.content_type LIKE 'audio/%' THEN '[voice note: ' WHEN a.content_type LIKE 'video/%' THEN '[video: ' ELSE '[photo: ' END || a.name || ']', ' ' ORDER BY a.id)
     FROM attachments a WHERE a.message_id = ${m}.id), NULLIF(${m}.text, '')), 150000)`;

/** A voice note of a pending message, uploaded to the engine's /v1/media so that the AI hears it (issue 30). */
export interface PendingVoiceNote {
  id: number;
  storageKey: string;
  name: string;
  contentType: string;
}

/** A customer message the engine has not accepted yet. */
export interface PendingMessage {
  id: number;
  /** What the engine is told: the message's text, after its attachments' names (`engineText`). */
  text: string;
  messageId: string;
  /** Its voice notes, in order. */
  voiceNotes: PendingVoiceNote[];
  /** Whether the customer wrote words too (a voice note alone is the customer's words once transcribed). */
  hasText: boolean;
}

/** The oldest pending message of conversation `c`, with its voice notes. */
const PENDING = `SELECT m.id, ${engineText('m')} AS text, m.message_id, NULLIF(m.text, '') IS NOT NULL AS has_text,
  (SELECT json_agg(json_build_object('id', a.id, 'storageKey', a.storage_key, 'name', a.name, 'contentType', a.content_type) ORDER BY a.id)
     FROM attachments a WHERE a.message_id = m.id AND a.content_type LIKE 'audio/%') AS voice
  FROM messages m WHERE m.conversation_id = c.id AND m.upstream = 'pending' ORDER BY m.id LIMIT 1`;
const PENDING_COLUMNS = `p.id AS pending_id, p.text AS pending_text, p.message_id AS pending_message_id,
  p.has_text AS pending_has_text, p.voice AS pending_voice`;

/** What the relay has to do for a conversation: the conversation, and its oldest pending message (if any). */
export interface OutboxWork {
  conversation: ConversationRecord;
  pending: PendingMessage | undefined;
}

type OutboxRow = ConversationRow & {
  pending_id: number | null;
  pending_text: string | null;
  pending_message_id: string | null;
  pending_has_text: boolean | null;
  pending_voice: PendingVoiceNote[] | string | null;
};

/** json_agg comes back parsed from PostgreSQL, and as text from some drivers. */
const voiceNotesOf = (value: OutboxRow['pending_voice']): PendingVoiceNote[] =>
  (typeof value === 'string' ? (JSON.parse(value) as PendingVoiceNote[]) : value) ?? [];

const outboxWork = (row: OutboxRow): OutboxWork => ({
  conversation: toConversationRecord(row),
  pending:
    row.pending_id === null
      ? undefined
      : {
          id: Number(row.pending_id),
          text: row.pending_text!,
          messageId: row.pending_message_id!,
          voiceNotes: voiceNotesOf(row.pending_voice),
          hasText: row.pending_has_text === true,
        },
});

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
  const [row] = await db.query<OutboxRow>(
    `WITH c AS (
       UPDATE conversations SET relay_owner = $2, relay_lease_until = $3
       WHERE id = $1 AND (relay_owner IS NULL OR relay_owner = $2 OR relay_lease_until < $4) RETURNING *
     )
     SELECT ${CONVERSATION_COLUMNS}, ${PENDING_COLUMNS}
     FROM c LEFT JOIN LATERAL (${PENDING}) p ON true`,
    [conversationId, owner, until, now],
  );
  return row && outboxWork(row);
}

/**
 * After a step, while holding the lease: renews it and reads the next work when there is any (a
 * pending message, or a close not yet passed on), or else lets it go, in one statement. Gives
 * undefined when the lease was let go, or is no longer this owner's (it ran out and another relay
 * took it).
 */
export async function continueOutbox(
  db: Queryable,
  conversationId: number,
  owner: string,
  until: Date,
): Promise<OutboxWork | undefined> {
  const [row] = await db.query<OutboxRow>(
    `WITH w AS (
       SELECT c.id, EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.upstream = 'pending')
         OR (c.close_requested AND NOT c.engine_closed) AS work_left
       FROM conversations c WHERE c.id = $1 AND c.relay_owner = $2
     ), c AS (
       UPDATE conversations u SET relay_owner = CASE WHEN w.work_left THEN $2 END,
         relay_lease_until = CASE WHEN w.work_left THEN $3::timestamptz END
       FROM w WHERE u.id = w.id AND u.relay_owner = $2 RETURNING u.*, w.work_left
     )
     SELECT ${CONVERSATION_COLUMNS}, ${PENDING_COLUMNS}
     FROM c LEFT JOIN LATERAL (${PENDING}) p ON true
     WHERE c.work_left`,
    [conversationId, owner, until],
  );
  return row && outboxWork(row);
}

/** Renews this owner's leases of `conversationIds` (those it is draining) until `until`; others' are left alone. */
export async function renewOutboxLeases(
  db: Queryable,
  conversationIds: readonly number[],
  owner: string,
  until: Date,
): Promise<void> {
  if (conversationIds.length === 0) return;
  await db.query('UPDATE conversations SET relay_lease_until = $3 WHERE id = ANY($1::bigint[]) AND relay_owner = $2', [
    conversationIds,
    owner,
    until,
  ]);
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

/** Keeps the engine's id of a voice note uploaded there, to match its `media.understood` (the transcript). */
export async function setEngineMediaId(db: Queryable, attachmentId: number, engineMediaId: string): Promise<void> {
  await db.query('UPDATE attachments SET engine_media_id = $2 WHERE id = $1', [attachmentId, engineMediaId]);
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
