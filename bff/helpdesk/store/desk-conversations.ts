import type { Queryable } from '../../../shared/server/index.ts';
import {
  CONVERSATION_COLUMNS,
  toConversationRecord,
  type ConversationRecord,
  type ConversationRow,
} from '../../store/conversations.ts';

/**
 * A conversation's status as people see it (Chatwoot's): `pending` while the AI answers it, `open`
 * once people answer it (handed over), `snoozed` while a person's snooze lasts, `resolved`.
 */
export type DeskStatus = 'open' | 'pending' | 'snoozed' | 'resolved';

/** A conversation as the people of its account see it. */
export interface DeskConversation {
  record: ConversationRecord;
  status: DeskStatus;
  /** When a snooze ends; null while not snoozed, or snoozed until the customer writes. */
  snoozedUntil: Date | null;
  accountId: number;
  inboxDisplayId: number;
  assigneeId: number | null;
  contactName: string | null;
  contactEmail: string | null;
  /** The customer as the Client API knows them (a `ctc_` contact): identifier and custom attributes. */
  contactIdentifier: string | null;
  contactAttributes: Record<string, unknown>;
  /** The page the customer was on when the conversation started. */
  pageUrl: string | null;
  /** What a widget visitor's browser told at their session's start (its time zone, its name); null for others. */
  visitor: { timeZone: string | null; browser: string } | null;
  /** The customer's messages since people last read the conversation. */
  unreadCount: number;
  agentLastSeenAt: Date | null;
  lastActivityAt: Date;
  assignee: { id: number; name: string; availableName: string } | null;
  team: { id: number; name: string } | null;
  /** Label titles, in order. */
  labels: string[];
  /** The contact of the Application API's contacts routes; null until the customer has one. */
  contactId: number | null;
  /** The last message of the customer or an answer (no notes, no notices). */
  lastMessage: { id: number; text: string; author: 'customer' | 'ai' | 'human'; createdAt: Date } | null;
  /** The customer's first message after the last answer; null when answered. */
  waitingSince: Date | null;
  /** Where the list continues after this row (its sort key, as text). */
  sortKey: string;
}

export type DeskRow = ConversationRow & {
  desk_status: DeskStatus;
  snoozed_until: Date | null;
  account_id: number;
  inbox_display_id: number;
  assignee_id: number | null;
  contact_name: string | null;
  contact_email: string | null;
  contact_identifier: string | null;
  contact_attributes: Record<string, unknown> | null;
  visitor_time_zone: string | null;
  visitor_browser: string | null;
  page_url: string | null;
  unread_count: number;
  agent_last_seen_at: Date | null;
  last_activity_at: Date;
  assignee_name: string | null;
  assignee_available_name: string | null;
  team_id: number | null;
  team_name: string | null;
  labels: string[];
  contact_id: number | null;
  last_message_id: number | null;
  last_message_text: string | null;
  last_message_author: 'customer' | 'ai' | 'human' | null;
  last_message_at: Date | null;
  waiting_since: Date | null;
  sort_key?: string;
};

/**
 * The people's status in SQL, the one definition the shape and the filter share; `now` is the
 * placeholder of the time a snooze is measured against. A snooze until the customer writes is
 * stored as 'infinity' (the customer's next message clears it: store/messages.ts).
 */
const deskStatus = (now: string) =>
  `CASE WHEN c.status = 'resolved' THEN 'resolved' WHEN c.snoozed_until > ${now} THEN 'snoozed' WHEN c.handled_by = 'ai' THEN 'pending' ELSE 'open' END`;

export const selectDesk = (now: string) => `SELECT ${CONVERSATION_COLUMNS}, ${deskStatus(now)} AS desk_status,
    CASE WHEN c.snoozed_until > ${now} AND c.snoozed_until <> 'infinity' THEN c.snoozed_until END AS snoozed_until,
    i.account_id, i.display_id AS inbox_display_id, c.assignee_id,
    COALESCE(c.contact_name, NULLIF(k.name, '')) AS contact_name, COALESCE(c.contact_email, k.email) AS contact_email,
    k.identifier AS contact_identifier, k.custom_attributes AS contact_attributes, c.page_url, c.agent_last_seen_at,
    vt.time_zone AS visitor_time_zone, vt.browser AS visitor_browser,
    (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id AND m.author = 'customer'
       AND m.created_at > COALESCE(c.agent_last_seen_at, '-infinity'::timestamptz))::int AS unread_count,
    COALESCE((SELECT max(m.created_at) FROM messages m WHERE m.conversation_id = c.id), c.created_at) AS last_activity_at,
    u.name AS assignee_name, COALESCE(u.display_name, u.name) AS assignee_available_name, t.id AS team_id, t.name AS team_name,
    ARRAY(SELECT l.title FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id
      WHERE cl.conversation_id = c.id ORDER BY l.title) AS labels,
    k.id AS contact_id, lm.id AS last_message_id, lm.text AS last_message_text, lm.author AS last_message_author,
    lm.created_at AS last_message_at,
    (SELECT min(m.created_at) FROM messages m WHERE m.conversation_id = c.id AND m.author = 'customer'
       AND m.id > COALESCE((SELECT max(a.id) FROM messages a WHERE a.conversation_id = c.id
         AND a.author IN ('ai', 'human') AND NOT a.private), 0)) AS waiting_since
  FROM conversations c JOIN inboxes i ON i.id = c.inbox_id
  LEFT JOIN contacts k ON k.inbox_id = c.inbox_id
    AND (k.id = CASE WHEN c.customer_ref ~ '^ctc_[0-9]{1,18}$' THEN substr(c.customer_ref, 5)::bigint END
      OR k.customer_ref = c.customer_ref)
  LEFT JOIN users u ON u.id = c.assignee_id LEFT JOIN teams t ON t.id = c.team_id
  LEFT JOIN visitor_traits vt ON vt.inbox_id = c.inbox_id AND vt.customer_ref = c.customer_ref
  LEFT JOIN LATERAL (SELECT m.id, m.text, m.author, m.created_at FROM messages m
    WHERE m.conversation_id = c.id AND NOT m.private AND m.author <> 'system' ORDER BY m.id DESC LIMIT 1) lm ON true`;

export const toDesk = (row: DeskRow): DeskConversation => ({
  record: toConversationRecord(row),
  status: row.desk_status,
  snoozedUntil: row.snoozed_until,
  accountId: row.account_id,
  inboxDisplayId: row.inbox_display_id,
  assigneeId: row.assignee_id,
  contactName: row.contact_name,
  contactEmail: row.contact_email,
  contactIdentifier: row.contact_identifier,
  contactAttributes: row.contact_attributes ?? {},
  pageUrl: row.page_url,
  visitor: row.visitor_browser === null ? null : { timeZone: row.visitor_time_zone, browser: row.visitor_browser },
  unreadCount: row.unread_count,
  agentLastSeenAt: row.agent_last_seen_at,
  lastActivityAt: row.last_activity_at,
  assignee:
    row.assignee_id !== null && row.assignee_name !== null
      ? {
          id: row.assignee_id,
          name: row.assignee_name,
          availableName: row.assignee_available_name ?? row.assignee_name,
        }
      : null,
  team: row.team_id !== null && row.team_name !== null ? { id: row.team_id, name: row.team_name } : null,
  labels: row.labels,
  contactId: row.contact_id === null ? null : Number(row.contact_id),
  lastMessage:
    row.last_message_id === null
      ? null
      : {
          id: Number(row.last_message_id),
          text: row.last_message_text ?? '',
          author: row.last_message_author ?? 'customer',
          createdAt: row.last_message_at ?? row.last_activity_at,
        },
  waitingSince: row.waiting_since,
  sortKey: row.sort_key ?? '',
});

export interface DeskFilter {
  accountId: number;
  /** The time snoozes are measured against. */
  now: Date;
  /** Only these inboxes (an agent's); undefined: all of the account's. */
  inboxIds?: readonly string[] | undefined;
  inboxDisplayId?: number | undefined;
  /** Only conversations in this status; undefined: every one. */
  status?: DeskStatus | undefined;
  /** Only the conversations of the customer of this conversation (its earlier ones, in the console's sidebar). */
  sameCustomerAs?: number | undefined;
  /** Only those with every one of these label titles. */
  labels?: readonly string[] | undefined;
  teamId?: number | undefined;
}

export function deskWhere(filter: DeskFilter, params: unknown[]): string {
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
  if (filter.sameCustomerAs !== undefined) {
    params.push(filter.sameCustomerAs);
    clauses.push(
      `(c.inbox_id, c.customer_ref) = (SELECT o.inbox_id, o.customer_ref FROM conversations o WHERE o.id = $${params.length})`,
    );
  }
  if (filter.labels?.length) {
    params.push(filter.labels);
    clauses.push(`(SELECT count(*) FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id
      WHERE cl.conversation_id = c.id AND l.title = ANY($${params.length}::text[])) = cardinality($${params.length}::text[])`);
  }
  if (filter.teamId !== undefined) {
    params.push(filter.teamId);
    clauses.push(`c.team_id = $${params.length}::int`);
  }
  if (filter.status) {
    params.push(filter.now, filter.status);
    clauses.push(`${deskStatus(`$${params.length - 1}::timestamptz`)} = $${params.length}`);
  }
  return clauses.join(' AND ');
}

/** A conversation of the account by its number, its status as at `now`; undefined for another account's. */
export async function findDeskConversation(
  db: Queryable,
  accountId: number,
  id: number,
  now: Date,
): Promise<DeskConversation | undefined> {
  const [row] = await db.query<DeskRow>(`${selectDesk('$3::timestamptz')} WHERE c.id = $1 AND i.account_id = $2`, [
    id,
    accountId,
    now,
  ]);
  return row && toDesk(row);
}

export async function setAssignee(db: Queryable, conversationId: number, userId: number | null): Promise<void> {
  await db.query('UPDATE conversations SET assignee_id = $2 WHERE id = $1', [conversationId, userId]);
}

export async function setTeam(db: Queryable, conversationId: number, teamId: number | null): Promise<void> {
  await db.query('UPDATE conversations SET team_id = $2 WHERE id = $1', [conversationId, teamId]);
}

/**
 * Assigns an unassigned conversation to a person (their reply takes it); gives whether it did. A
 * conversation someone has meanwhile stays theirs.
 */
export async function assignIfUnassigned(db: Queryable, conversationId: number, userId: number): Promise<boolean> {
  const rows = await db.query(
    'UPDATE conversations SET assignee_id = $2 WHERE id = $1 AND assignee_id IS NULL RETURNING id',
    [conversationId, userId],
  );
  return rows.length > 0;
}

/** A message as the people see it: every one, private notes included, with who sent it. */
export interface DeskMessageRow {
  id: number;
  author: 'customer' | 'ai' | 'human' | 'system';
  author_name: string | null;
  text: string;
  content_type: string;
  private: boolean;
  created_at: Date;
  conversation_id: number;
  contact_name: string | null;
  /** The AI's buttons or card as the customer saw them (the widget's `choices`, `card`), and what the customer answered. */
  attributes: {
    choices?: { label: string; value: string }[];
    card?: { title: string; fields: { label: string; value: string }[] };
  } | null;
  submitted_values: unknown;
  /** The person who wrote it (null for the AI's replies and answers made elsewhere); names null once removed. */
  sender_user_id: number | null;
  sender_user_name: string | null;
  sender_user_display_name: string | null;
  /** The agent bot that wrote it; its name null once removed. */
  sender_agent_bot_id: number | null;
  sender_agent_bot_name: string | null;
}

export async function deskMessages(
  db: Queryable,
  conversationId: number,
  options: { ids?: readonly number[]; eventId?: string } = {},
): Promise<DeskMessageRow[]> {
  const params: unknown[] = [conversationId];
  let filter = '';
  if (options.ids) {
    params.push(options.ids);
    filter = ` AND m.id = ANY($${params.length}::bigint[])`;
  }
  if (options.eventId) {
    params.push(options.eventId);
    filter += ` AND m.engine_event_id = $${params.length}`;
  }
  return db.query<DeskMessageRow>(
    `SELECT m.id, m.author, m.author_name, m.text, m.content_type, m.private, m.created_at, m.conversation_id, c.contact_name,
       m.attributes, m.submitted_values, m.sender_user_id, u.name AS sender_user_name, u.display_name AS sender_user_display_name,
       m.sender_agent_bot_id, b.name AS sender_agent_bot_name
     FROM messages m JOIN conversations c ON c.id = m.conversation_id
       LEFT JOIN users u ON u.id = m.sender_user_id LEFT JOIN agent_bots b ON b.id = m.sender_agent_bot_id
     WHERE m.conversation_id = $1${filter} ORDER BY m.id`,
    params,
  );
}

/**
 * People have read the conversation now: its unread count starts again, and the customer's
 * messages are marked read (their widget shows it). Gives the ids of the messages newly read.
 */
export async function markReadByPeople(db: Queryable, conversationId: number, now: Date): Promise<number[]> {
  await db.query('UPDATE conversations SET agent_last_seen_at = $2 WHERE id = $1', [conversationId, now]);
  const rows = await db.query<{ id: number }>(
    "UPDATE messages SET read_at = $2 WHERE conversation_id = $1 AND author = 'customer' AND read_at IS NULL AND upstream = 'forwarded' RETURNING id",
    [conversationId, now],
  );
  return rows.map((row) => row.id).sort((a, b) => a - b);
}
