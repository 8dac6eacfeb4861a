import type { Queryable } from '../../shared/server/index.ts';
import { CONVERSATION_COLUMNS, toConversationRecord, type ConversationRecord, type ConversationRow } from './conversations.ts';

/** A conversation as the people of its account see it. */
export interface DeskConversation {
  record: ConversationRecord;
  accountId: number;
  inboxDisplayId: number;
  assigneeId: number | null;
  contactName: string | null;
  contactEmail: string | null;
  lastActivityAt: Date;
}

type DeskRow = ConversationRow & { account_id: number; inbox_display_id: number; assignee_id: number | null; contact_name: string | null; contact_email: string | null; last_activity_at: Date };

const SELECT = `SELECT ${CONVERSATION_COLUMNS}, i.account_id, i.display_id AS inbox_display_id, c.assignee_id, c.contact_name, c.contact_email,
    COALESCE((SELECT max(m.created_at) FROM messages m WHERE m.conversation_id = c.id), c.created_at) AS last_activity_at
  FROM conversations c JOIN inboxes i ON i.id = c.inbox_id`;

const toDesk = (row: DeskRow): DeskConversation => ({
  record: toConversationRecord(row),
  accountId: row.account_id,
  inboxDisplayId: row.inbox_display_id,
  assigneeId: row.assignee_id,
  contactName: row.contact_name,
  contactEmail: row.contact_email,
  lastActivityAt: row.last_activity_at,
});

export interface DeskFilter {
  accountId: number;
  /** Only these inboxes (an agent's); undefined: all of the account's. */
  inboxIds?: readonly string[] | undefined;
  inboxDisplayId?: number | undefined;
  status?: 'open' | 'resolved' | undefined;
}

function where(filter: DeskFilter, params: unknown[]): string {
  params.push(filter.accountId);
  const clauses = [`i.account_id = $${params.length}`];
  if (filter.inboxIds) {
    params.push(filter.inboxIds);
    clauses.push(`c.inbox_id = ANY($${params.length}::text[])`);
  }
  if (filter.inboxDisplayId !== undefined) {
    params.push(filter.inboxDisplayId);
    clauses.push(`i.display_id = $${params.length}`);
  }
  if (filter.status) {
    params.push(filter.status);
    clauses.push(`c.status = $${params.length}`);
  }
  return clauses.join(' AND ');
}

/**
 * One page of conversations, handed-over ones first, then by last activity; with the counts of
 * those assigned to `me` (the caller), unassigned and all, whatever the page shows.
 */
export async function listDeskConversations(
  db: Queryable,
  filter: DeskFilter,
  assignee: 'mine' | 'unassigned' | 'all',
  me: number,
  page: { number: number; size: number },
): Promise<{ conversations: DeskConversation[]; counts: { mine: number; unassigned: number; all: number } }> {
  const params: unknown[] = [];
  const base = where(filter, params);
  const [counts] = await db.query<{ mine: number; unassigned: number; all: number }>(
    `SELECT count(*) FILTER (WHERE c.assignee_id = $${params.length + 1}::int)::int AS mine, count(*) FILTER (WHERE c.assignee_id IS NULL)::int AS unassigned, count(*)::int AS "all"
     FROM conversations c JOIN inboxes i ON i.id = c.inbox_id WHERE ${base}`,
    [...params, me],
  );
  if (assignee === 'mine') params.push(me);
  const byAssignee = assignee === 'mine' ? ` AND c.assignee_id = $${params.length}::int` : assignee === 'unassigned' ? ' AND c.assignee_id IS NULL' : '';
  const rows = await db.query<DeskRow>(
    `SELECT * FROM (${SELECT} WHERE ${base}${byAssignee}) d
     ORDER BY (d.handled_by = 'human' AND d.status = 'open') DESC, d.last_activity_at DESC, d.id DESC
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.size, (page.number - 1) * page.size],
  );
  return { conversations: rows.map(toDesk), counts: counts ?? { mine: 0, unassigned: 0, all: 0 } };
}

/** A conversation of the account by its number; undefined for another account's. */
export async function findDeskConversation(db: Queryable, accountId: number, id: number): Promise<DeskConversation | undefined> {
  const [row] = await db.query<DeskRow>(`${SELECT} WHERE c.id = $1 AND i.account_id = $2`, [id, accountId]);
  return row && toDesk(row);
}

export async function setAssignee(db: Queryable, conversationId: number, userId: number | null): Promise<void> {
  await db.query('UPDATE conversations SET assignee_id = $2 WHERE id = $1', [conversationId, userId]);
}

/** A message as the people see it: every one, private notes included. */
export interface DeskMessageRow {
  id: number;
  author: 'customer' | 'ai' | 'human' | 'system';
  author_name: string | null;
  text: string;
  content_type: string;
  private: boolean;
  created_at: Date;
  conversation_id: number;
}

export async function deskMessages(db: Queryable, conversationId: number, options: { ids?: readonly number[]; eventId?: string } = {}): Promise<DeskMessageRow[]> {
  const params: unknown[] = [conversationId];
  let filter = '';
  if (options.ids) {
    params.push(options.ids);
    filter = ` AND id = ANY($${params.length}::bigint[])`;
  }
  if (options.eventId) {
    params.push(options.eventId);
    filter += ` AND engine_event_id = $${params.length}`;
  }
  return db.query<DeskMessageRow>(
    `SELECT id, author, author_name, text, content_type, private, created_at, conversation_id FROM messages WHERE conversation_id = $1${filter} ORDER BY id`,
    params,
  );
}
