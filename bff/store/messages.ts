import type { MessageAuthor, ReplyCard, ReplyChoice, WidgetAttachment, WidgetMessage } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { SessionStanding } from '../widget/sessions.ts';
import { deskTargetsColumn } from '../helpdesk/store/desk-webhooks.ts';
import { engineText } from '../attachments/store.ts';
import { leaseContinuation, leaseNextSelect, leaseOutcome, type OutboxWork } from './outbox.ts';
import {
  CONVERSATION_COLUMNS,
  conversationFromJson,
  isConversationUuid,
  type ConversationOwner,
  type ConversationRecord,
  type ConversationRow,
  type JsonRow,
} from './conversations.ts';

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
  kind: attachment.content_type === 'application/pdf' ? 'file' : 'image',
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
  const [existing] = message.messageId
    ? await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.conversation_id = $1 AND m.message_id = $2`, [
        conversation.id,
        message.messageId,
      ])
    : await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.engine_event_id = $1`, [message.engineEventId ?? null]);
  if (!existing) throw new Error('a message conflicted with a row that cannot be found');
  return { message: toWidgetMessage(existing), created: false };
}

/** A customer's message as the widget (or the Client API) sends it. */
export interface CustomerMessage {
  text: string;
  messageId: string;
}

/**
 * What `storeCustomerMessage` found: the customer's conversation (locked), and the message (new,
 * or the copy kept before with the same `message_id`), or none when the conversation is resolved
 * and the message is new (it is not kept).
 */
export interface StoredCustomerMessage {
  conversation: ConversationRecord;
  stored: { message: WidgetMessage; created: boolean } | undefined;
  /** With `alone`: the message was new, but someone hears of the inbox, so nothing was kept. */
  heard?: true;
  /** With `lease`: the new message's statement took the relay's lease too, and this is the relay's first work. */
  claimed?: OutboxWork;
}

/** A relay's lease, to be taken by the statement that keeps a message when no relay holds it (`Relay.leaseRequest`). */
export interface LeaseRequest {
  owner: string;
  until: Date;
  now: Date;
}

// The conversation's lease is free for the relay named $11 (its own, or run out at $13).
const CLAIMABLE =
  '($11::text IS NOT NULL AND (u.relay_owner IS NULL OR u.relay_owner = $11 OR u.relay_lease_until < $13::timestamptz))';

/** `storeCustomerMessage`'s statement, its text made once (it is sent with every customer message). */
const STORE_CUSTOMER_MESSAGE = `WITH c AS (
       SELECT ${CONVERSATION_COLUMNS} FROM conversations c
       WHERE c.uuid = $1 AND c.inbox_id = $2 AND c.customer_ref = $3 AND c.environment = $4
         AND NOT EXISTS (SELECT 1 FROM revoked_sessions WHERE jti = $8)
         AND NOT EXISTS (SELECT 1 FROM revoked_identities WHERE inbox_id = $2 AND customer_ref = $3 AND revoked_at >= $9)
         AND NOT EXISTS (SELECT 1 FROM inboxes si JOIN accounts sa ON sa.id = si.account_id WHERE si.id = $2 AND sa.status = 'suspended')
       FOR UPDATE
     ), heard AS (
       SELECT ${deskTargetsColumn('c.inbox_id')} AS targets FROM c
     ), inserted AS (
       INSERT INTO messages (conversation_id, author, text, message_id, upstream, created_at)
       SELECT c.id, 'customer', $5, $6, 'pending', $7 FROM c
       WHERE c.status <> 'resolved' AND (NOT $10::boolean OR json_array_length((SELECT targets FROM heard)) = 0)
       ON CONFLICT DO NOTHING RETURNING id
     ), woken AS (
       UPDATE conversations u SET snoozed_until = NULL,
         relay_owner = CASE WHEN ${CLAIMABLE} THEN $11 ELSE u.relay_owner END,
         relay_lease_until = CASE WHEN ${CLAIMABLE} THEN $12::timestamptz ELSE u.relay_lease_until END
       WHERE u.id = (SELECT id FROM c) AND EXISTS (SELECT 1 FROM inserted) AND (u.snoozed_until IS NOT NULL OR ${CLAIMABLE})
       RETURNING u.relay_owner = $11 AS claimed
     )
     SELECT row_to_json(r) AS row FROM (
     SELECT c.*, (SELECT id FROM inserted) AS inserted_id, (SELECT targets FROM heard) AS desk_targets,
       coalesce((SELECT claimed FROM woken), false) AS claimed,
       (SELECT json_build_array(m.id, ${engineText('m')}, m.message_id) FROM messages m
        WHERE $11::text IS NOT NULL AND m.conversation_id = c.id AND m.upstream = 'pending' ORDER BY m.id LIMIT 1) AS first_pending,
       kept.id AS kept_id, kept.message_id AS kept_message_id, kept.author AS kept_author, kept.author_name AS kept_author_name,
       kept.text AS kept_text, kept.status AS kept_status, kept.attributes AS kept_attributes, kept.created_at AS kept_created_at
     FROM c LEFT JOIN LATERAL (
       SELECT m.id, m.message_id, m.author, m.author_name, m.text, ${MESSAGE_STATUS} AS status, m.attributes, m.created_at
       FROM messages m WHERE m.conversation_id = c.id AND m.message_id = $6
     ) kept ON true
     ) r`;

/**
 * Keeps a customer's message as `pending` for the relay, in one statement: finds the customer's
 * conversation (scoped to its owner) and locks it, which orders the conversation's messages (ids
 * commit in the order they are taken), inserts the message unless the conversation is resolved or
 * the `message_id` is kept already, and ends a snooze when the message is new (Chatwoot's). Gives
 * undefined for anyone else's conversation or a malformed id. Run it in a transaction: what follows
 * (the limits, the durable subscribers) may still undo it. With `standing`, it finds nothing
 * for a revoked token or an identity ended since the token was issued (the widget's session check,
 * in this statement's snapshot; the conversation found proves its inbox is one of ours). A
 * suspended account's conversations take no message, with or without `standing`.
 *
 * `alone`: the statement is the whole step, run outside a transaction (see `conversation-service.ts`),
 * which is right only when nobody hears of the inbox. Then it keeps nothing when someone does, and
 * says so with `heard`: the caller takes the step again in a transaction. `lease`: a new message
 * also takes the relay's lease when it is free, and gives the relay its first work (`claimed`), as
 * `claimOutbox` would have read it.
 */
export async function storeCustomerMessage(
  db: Queryable,
  owner: ConversationOwner,
  uuid: string,
  message: CustomerMessage,
  now: Date,
  standing?: Pick<SessionStanding, 'jti' | 'issuedAt'> | undefined,
  alone = false,
  lease?: LeaseRequest,
): Promise<StoredCustomerMessage | undefined> {
  if (!isConversationUuid(uuid)) return undefined;
  const [result] = await db.query<{
    row: JsonRow<
      ConversationRow & {
        inserted_id: number | null;
        desk_targets: unknown;
        claimed: boolean;
        first_pending: [number, string, string] | null;
      } & { [K in keyof MessageRow as `kept_${K}`]: MessageRow[K] | null }
    >;
  }>(STORE_CUSTOMER_MESSAGE, [
    uuid,
    owner.inboxId,
    owner.customerRef,
    owner.environment,
    message.text,
    message.messageId,
    now,
    standing?.jti ?? null,
    standing?.issuedAt ?? null,
    alone,
    lease?.owner ?? null,
    lease?.until ?? null,
    lease?.now ?? null,
  ]);
  const row = result?.row;
  if (!row) return undefined;
  const conversation = conversationFromJson(row);
  // The step's record (the helpdesk's webhooks) asks who hears of the inbox: read here already.
  if (row.inserted_id !== null) {
    // A new message's every field is known here (a new message is always `sent`): no read back.
    const created: WidgetMessage = {
      id: row.inserted_id,
      conversation_id: conversation.uuid,
      message_id: message.messageId,
      author: 'customer',
      author_name: null,
      text: message.text,
      status: 'sent',
      choices: null,
      card: null,
      created_at: now.toISOString(),
    };
    // The oldest message waiting, as the snapshot saw it before this one, or else this one.
    const [id, text, messageId] = row.first_pending ?? [row.inserted_id, message.text, message.messageId];
    const claimed = row.claimed ? { conversation, pending: { id: Number(id), text, messageId } } : undefined;
    return { conversation, stored: { message: created, created: true }, ...(claimed && { claimed }) };
  }
  if (row.kept_id !== null) {
    const kept: MessageRow = {
      id: row.kept_id,
      conversation_uuid: conversation.uuid,
      message_id: row.kept_message_id,
      author: row.kept_author!,
      author_name: row.kept_author_name,
      text: row.kept_text!,
      status: row.kept_status!,
      attributes: row.kept_attributes,
      created_at: new Date(row.kept_created_at!),
    };
    return { conversation, stored: { message: toWidgetMessage(kept), created: false } };
  }
  if (conversation.status === 'resolved') return { conversation, stored: undefined };
  if (alone && Array.isArray(row.desk_targets) && row.desk_targets.length > 0)
    return { conversation, stored: undefined, heard: true };
  // Another statement kept the same message_id after this one's snapshot was taken: read it now.
  const [existing] = await db.query<MessageRow>(
    `${MESSAGE_SELECT} WHERE m.conversation_id = $1 AND m.message_id = $2`,
    [conversation.id, message.messageId],
  );
  if (!existing) throw new Error('a message conflicted with a row that cannot be found');
  return { conversation, stored: { message: toWidgetMessage(existing), created: false } };
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

/**
 * Settles the customer's side after the engine answered, in one statement: the message
 * `forwardedId` (0 for none) is accepted by the engine, and when the engine answered with the
 * message `answerId` (0 for none) the customer's accepted messages before it become read. Gives
 * the ids that became read.
 */
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

/** `recordAnswerEvent`'s statement, its text made once (it is sent with every answer). */
const RECORD_ANSWER_EVENT = `WITH conversation AS (
       SELECT cv.inbox_id, ${deskTargetsColumn('cv.inbox_id')} AS desk_targets FROM conversations cv WHERE cv.id = $1
     ), heard AS (
       SELECT $16::boolean AND coalesce((SELECT json_array_length(desk_targets) > 0 FROM conversation), false) AS heard
     ), seen AS (
       INSERT INTO engine_events_seen (event_id, seen_at, webhook_at) SELECT $6::text, $9::timestamptz, $14::timestamptz WHERE NOT (SELECT heard FROM heard)
       ON CONFLICT DO NOTHING RETURNING 1
     ), inserted AS (
       INSERT INTO messages (${MESSAGE_COLUMNS}) SELECT ${MESSAGE_PARAMETERS} WHERE EXISTS (SELECT 1 FROM seen)
       ON CONFLICT DO NOTHING RETURNING id
     ), answer AS (
       -- The answer's message: this one, or the one a webhook that raced the engine's answer kept first
       -- (then the forwarded message is read all the same).
       SELECT COALESCE((SELECT id FROM inserted), (SELECT id FROM messages WHERE engine_event_id = $6 AND conversation_id = $1), 0) AS id
     ), settled AS (
       UPDATE messages SET
         upstream = CASE WHEN id = $15 THEN 'forwarded' ELSE upstream END,
         read_at = CASE WHEN id < (SELECT id FROM answer) THEN $9 ELSE read_at END
       WHERE conversation_id = $1 AND NOT (SELECT heard FROM heard)
         AND (id = $15 OR (id < (SELECT id FROM answer) AND author = 'customer' AND read_at IS NULL AND upstream = 'forwarded'))
       RETURNING id, read_at IS NOT NULL AS read
     ), ${leaseContinuation('$1', '$17', '$18', '$15', 'NOT (SELECT heard FROM heard)')}
     SELECT row_to_json(r) AS row FROM (
     SELECT EXISTS (SELECT 1 FROM seen) AS fresh, (SELECT id FROM inserted) AS inserted_id,
       (SELECT json_agg(id ORDER BY id) FROM settled WHERE read) AS read_ids, conversation.inbox_id,
       conversation.desk_targets, (SELECT heard FROM heard) AS heard, nx.*
     FROM conversation LEFT JOIN LATERAL (SELECT ${leaseNextSelect('$15')}) nx ON true
     ) r`;

/**
 * An engine event that answers the customer (the AI's reply, a person's answer), recorded in one
 * statement: the event is marked seen (`markEventSeen`'s row), its message inserted only if it was
 * not seen before, and the customer's side settled as `settleCustomerMessages` does, with the new
 * message as the answer. `fresh` is false when any path recorded the event already (then only the
 * forwarded message changes: accepted, and read by the message kept first). With `alone` it is the whole step, outside a transaction,
 * as `storeCustomerMessage`'s: it changes nothing when someone hears of the inbox, and says `heard`.
 * With `lease`, the relay's step ends in the same statement: `next` is what `continueOutbox` gives.
 */
export async function recordAnswerEvent(
  db: Queryable,
  conversation: ConversationRecord,
  message: NewMessage & { engineEventId: string },
  seen: { byWebhook: boolean },
  forwardedId: number,
  now: Date,
  alone = false,
  lease?: { owner: string; until: Date },
): Promise<{
  fresh: boolean;
  created: WidgetMessage | undefined;
  readIds: number[];
  heard: boolean;
  next: OutboxWork | undefined;
}> {
  const [result] = await db.query<{
    row: {
      fresh: boolean;
      inserted_id: number | null;
      read_ids: number[] | null;
      inbox_id: string | null;
      desk_targets: unknown;
      heard: boolean;
    };
  }>(RECORD_ANSWER_EVENT, [
    ...messageValues(conversation, message, now),
    seen.byWebhook ? now : null,
    forwardedId,
    alone,
    lease?.owner ?? null,
    lease?.until ?? null,
  ]);
  // One JSON column (`JsonRow`): the lease's next conversation, if any, has its created_at as text.
  const row = result?.row;
  return {
    heard: row?.heard ?? false,
    next: leaseOutcome(row),
    fresh: row?.fresh ?? false,
    created: row?.inserted_id != null ? newMessage(row.inserted_id, conversation, message, now) : undefined,
    readIds: row?.read_ids ?? [],
  };
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
