import type { Queryable } from '../../../shared/server/index.ts';
import { selectDesk, toDesk, type DeskConversation, type DeskRow } from './desk-conversations.ts';

/** Where a search matched a conversation, and the message text that matched (field `message`). */
export interface SearchHit {
  conversation: DeskConversation;
  field: 'id' | 'contact_name' | 'contact_email' | 'message';
  text: string;
}

export interface SearchScope {
  accountId: number;
  /** Only these inboxes (an agent's); undefined: all of the account's. */
  inboxIds?: readonly string[] | undefined;
  now: Date;
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * Conversations whose number is the query, whose customer's name or e-mail holds it, or one of whose
 * messages holds its words: PostgreSQL full text with the 'simple' configuration (every language;
 * the same on PGlite), or the text itself (part of a word, an order number). Newest activity first.
 */
export async function searchDeskConversations(
  db: Queryable,
  scope: SearchScope,
  query: string,
  page: { number: number; size: number },
): Promise<{ hits: SearchHit[]; count: number }> {
  const number = /^#?(\d{1,9})$/.exec(query)?.[1];
  const params: unknown[] = [
    scope.accountId,
    query,
    likePattern(query),
    number ? Number(number) : null,
    scope.inboxIds ?? null,
  ];
  const matches = `WITH found AS (
      SELECT c.id,
        CASE WHEN c.id = $4::bigint THEN 'id'
          WHEN lower(COALESCE(c.contact_name, k.name, '')) LIKE $3 THEN 'contact_name'
          WHEN lower(COALESCE(c.contact_email, k.email, '')) LIKE $3 THEN 'contact_email' END AS field,
        (SELECT m.text FROM messages m WHERE m.conversation_id = c.id AND m.author <> 'system'
           AND (to_tsvector('simple', m.text) @@ plainto_tsquery('simple', $2) OR lower(m.text) LIKE $3)
         ORDER BY m.id DESC LIMIT 1) AS message_text
      FROM conversations c JOIN inboxes i ON i.id = c.inbox_id
      LEFT JOIN contacts k ON k.inbox_id = c.inbox_id
        AND (k.id = CASE WHEN c.customer_ref ~ '^ctc_[0-9]{1,18}$' THEN substr(c.customer_ref, 5)::bigint END
          OR k.customer_ref = c.customer_ref)
      WHERE i.account_id = $1 AND ($5::text[] IS NULL OR c.inbox_id = ANY($5::text[])))
    SELECT id, COALESCE(field, 'message') AS field, message_text FROM found WHERE field IS NOT NULL OR message_text IS NOT NULL`;
  const [counted] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${matches}) f`, params);
  const found = await db.query<{ id: number; field: SearchHit['field']; message_text: string | null }>(
    `SELECT f.* FROM (${matches}) f ORDER BY f.id DESC LIMIT $6 OFFSET $7`,
    [...params, page.size, (page.number - 1) * page.size],
  );
  if (!found.length) return { hits: [], count: counted?.n ?? 0 };
  const rows = await db.query<DeskRow>(`${selectDesk('$2::timestamptz')} WHERE c.id = ANY($1::bigint[])`, [
    found.map((row) => row.id),
    scope.now,
  ]);
  const byId = new Map(rows.map((row) => [Number(row.id), toDesk(row)]));
  const hits = found.flatMap((row) => {
    const conversation = byId.get(Number(row.id));
    if (!conversation) return [];
    const text =
      row.field === 'id'
        ? `#${conversation.record.id}`
        : row.field === 'contact_name'
          ? (conversation.contactName ?? '')
          : row.field === 'contact_email'
            ? (conversation.contactEmail ?? '')
            : (row.message_text ?? '');
    return [{ conversation, field: row.field, text }];
  });
  return { hits, count: counted?.n ?? 0 };
}
