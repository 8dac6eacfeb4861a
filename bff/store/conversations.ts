import { randomUUID } from 'node:crypto';
import type { MessageAuthor, ReplyCard, ReplyChoice, WidgetConversation, WidgetMessage } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';

/** A conversation as the BFF keeps it: its own ids, the customer, and the engine's id once known. */
export interface ConversationRecord {
  id: number;
  uuid: string;
  inboxId: string;
  customerRef: string;
  engineConversationId: string | null;
  status: 'open' | 'resolved';
  handledBy: 'ai' | 'human';
  closeRequested: boolean;
  engineClosed: boolean;
  customerLastReadId: number;
  createdAt: Date;
}

interface ConversationRow {
  id: number;
  uuid: string;
  inbox_id: string;
  customer_ref: string;
  engine_conversation_id: string | null;
  status: 'open' | 'resolved';
  handled_by: 'ai' | 'human';
  close_requested: boolean;
  engine_closed: boolean;
  customer_last_read_id: number;
  created_at: Date;
}

const COLUMNS = 'c.id, c.uuid, c.inbox_id, c.customer_ref, c.engine_conversation_id, c.status, c.handled_by, c.close_requested, c.engine_closed, c.customer_last_read_id, c.created_at';

const toRecord = (row: ConversationRow): ConversationRecord => ({
  id: row.id,
  uuid: row.uuid,
  inboxId: row.inbox_id,
  customerRef: row.customer_ref,
  engineConversationId: row.engine_conversation_id,
  status: row.status,
  handledBy: row.handled_by,
  closeRequested: row.close_requested,
  engineClosed: row.engine_closed,
  customerLastReadId: row.customer_last_read_id,
  createdAt: row.created_at,
});

export async function insertConversation(db: Queryable, inboxId: string, customerRef: string, now: Date, contact: { name?: string | undefined; email?: string | undefined } = {}): Promise<ConversationRecord> {
  const [row] = await db.query<ConversationRow>(
    `INSERT INTO conversations AS c (uuid, inbox_id, customer_ref, contact_name, contact_email, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING ${COLUMNS}`,
    [randomUUID(), inboxId, customerRef, contact.name ?? null, contact.email ?? null, now],
  );
  return toRecord(row!);
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The customer's conversation by its public id; undefined for anyone else's or a malformed id. */
export async function findCustomerConversation(db: Queryable, inboxId: string, customerRef: string, uuid: string, lock = false): Promise<ConversationRecord | undefined> {
  if (!UUID_PATTERN.test(uuid)) return undefined;
  const [row] = await db.query<ConversationRow>(
    `SELECT ${COLUMNS} FROM conversations c WHERE c.uuid = $1 AND c.inbox_id = $2 AND c.customer_ref = $3${lock ? ' FOR UPDATE' : ''}`,
    [uuid, inboxId, customerRef],
  );
  return row && toRecord(row);
}

export async function findConversationById(db: Queryable, id: number, lock = false): Promise<ConversationRecord | undefined> {
  const [row] = await db.query<ConversationRow>(`SELECT ${COLUMNS} FROM conversations c WHERE c.id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return row && toRecord(row);
}

export async function findConversationByEngineId(db: Queryable, engineConversationId: string, lock = false): Promise<ConversationRecord | undefined> {
  const [row] = await db.query<ConversationRow>(`SELECT ${COLUMNS} FROM conversations c WHERE c.engine_conversation_id = $1${lock ? ' FOR UPDATE' : ''}`, [engineConversationId]);
  return row && toRecord(row);
}

/** Records the engine's id for a conversation unless one is already there; gives the one that holds. */
export async function attachEngineConversation(db: Queryable, id: number, engineConversationId: string): Promise<string> {
  const [row] = await db.query<{ engine_conversation_id: string }>(
    'UPDATE conversations SET engine_conversation_id = COALESCE(engine_conversation_id, $2) WHERE id = $1 RETURNING engine_conversation_id',
    [id, engineConversationId],
  );
  return row!.engine_conversation_id;
}

export interface ConversationChanges {
  status?: 'open' | 'resolved';
  handledBy?: 'ai' | 'human';
  closeRequested?: boolean;
  engineClosed?: boolean;
  resolvedByAi?: boolean;
}

export async function updateConversation(db: Queryable, id: number, changes: ConversationChanges, now: Date): Promise<void> {
  const sets = ['updated_at = $2'];
  const params: unknown[] = [id, now];
  const columns: [keyof ConversationChanges, string][] = [
    ['status', 'status'],
    ['handledBy', 'handled_by'],
    ['closeRequested', 'close_requested'],
    ['engineClosed', 'engine_closed'],
    ['resolvedByAi', 'resolved_by_ai'],
  ];
  for (const [key, column] of columns) {
    if (changes[key] === undefined) continue;
    params.push(changes[key]);
    sets.push(`${column} = $${params.length}`);
  }
  await db.query(`UPDATE conversations SET ${sets.join(', ')} WHERE id = $1`, params);
}

/** Moves the customer's read position forward (never back); gives the position that holds. */
export async function markReadUpTo(db: Queryable, id: number, lastReadId: number): Promise<number> {
  const [row] = await db.query<{ customer_last_read_id: number }>(
    `UPDATE conversations SET customer_last_read_id = GREATEST(customer_last_read_id, LEAST($2, COALESCE((SELECT max(id) FROM messages WHERE conversation_id = $1), 0)))
     WHERE id = $1 RETURNING customer_last_read_id`,
    [id, lastReadId],
  );
  return row!.customer_last_read_id;
}

/** The widget asks for a rating with its own form, so it is not shown the survey question (the Client API is). */
const FOR_WIDGET = "m.content_type <> 'input_csat'";

export async function unreadCount(db: Queryable, id: number): Promise<number> {
  const [row] = await db.query<{ unread: number }>(
    `SELECT count(*)::int AS unread FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.id = $1 AND m.author <> 'customer' AND m.id > c.customer_last_read_id AND ${FOR_WIDGET}`,
    [id],
  );
  return row?.unread ?? 0;
}

interface MessageRow {
  id: number;
  conversation_uuid: string;
  message_id: string | null;
  author: MessageAuthor;
  author_name: string | null;
  text: string;
  status: WidgetMessage['status'];
  attributes: MessageAttributes | null;
  created_at: Date;
}

/** What some answers carry besides their text. */
export interface MessageAttributes {
  choices?: ReplyChoice[] | undefined;
  card?: ReplyCard | undefined;
}

const toWidgetMessage = (row: MessageRow): WidgetMessage => ({
  id: row.id,
  conversation_id: row.conversation_uuid,
  message_id: row.message_id,
  author: row.author,
  author_name: row.author_name,
  text: row.text,
  status: row.status,
  choices: row.attributes?.choices ?? null,
  card: row.attributes?.card ?? null,
  created_at: row.created_at.toISOString(),
});

const MESSAGE_STATUS = `CASE WHEN m.author <> 'customer' THEN 'sent'
  WHEN m.upstream = 'rejected' THEN 'failed'
  WHEN m.read_at IS NOT NULL THEN 'read'
  WHEN m.upstream = 'forwarded' THEN 'delivered'
  ELSE 'sent' END`;

const MESSAGE_SELECT = `SELECT m.id, c.uuid AS conversation_uuid, m.message_id, m.author, m.author_name, m.text, ${MESSAGE_STATUS} AS status, m.attributes, m.created_at
  FROM messages m JOIN conversations c ON c.id = m.conversation_id`;

export interface NewMessage {
  author: MessageAuthor;
  text: string;
  authorName?: string | undefined;
  messageId?: string | undefined;
  engineEventId?: string | undefined;
  upstream?: 'none' | 'pending' | undefined;
  attributes?: MessageAttributes | undefined;
  /** `text` unless the message is something else, such as the survey question (`input_csat`). */
  contentType?: string | undefined;
}

/**
 * Inserts a message unless its `message_id` (per conversation) or `engine_event_id` is already
 * stored. Gives the message and whether it is new, so a repeat is answered with the first copy.
 */
export async function insertMessage(db: Queryable, conversation: ConversationRecord, message: NewMessage, now: Date): Promise<{ message: WidgetMessage; created: boolean }> {
  const [inserted] = await db.query<{ id: number }>(
    `INSERT INTO messages (conversation_id, author, author_name, text, message_id, engine_event_id, upstream, attributes, created_at, content_type)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10) ON CONFLICT DO NOTHING RETURNING id`,
    [
      conversation.id,
      message.author,
      message.authorName ?? null,
      message.text,
      message.messageId ?? null,
      message.engineEventId ?? null,
      message.upstream ?? 'none',
      message.attributes && (message.attributes.choices || message.attributes.card) ? JSON.stringify(message.attributes) : null,
      now,
      message.contentType ?? 'text',
    ],
  );
  if (inserted) {
    // A new message's every field is known here (a new message is always `sent`): no read back.
    const attributes = message.attributes && (message.attributes.choices || message.attributes.card) ? message.attributes : undefined;
    return {
      message: {
        id: inserted.id,
        conversation_id: conversation.uuid,
        message_id: message.messageId ?? null,
        author: message.author,
        author_name: message.authorName ?? null,
        text: message.text,
        status: 'sent',
        choices: attributes?.choices ?? null,
        card: attributes?.card ?? null,
        created_at: now.toISOString(),
      },
      created: true,
    };
  }
  const [existing] = message.messageId
    ? await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.conversation_id = $1 AND m.message_id = $2`, [conversation.id, message.messageId])
    : await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.engine_event_id = $1`, [message.engineEventId ?? null]);
  if (!existing) throw new Error('a message conflicted with a row that cannot be found');
  return { message: toWidgetMessage(existing), created: false };
}

export async function findMessage(db: Queryable, id: number): Promise<WidgetMessage | undefined> {
  const [row] = await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.id = $1`, [id]);
  return row && toWidgetMessage(row);
}

/** Messages of a conversation after the message id `after`, oldest first. */
export async function listMessages(db: Queryable, conversationId: number, after: number, limit: number): Promise<WidgetMessage[]> {
  const rows = await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.conversation_id = $1 AND m.id > $2 AND ${FOR_WIDGET} ORDER BY m.id LIMIT $3`, [conversationId, after, limit]);
  return rows.map(toWidgetMessage);
}

/**
 * What the relay has to do for a conversation, in one read: the conversation, and its oldest
 * customer message that the engine has not accepted yet (if any).
 */
export async function upstreamWork(db: Queryable, conversationId: number): Promise<{ conversation: ConversationRecord; pending: { id: number; text: string; messageId: string } | undefined } | undefined> {
  const [row] = await db.query<ConversationRow & { pending_id: number | null; pending_text: string | null; pending_message_id: string | null }>(
    `SELECT ${COLUMNS}, p.id AS pending_id, p.text AS pending_text, p.message_id AS pending_message_id
     FROM conversations c
     LEFT JOIN LATERAL (SELECT m.id, m.text, m.message_id FROM messages m WHERE m.conversation_id = c.id AND m.upstream = 'pending' ORDER BY m.id LIMIT 1) p ON true
     WHERE c.id = $1`,
    [conversationId],
  );
  if (!row) return undefined;
  const pending = row.pending_id === null ? undefined : { id: row.pending_id, text: row.pending_text!, messageId: row.pending_message_id! };
  return { conversation: toRecord(row), pending };
}

/**
 * Takes (or renews) the right to forward a conversation's outbox until `until`. Gives false while
 * another relay (another node) holds an unexpired lease.
 */
export async function claimRelay(db: Queryable, conversationId: number, owner: string, now: Date, until: Date): Promise<boolean> {
  const rows = await db.query(
    'UPDATE conversations SET relay_owner = $2, relay_lease_until = $3 WHERE id = $1 AND (relay_owner IS NULL OR relay_owner = $2 OR relay_lease_until < $4) RETURNING id',
    [conversationId, owner, until, now],
  );
  return rows.length > 0;
}

export async function releaseRelay(db: Queryable, conversationId: number, owner: string): Promise<void> {
  await db.query('UPDATE conversations SET relay_owner = NULL, relay_lease_until = NULL WHERE id = $1 AND relay_owner = $2', [conversationId, owner]);
}

/** Which of these engine event ids are recorded already (whichever path brought them). */
export async function seenEngineEvents(db: Queryable, eventIds: readonly string[]): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = await db.query<{ event_id: string }>('SELECT event_id FROM engine_events_seen WHERE event_id = ANY($1::text[])', [eventIds]);
  return new Set(rows.map((row) => row.event_id));
}

export async function setUpstream(db: Queryable, messageRowId: number, upstream: 'forwarded' | 'rejected'): Promise<void> {
  await db.query('UPDATE messages SET upstream = $2 WHERE id = $1', [messageRowId, upstream]);
}

/** Marks the customer's messages before `beforeId` read; gives the ids that changed. */
export async function markCustomerMessagesRead(db: Queryable, conversationId: number, beforeId: number, now: Date): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    "UPDATE messages SET read_at = $3 WHERE conversation_id = $1 AND id < $2 AND author = 'customer' AND read_at IS NULL AND upstream = 'forwarded' RETURNING id",
    [conversationId, beforeId, now],
  );
  return rows.map((row) => row.id);
}

/** Conversations with work for the engine: messages waiting, or a close not yet passed on. */
export async function conversationsWithUpstreamWork(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `SELECT DISTINCT conversation_id AS id FROM messages WHERE upstream = 'pending'
     UNION SELECT id FROM conversations WHERE close_requested AND NOT engine_closed`,
  );
  return rows.map((row) => row.id);
}

/** The widget's view of conversations: with unread count, last message (notices aside, for the list's preview) and survey answer. */
export async function conversationViews(db: Queryable, where: { inboxId: string; customerRef: string; id?: number }): Promise<WidgetConversation[]> {
  const params: unknown[] = [where.inboxId, where.customerRef];
  if (where.id !== undefined) params.push(where.id);
  const rows = await db.query<ConversationRow & { unread: number; rating: number | null; comment: string | null; last_id: number | null }>(
    `SELECT ${COLUMNS},
       (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id AND m.author <> 'customer' AND m.id > c.customer_last_read_id AND ${FOR_WIDGET})::int AS unread,
       (SELECT max(l.id) FROM messages l WHERE l.conversation_id = c.id AND l.author <> 'system') AS last_id,
       s.rating, s.comment
     FROM conversations c LEFT JOIN surveys s ON s.conversation_id = c.id
     WHERE c.inbox_id = $1 AND c.customer_ref = $2 ${where.id !== undefined ? 'AND c.id = $3' : ''}
     ORDER BY c.id DESC LIMIT 100`,
    params,
  );
  return Promise.all(
    rows.map(async (row) => ({
      id: row.uuid,
      status: row.status,
      handled_by: row.handled_by,
      created_at: row.created_at.toISOString(),
      unread: row.unread,
      last_message: row.last_id === null ? null : ((await findMessage(db, row.last_id)) ?? null),
      survey: row.rating === null ? null : { rating: row.rating, comment: row.comment ?? '' },
    })),
  );
}

export async function saveSurvey(db: Queryable, conversationId: number, rating: number, comment: string, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO surveys (conversation_id, rating, comment, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (conversation_id) DO UPDATE SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, updated_at = EXCLUDED.updated_at`,
    [conversationId, rating, comment, now],
  );
}

/** The question a resolve adds to the conversation, for Client API clients (Chatwoot's `input_csat` message). */
const SURVEY_QUESTION = 'Please rate this conversation.';

/**
 * Asks for a rating: adds the survey question to a resolved conversation when its inbox asks for
 * surveys and the question is not there yet. Gives the new message, or nothing.
 */
export async function askSurvey(db: Queryable, conversation: ConversationRecord, now: Date): Promise<WidgetMessage | undefined> {
  const [wanted] = await db.query<{ yes: boolean }>(
    `SELECT true AS yes FROM inboxes i WHERE i.id = $1 AND i.survey_enabled
       AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = $2 AND m.content_type = 'input_csat')`,
    [conversation.inboxId, conversation.id],
  );
  if (!wanted) return undefined;
  const { message } = await insertMessage(db, conversation, { author: 'system', text: SURVEY_QUESTION, contentType: 'input_csat' }, now);
  return message;
}

/** The survey question of a conversation (its id and when it was asked), if one was asked. */
export async function surveyQuestion(db: Queryable, conversationId: number): Promise<{ id: number; askedAt: Date } | undefined> {
  const [row] = await db.query<{ id: number; created_at: Date }>(
    "SELECT id, created_at FROM messages WHERE conversation_id = $1 AND content_type = 'input_csat' ORDER BY id DESC LIMIT 1",
    [conversationId],
  );
  return row && { id: row.id, askedAt: row.created_at };
}

/** Keeps the answer on the question too, as Chatwoot's `submitted_values` does. */
export async function saveSurveyAnswer(db: Queryable, questionId: number, rating: number, comment: string): Promise<void> {
  await db.query('UPDATE messages SET submitted_values = $2::jsonb WHERE id = $1', [questionId, JSON.stringify({ csat_survey_response: { rating, feedback_message: comment } })]);
}
