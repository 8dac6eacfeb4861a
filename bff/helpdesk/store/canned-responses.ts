import type { Queryable } from '../../../shared/server/index.ts';

export interface CannedResponseRecord {
  id: number;
  accountId: number;
  shortCode: string;
  content: string;
}

interface Row {
  id: number;
  account_id: number;
  short_code: string;
  content: string;
}

const toRecord = (row: Row): CannedResponseRecord => ({
  id: row.id,
  accountId: row.account_id,
  shortCode: row.short_code,
  content: row.content,
});

/** The account's canned responses, by short code; `search` keeps those whose code or text holds it. */
export async function listCannedResponses(
  db: Queryable,
  accountId: number,
  search?: string,
): Promise<CannedResponseRecord[]> {
  const pattern = search ? `%${search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null;
  const rows = await db.query<Row>(
    'SELECT id, account_id, short_code, content FROM canned_responses WHERE account_id = $1 AND ($2::text IS NULL OR lower(short_code) LIKE $2 OR lower(content) LIKE $2) ORDER BY short_code',
    [accountId, pattern],
  );
  return rows.map(toRecord);
}

export async function findCannedResponse(
  db: Queryable,
  accountId: number,
  id: number,
): Promise<CannedResponseRecord | undefined> {
  const [row] = await db.query<Row>(
    'SELECT id, account_id, short_code, content FROM canned_responses WHERE account_id = $1 AND id = $2',
    [accountId, id],
  );
  return row && toRecord(row);
}

/** Makes a canned response; undefined when the account has that short code already. */
export async function insertCannedResponse(
  db: Queryable,
  accountId: number,
  shortCode: string,
  content: string,
  now: Date,
): Promise<CannedResponseRecord | undefined> {
  const [row] = await db.query<Row>(
    'INSERT INTO canned_responses (account_id, short_code, content, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) ON CONFLICT DO NOTHING RETURNING id, account_id, short_code, content',
    [accountId, shortCode, content, now],
  );
  return row && toRecord(row);
}

/** Changes a canned response; 'taken' when the new short code belongs to another of the account's. */
export async function updateCannedResponse(
  db: Queryable,
  accountId: number,
  id: number,
  changes: { shortCode?: string | undefined; content?: string | undefined },
  now: Date,
): Promise<CannedResponseRecord | undefined | 'taken'> {
  if (changes.shortCode !== undefined) {
    const [other] = await db.query(
      'SELECT 1 FROM canned_responses WHERE account_id = $1 AND short_code = $2 AND id <> $3',
      [accountId, changes.shortCode, id],
    );
    if (other) return 'taken';
  }
  const [row] = await db.query<Row>(
    'UPDATE canned_responses SET short_code = COALESCE($3, short_code), content = COALESCE($4, content), updated_at = $5 WHERE account_id = $1 AND id = $2 RETURNING id, account_id, short_code, content',
    [accountId, id, changes.shortCode ?? null, changes.content ?? null, now],
  );
  return row && toRecord(row);
}

export async function deleteCannedResponse(db: Queryable, accountId: number, id: number): Promise<boolean> {
  return (
    (await db.query('DELETE FROM canned_responses WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]))
      .length > 0
  );
}
