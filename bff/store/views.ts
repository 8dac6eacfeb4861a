import type { WidgetConversation } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import { CONVERSATION_COLUMNS, type ConversationOwner, type ConversationRow } from './conversations.ts';
import { FOR_WIDGET, findMessage } from './messages.ts';

export async function unreadCount(db: Queryable, id: number): Promise<number> {
  const [row] = await db.query<{ unread: number }>(
    `SELECT count(*)::int AS unread FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.id = $1 AND m.author <> 'customer' AND m.id > c.customer_last_read_id AND ${FOR_WIDGET}`,
    [id],
  );
  return row?.unread ?? 0;
}

/** The widget's view of conversations: with unread count, last message (notices aside, for the list's preview) and survey answer. */
export async function conversationViews(
  db: Queryable,
  where: ConversationOwner & { id?: number },
): Promise<WidgetConversation[]> {
  const params: unknown[] = [where.inboxId, where.customerRef, where.environment];
  if (where.id !== undefined) params.push(where.id);
  const rows = await db.query<
    ConversationRow & { unread: number; rating: number | null; comment: string | null; last_id: number | null }
  >(
    `SELECT ${CONVERSATION_COLUMNS},
       (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id AND m.author <> 'customer' AND m.id > c.customer_last_read_id AND ${FOR_WIDGET})::int AS unread,
       (SELECT max(l.id) FROM messages l WHERE l.conversation_id = c.id AND l.author <> 'system' AND NOT l.private) AS last_id,
       s.rating, s.comment
     FROM conversations c LEFT JOIN surveys s ON s.conversation_id = c.id
     WHERE c.inbox_id = $1 AND c.customer_ref = $2 AND c.environment = $3 ${where.id !== undefined ? 'AND c.id = $4' : ''}
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
