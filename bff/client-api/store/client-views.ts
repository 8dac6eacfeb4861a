import type { Queryable } from '../../../shared/server/index.ts';
import type { ConversationOwner } from '../../store/conversations.ts';

/** What the helpdesk Client API reads and writes beyond the shared conversations: Chatwoot's views of them. */

/** A message as the Client API shapes it (`client-api/shapes.ts`). */
export interface ClientMessageRow {
  id: number;
  conversation_display_id: number;
  author: 'customer' | 'ai' | 'human' | 'system';
  author_name: string | null;
  text: string;
  content_type: string;
  attributes: {
    choices?: { label: string; value: string }[];
    card?: { title: string; fields: { label: string; value: string }[] };
  } | null;
  submitted_values: unknown;
  message_id: string | null;
  created_at: Date;
}

/** A conversation as the Client API shapes it. */
export interface ClientConversationRow {
  id: number;
  uuid: string;
  status: 'open' | 'resolved';
  contact_last_seen_at: Date | null;
  agent_last_seen_at: Date | null;
}

const MESSAGE_SELECT = `SELECT m.id, c.id AS conversation_display_id, m.author, m.author_name, m.text, m.content_type, m.attributes, m.submitted_values, m.message_id, m.created_at
  FROM messages m JOIN conversations c ON c.id = m.conversation_id`;

const CONVERSATION_SELECT = 'SELECT id, uuid, status, contact_last_seen_at, agent_last_seen_at FROM conversations';

export async function findClientMessage(db: Queryable, id: number): Promise<ClientMessageRow | undefined> {
  const [row] = await db.query<ClientMessageRow>(`${MESSAGE_SELECT} WHERE m.id = $1`, [id]);
  return row;
}

/** The newest `limit` messages of a conversation (before the message `before`) without the widget's notices, oldest first. */
export async function clientMessages(
  db: Queryable,
  conversationId: number,
  options: { before?: number | undefined; limit: number },
): Promise<ClientMessageRow[]> {
  const params: unknown[] = [conversationId];
  let filter = "AND NOT (m.author = 'system' AND m.content_type = 'text') AND NOT m.private";
  if (options.before) {
    params.push(options.before);
    filter += ` AND m.id < $${params.length}`;
  }
  params.push(options.limit);
  const rows = await db.query<ClientMessageRow>(
    `${MESSAGE_SELECT} WHERE m.conversation_id = $1 ${filter} ORDER BY m.id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.reverse();
}

/** One conversation of a customer by its number; undefined for anyone else's. */
export async function findClientConversation(
  db: Queryable,
  owner: ConversationOwner,
  id: number,
): Promise<ClientConversationRow | undefined> {
  const [row] = await db.query<ClientConversationRow>(
    `${CONVERSATION_SELECT} WHERE id = $1 AND inbox_id = $2 AND customer_ref = $3 AND environment = $4`,
    [id, owner.inboxId, owner.customerRef, owner.environment],
  );
  return row;
}

export async function findClientConversationByUuid(
  db: Queryable,
  uuid: string,
): Promise<ClientConversationRow | undefined> {
  const [row] = await db.query<ClientConversationRow>(`${CONVERSATION_SELECT} WHERE uuid = $1`, [uuid]);
  return row;
}

/**
 * A page of a customer's conversations: pages count from the newest (`offset` conversations are
 * skipped from there), and each page lists oldest first, so that the first page is the latest.
 */
export async function clientConversations(
  db: Queryable,
  owner: ConversationOwner,
  page: { limit: number; offset?: number },
): Promise<ClientConversationRow[]> {
  const rows = await db.query<ClientConversationRow>(
    `${CONVERSATION_SELECT} WHERE inbox_id = $1 AND customer_ref = $2 AND environment = $3 ORDER BY id DESC LIMIT $4 OFFSET $5`,
    [owner.inboxId, owner.customerRef, owner.environment, page.limit, page.offset ?? 0],
  );
  return rows.reverse();
}

export async function setCustomAttributes(
  db: Queryable,
  uuid: string,
  attributes: Record<string, unknown>,
): Promise<void> {
  await db.query('UPDATE conversations SET custom_attributes = $2::jsonb WHERE uuid = $1', [
    uuid,
    JSON.stringify(attributes),
  ]);
}

export async function setContactLastSeen(db: Queryable, conversationId: number, at: Date): Promise<void> {
  await db.query('UPDATE conversations SET contact_last_seen_at = $2 WHERE id = $1', [conversationId, at]);
}

/** A message of the conversation that a client may answer (choices, a form, the survey). */
export async function findAnswerableMessage(db: Queryable, conversationId: number, id: number) {
  const [row] = await db.query<{
    id: number;
    content_type: string;
    author: string;
    attributes: { choices?: unknown[] } | null;
  }>('SELECT id, content_type, author, attributes FROM messages WHERE id = $1 AND conversation_id = $2', [
    id,
    conversationId,
  ]);
  return row;
}

export async function setSubmittedValues(db: Queryable, messageId: number, values: unknown): Promise<void> {
  await db.query('UPDATE messages SET submitted_values = $2::jsonb WHERE id = $1', [messageId, JSON.stringify(values)]);
}

/** The survey of a conversation by its UUID, with the question's id when one was asked. */
export async function findSurveyByUuid(db: Queryable, uuid: string) {
  const [row] = await db.query<{
    id: number;
    inbox_id: string;
    status: string;
    rating: number | null;
    comment: string | null;
    survey_at: Date | null;
    created_at: Date;
    csat_id: number | null;
  }>(
    `SELECT c.id, c.inbox_id, c.status, s.rating, s.comment, s.created_at AS survey_at, c.created_at,
       (SELECT m.id FROM messages m WHERE m.conversation_id = c.id AND m.content_type = 'input_csat' ORDER BY m.id DESC LIMIT 1) AS csat_id
     FROM conversations c LEFT JOIN surveys s ON s.conversation_id = c.id WHERE c.uuid = $1`,
    [uuid],
  );
  return row;
}
