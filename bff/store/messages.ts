import type { MessageAuthor, ReplyCard, ReplyChoice, WidgetAttachment, WidgetMessage } from '../../shared/index.ts';
import { attachmentKind, type Queryable } from '../../shared/server/index.ts';
import type { ConversationRecord } from './conversations.ts';

/** The widget asks for a rating with its own form, so it is not shown the survey question (the Client API is). */
export const FOR_WIDGET = "m.content_type <> 'input_csat' AND NOT m.private";

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
  /** JSON of the message's attachments (`ATTACHMENTS_COLUMN`), null without any. */
  attachments?: AttachmentJson[] | null;
}

/** An attachment as `ATTACHMENTS_COLUMN` reads it. */
interface AttachmentJson {
  id: number;
  content_type: WidgetAttachment['content_type'];
  name: string;
  size: number;
  width: number | null;
  height: number | null;
}

/** The attachments of the message `m`, oldest first, as JSON (null when it has none). */
const ATTACHMENTS_COLUMN = `(SELECT json_agg(json_build_object('id', a.id, 'content_type', a.content_type, 'name', a.name, 'size', a.size, 'width', a.width, 'height', a.height) ORDER BY a.id)
  FROM attachments a WHERE a.message_id = m.id) AS attachments`;

/** An attachment as the widget shows it, with the path its bytes are served at to the same session. */
export const widgetAttachment = (conversationUuid: string, attachment: AttachmentJson): WidgetAttachment => ({
  id: Number(attachment.id),
  kind: attachmentKind(attachment.content_type),
  content_type: attachment.content_type,
  name: attachment.name,
  size: attachment.size,
  width: attachment.width,
  height: attachment.height,
  url: `/v1/widget/conversations/${conversationUuid}/attachments/${attachment.id}`,
});

/** What some answers carry besides their text. */
export interface MessageAttributes {
  choices?: ReplyChoice[] | undefined;
  card?: ReplyCard | undefined;
  /** Which notice of a move a system message is (`WidgetMessage.notice`). */
  notice?: 'handover' | 'handback' | undefined;
}

/** The attributes worth keeping (none for most messages). */
const keptAttributes = (attributes: MessageAttributes | undefined): MessageAttributes | undefined =>
  attributes && (attributes.choices || attributes.card || attributes.notice) ? attributes : undefined;

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
  ...(row.attributes?.notice ? { notice: row.attributes.notice } : {}),
  ...(row.attachments?.length
    ? { attachments: row.attachments.map((attachment) => widgetAttachment(row.conversation_uuid, attachment)) }
    : {}),
});

const MESSAGE_STATUS = `CASE WHEN m.author <> 'customer' THEN 'sent'
  WHEN m.upstream = 'rejected' THEN 'failed'
  WHEN m.read_at IS NOT NULL THEN 'read'
  WHEN m.upstream = 'forwarded' THEN 'delivered'
  ELSE 'sent' END`;

const MESSAGE_SELECT = `SELECT m.id, c.uuid AS conversation_uuid, m.message_id, m.author, m.author_name, m.text, ${MESSAGE_STATUS} AS status, m.attributes, m.created_at,
  ${ATTACHMENTS_COLUMN}
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
  /** A note of the people answering: never shown to the customer. */
  private?: boolean | undefined;
  /** Who wrote a note: a person of the account, or an agent bot (answers get theirs with `setMessageSender`). */
  sender?: MessageSender | undefined;
}

/** A person or an agent bot of the helpdesk, who wrote an answer or a note. */
export type MessageSender = { userId: number } | { agentBotId: number };

/** A message's columns and their parameters, as `messageValues` gives them. */
const MESSAGE_COLUMNS = `conversation_id, author, author_name, text, message_id, engine_event_id, upstream, attributes, created_at, content_type, private,
       sender_user_id, sender_agent_bot_id`;
const MESSAGE_PARAMETERS = '$1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13';

/** The parameters $1 to $13 of `MESSAGE_PARAMETERS`. */
const messageValues = (conversation: ConversationRecord, message: NewMessage, now: Date): unknown[] => [
  conversation.id,
  message.author,
  message.authorName ?? null,
  message.text,
  message.messageId ?? null,
  message.engineEventId ?? null,
  message.upstream ?? 'none',
  keptAttributes(message.attributes) ? JSON.stringify(message.attributes) : null,
  now,
  message.contentType ?? 'text',
  message.private ?? false,
  message.sender && 'userId' in message.sender ? message.sender.userId : null,
  message.sender && 'agentBotId' in message.sender ? message.sender.agentBotId : null,
];

/** A new message as the client sees it: every field is known when it is inserted (a new message is always `sent`), so it is not read back. */
function newMessage(id: number, conversation: ConversationRecord, message: NewMessage, now: Date): WidgetMessage {
  const attributes = keptAttributes(message.attributes);
  return {
    id,
    conversation_id: conversation.uuid,
    message_id: message.messageId ?? null,
    author: message.author,
    author_name: message.authorName ?? null,
    text: message.text,
    status: 'sent',
    choices: attributes?.choices ?? null,
    card: attributes?.card ?? null,
    created_at: now.toISOString(),
    ...(attributes?.notice ? { notice: attributes.notice } : {}),
  };
}

/**
 * Inserts a message unless its `message_id` (per conversation) or `engine_event_id` is already
 * stored. Gives the message and whether it is new, so a repeat is answered with the first copy.
 */
export async function insertMessage(
  db: Queryable,
  conversation: ConversationRecord,
  message: NewMessage,
  now: Date,
): Promise<{ message: WidgetMessage; created: boolean }> {
  const insert = `INSERT INTO messages (${MESSAGE_COLUMNS}) VALUES (${MESSAGE_PARAMETERS}) ON CONFLICT DO NOTHING RETURNING id`;
  const [inserted] = await db.query<{ id: number }>(
    // The customer writing again ends a snooze (Chatwoot's): in the same statement, only when the message is new.
    message.author === 'customer'
      ? `WITH inserted AS (${insert}),
           woken AS (UPDATE conversations SET snoozed_until = NULL WHERE id = $1 AND snoozed_until IS NOT NULL AND EXISTS (SELECT 1 FROM inserted))
         SELECT id FROM inserted`
      : insert,
    messageValues(conversation, message, now),
  );
  if (inserted) return { message: newMessage(inserted.id, conversation, message, now), created: true };
  const existing = message.messageId
    ? await findMessageByMessageId(db, conversation.id, message.messageId)
    : await findMessageOfEvent(db, message.engineEventId ?? '');
  if (!existing) throw new Error('a message conflicted with a row that cannot be found');
  return { message: existing, created: false };
}

/** The message a client kept under `messageId` in the conversation (its retries name the same id). */
export async function findMessageByMessageId(
  db: Queryable,
  conversationId: number,
  messageId: string,
): Promise<WidgetMessage | undefined> {
  const [row] = await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.conversation_id = $1 AND m.message_id = $2`, [
    conversationId,
    messageId,
  ]);
  return row && toWidgetMessage(row);
}

async function findMessageOfEvent(db: Queryable, engineEventId: string): Promise<WidgetMessage | undefined> {
  const [row] = await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.engine_event_id = $1`, [engineEventId]);
  return row && toWidgetMessage(row);
}

export async function findMessage(db: Queryable, id: number): Promise<WidgetMessage | undefined> {
  const [row] = await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.id = $1`, [id]);
  return row && toWidgetMessage(row);
}

/** Messages of a conversation after the message id `after`, oldest first. */
export async function listMessages(
  db: Queryable,
  conversationId: number,
  after: number,
  limit: number,
): Promise<WidgetMessage[]> {
  const rows = await db.query<MessageRow>(
    `${MESSAGE_SELECT} WHERE m.conversation_id = $1 AND m.id > $2 AND ${FOR_WIDGET} ORDER BY m.id LIMIT $3`,
    [conversationId, after, limit],
  );
  return rows.map(toWidgetMessage);
}

/** The id of the message an engine event made, if one did. */
export async function messageIdOfEvent(
  db: Queryable,
  conversationId: number,
  engineEventId: string,
): Promise<number | undefined> {
  const [row] = await db.query<{ id: number }>(
    'SELECT id FROM messages WHERE engine_event_id = $1 AND conversation_id = $2',
    [engineEventId, conversationId],
  );
  return row?.id;
}

/**
 * Settles the customer's side after the engine answered, in one statement: the message
 * `forwardedId` (0 for none) is accepted by the engine, and when the engine answered with the
 * message `answerId` (0 for none) the customer's accepted messages before it become read. Gives
 * the ids that became read.
 */
export async function settleCustomerMessages(
  db: Queryable,
  conversationId: number,
  forwardedId: number,
  answerId: number,
  now: Date,
): Promise<number[]> {
  const [row] = await db.query<{ read_ids: number[] | null }>(
    `WITH settled AS (
       UPDATE messages SET
         upstream = CASE WHEN id = $2 THEN 'forwarded' ELSE upstream END,
         read_at = CASE WHEN id < $3 THEN $4 ELSE read_at END
       WHERE conversation_id = $1
         AND (id = $2 OR (id < $3 AND author = 'customer' AND read_at IS NULL AND upstream = 'forwarded'))
       RETURNING id, read_at IS NOT NULL AS read
     )
     SELECT (SELECT json_agg(id ORDER BY id) FROM settled WHERE read) AS read_ids`,
    [conversationId, forwardedId, answerId, now],
  );
  // JSON, because pg gives a bigint[] as strings (its bigint parser is for single values).
  return row?.read_ids ?? [];
}

/**
 * Records who sent an answer that came back from the engine as an event (a person's answer, or an
 * agent bot's). The event may have been recorded first by a webhook that raced the answer, so the
 * stored message is found by the event's id.
 */
export async function setMessageSender(db: Queryable, engineEventId: string, sender: MessageSender): Promise<void> {
  await db.query('UPDATE messages SET sender_user_id = $2, sender_agent_bot_id = $3 WHERE engine_event_id = $1', [
    engineEventId,
    'userId' in sender ? sender.userId : null,
    'agentBotId' in sender ? sender.agentBotId : null,
  ]);
}
