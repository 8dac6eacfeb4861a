import type { Queryable } from '../../../shared/server/index.ts';
import {
  deskWhere,
  selectDesk,
  toDesk,
  type DeskConversation,
  type DeskFilter,
  type DeskRow,
} from './desk-conversations.ts';

/**
 * The orders of the people's list: `default` those people answer (`open`) first, then newest
 * activity; `latest` newest activity; `waiting_since` the customer who waits longest first (those
 * answered last). Each has the sort key a cursor carries, as text (a timestamp round-trips exactly).
 */
export type DeskSort = 'default' | 'latest' | 'waiting_since';

const ORDERS: Record<DeskSort, { key: string; order: string; after: string }> = {
  default: {
    key: `(d.desk_status = 'open')::int::text || '|' || d.last_activity_at::text`,
    order: `(d.desk_status = 'open') DESC, d.last_activity_at DESC, d.id DESC`,
    after: `((d.desk_status = 'open')::int, d.last_activity_at, d.id) < (split_part($K, '|', 1)::int, split_part($K, '|', 2)::timestamptz, $I)`,
  },
  latest: {
    key: 'd.last_activity_at::text',
    order: 'd.last_activity_at DESC, d.id DESC',
    after: '(d.last_activity_at, d.id) < ($K::timestamptz, $I)',
  },
  waiting_since: {
    key: `COALESCE(d.waiting_since, 'infinity')::text`,
    order: `COALESCE(d.waiting_since, 'infinity') ASC, d.id ASC`,
    after: `(COALESCE(d.waiting_since, 'infinity'), d.id) > ($K::timestamptz, $I)`,
  },
};

/** Where a page ends: the last row's sort key and number. */
export interface DeskCursor {
  key: string;
  id: number;
}

export interface DeskPage {
  sort: DeskSort;
  size: number;
  /** The page after this cursor, else the page of this number. */
  after?: DeskCursor | undefined;
  number: number;
}

/**
 * One page of conversations in the order asked, with the counts of those assigned to `me` (the
 * caller), unassigned and all under the filter, whatever the page shows; `next` is where the next
 * page starts (undefined on the last page).
 */
export async function listDeskConversations(
  db: Queryable,
  filter: DeskFilter,
  assignee: 'mine' | 'unassigned' | 'all',
  me: number,
  page: DeskPage,
): Promise<{
  conversations: DeskConversation[];
  counts: { mine: number; unassigned: number; all: number };
  next: DeskCursor | undefined;
}> {
  const params: unknown[] = [];
  const base = deskWhere(filter, params);
  const [counts] = await db.query<{ mine: number; unassigned: number; all: number }>(
    `SELECT count(*) FILTER (WHERE c.assignee_id = $${params.length + 1}::int)::int AS mine, count(*) FILTER (WHERE c.assignee_id IS NULL)::int AS unassigned, count(*)::int AS "all"
     FROM conversations c JOIN inboxes i ON i.id = c.inbox_id WHERE ${base}`,
    [...params, me],
  );
  if (assignee === 'mine') params.push(me);
  const byAssignee =
    assignee === 'mine'
      ? ` AND c.assignee_id = $${params.length}::int`
      : assignee === 'unassigned'
        ? ' AND c.assignee_id IS NULL'
        : '';
  params.push(filter.now);
  const sql = ORDERS[page.sort];
  const inner = `SELECT d.*, ${sql.key} AS sort_key FROM (${selectDesk(`$${params.length}::timestamptz`)} WHERE ${base}${byAssignee}) d`;
  let after = '';
  if (page.after) {
    params.push(page.after.key, page.after.id);
    after = ` WHERE ${sql.after.replaceAll('$K', `$${params.length - 1}::text`).replaceAll('$I', `$${params.length}::bigint`)}`;
  }
  params.push(page.size + 1, page.after ? 0 : (page.number - 1) * page.size);
  const rows = await db.query<DeskRow & { id: number }>(
    `SELECT * FROM (${inner}) d${after} ORDER BY ${sql.order} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  const shown = rows.slice(0, page.size).map(toDesk);
  const last = shown.at(-1);
  const next = rows.length > page.size && last ? { key: last.sortKey, id: last.record.id } : undefined;
  return { conversations: shown, counts: counts ?? { mine: 0, unassigned: 0, all: 0 }, next };
}
