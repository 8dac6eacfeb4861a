import type { Queryable } from '../../../shared/server/index.ts';

/** A label of an account (Chatwoot's). */
export interface LabelRecord {
  id: number;
  title: string;
  description: string;
  color: string;
  show_on_sidebar: boolean;
}

const COLUMNS = 'id, title, description, color, show_on_sidebar';

export const listLabels = (db: Queryable, accountId: number) =>
  db.query<LabelRecord>(`SELECT ${COLUMNS} FROM labels WHERE account_id = $1 ORDER BY title`, [accountId]);

export async function findLabel(db: Queryable, accountId: number, id: number): Promise<LabelRecord | undefined> {
  const [row] = await db.query<LabelRecord>(`SELECT ${COLUMNS} FROM labels WHERE account_id = $1 AND id = $2`, [
    accountId,
    id,
  ]);
  return row;
}

export interface LabelFields {
  title?: string | undefined;
  description?: string | undefined;
  color?: string | undefined;
  show_on_sidebar?: boolean | undefined;
}

/** A new label; undefined when the account has that title already. */
export async function insertLabel(
  db: Queryable,
  accountId: number,
  fields: LabelFields & { title: string },
  now: Date,
): Promise<LabelRecord | undefined> {
  const [row] = await db.query<LabelRecord>(
    `INSERT INTO labels (account_id, title, description, color, show_on_sidebar, created_at)
     VALUES ($1, $2, COALESCE($3, ''), COALESCE($4, '#1f93ff'), COALESCE($5, true), $6)
     ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    [accountId, fields.title, fields.description ?? null, fields.color ?? null, fields.show_on_sidebar ?? null, now],
  );
  return row;
}

/** Changes a label; 'taken' when another has the title, undefined when there is no such label. */
export async function updateLabel(
  db: Queryable,
  accountId: number,
  id: number,
  fields: LabelFields,
): Promise<LabelRecord | 'taken' | undefined> {
  if (fields.title !== undefined) {
    const [other] = await db.query('SELECT 1 FROM labels WHERE account_id = $1 AND title = $2 AND id <> $3', [
      accountId,
      fields.title,
      id,
    ]);
    if (other) return 'taken';
  }
  const [row] = await db.query<LabelRecord>(
    `UPDATE labels SET title = COALESCE($3, title), description = COALESCE($4, description), color = COALESCE($5, color),
       show_on_sidebar = COALESCE($6, show_on_sidebar) WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [
      accountId,
      id,
      fields.title ?? null,
      fields.description ?? null,
      fields.color ?? null,
      fields.show_on_sidebar ?? null,
    ],
  );
  return row;
}

export async function deleteLabel(db: Queryable, accountId: number, id: number): Promise<boolean> {
  return (
    (await db.query('DELETE FROM labels WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])).length > 0
  );
}

/** The titles of a conversation's labels, in order. */
export async function conversationLabels(db: Queryable, conversationId: number): Promise<string[]> {
  const rows = await db.query<{ title: string }>(
    'SELECT l.title FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id WHERE cl.conversation_id = $1 ORDER BY l.title',
    [conversationId],
  );
  return rows.map((row) => row.title);
}

/**
 * The conversation's labels become exactly `titles` (Chatwoot's POST …/labels). Gives the titles
 * the account does not have (and changes nothing then).
 */
export async function replaceConversationLabels(
  db: Queryable,
  accountId: number,
  conversationId: number,
  titles: readonly string[],
): Promise<{ unknown: string[] }> {
  const known = await db.query<{ id: number; title: string }>(
    'SELECT id, title FROM labels WHERE account_id = $1 AND title = ANY($2::text[])',
    [accountId, titles],
  );
  const unknown = titles.filter((title) => !known.some((label) => label.title === title));
  if (unknown.length) return { unknown };
  await db.query('DELETE FROM conversation_labels WHERE conversation_id = $1', [conversationId]);
  await db.query(
    'INSERT INTO conversation_labels (conversation_id, label_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
    [conversationId, known.map((label) => label.id)],
  );
  return { unknown: [] };
}
