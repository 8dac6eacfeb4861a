import { newId, ParleyError } from '../../shared/index.ts';
import {
  KNOWLEDGE_DEFAULT_LOCALE,
  type KnowledgeDocument,
  type KnowledgeList,
} from '../../shared/schemas/engine-knowledge.ts';
import type { Queryable } from '../../shared/server/index.ts';

/**
 * An account's knowledge documents. They belong to the account, not to an environment: sandbox and
 * live keys manage the same documents, which are what the AI answers every customer from.
 *
 * Every statement that changes a document also moves the account's number in `knowledge_versions`
 * on (a data-modifying CTE, so the two are one statement and need no transaction). The knowledge
 * cache of each engine process compares that number before it answers (engine/brain/knowledge-cache.ts).
 */

/** The most documents an account holds: the AI's knowledge base is built from them in memory. */
export const KNOWLEDGE_DOCUMENTS_MAX = 1000;

const COLUMNS = 'id, title, body, url, locale, approved, approved_at, source, created_at, updated_at';

interface DocumentRow {
  id: string;
  title: string;
  body: string;
  url: string | null;
  locale: string;
  approved: boolean;
  approved_at: Date | null;
  source: string | null;
  created_at: Date;
  updated_at: Date;
}

const toDocument = (row: DocumentRow): KnowledgeDocument => ({
  id: row.id,
  title: row.title,
  body: row.body,
  url: row.url,
  locale: row.locale,
  approved: row.approved,
  approved_at: row.approved_at?.toISOString() ?? null,
  source: row.source,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** Moves the account's knowledge version on when the CTE `changed` holds a row ($1 is the account). */
const BUMP = `bumped AS (
  INSERT INTO knowledge_versions (account_id, version) SELECT $1, 1 FROM changed LIMIT 1
  ON CONFLICT (account_id) DO UPDATE SET version = knowledge_versions.version + 1
)`;

export interface NewKnowledgeDocument {
  title: string;
  body: string;
  url?: string | null | undefined;
  /** The language it is written in (a tag such as `de` or `pt-BR`); English when not given. */
  locale?: string | undefined;
  /** The file it comes from, for imports: a document of the same source is updated instead. */
  source?: string | undefined;
  approved?: boolean;
}

async function refuseOverCap(db: Queryable, accountId: string): Promise<void> {
  const [{ count } = { count: 0 }] = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM knowledge_documents WHERE account_id = $1',
    [accountId],
  );
  if (count >= KNOWLEDGE_DOCUMENTS_MAX)
    throw new ParleyError(
      'unprocessable',
      `An account holds at most ${KNOWLEDGE_DOCUMENTS_MAX} knowledge documents; delete one first.`,
    );
}

/** Adds a document (unapproved unless `approved`) and gives it. */
export async function insertKnowledgeDocument(
  db: Queryable,
  accountId: string,
  document: NewKnowledgeDocument,
  now: Date,
): Promise<KnowledgeDocument> {
  await refuseOverCap(db, accountId);
  const approved = document.approved ?? false;
  const [row] = await db.query<DocumentRow>(
    `WITH changed AS (
       INSERT INTO knowledge_documents (id, account_id, title, body, url, locale, approved, approved_at, source, created_at, updated_at)
       VALUES ($2, $1, $3, $4, $5, $9, $6, CASE WHEN $6 THEN $8::timestamptz END, $7, $8, $8)
       RETURNING ${COLUMNS}
     ), ${BUMP}
     SELECT ${COLUMNS} FROM changed`,
    [
      accountId,
      newId('knowledgeDocument'),
      document.title,
      document.body,
      document.url ?? null,
      approved,
      document.source ?? null,
      now,
      document.locale ?? KNOWLEDGE_DEFAULT_LOCALE,
    ],
  );
  return toDocument(row!);
}

/** Adds a knowledge document to an account; `approved` documents are what the AI answers from. */
export async function addKnowledgeDocument(
  db: Queryable,
  accountId: string,
  document: { title: string; body: string; approved: boolean; url?: string | undefined; locale?: string | undefined },
): Promise<string> {
  return (await insertKnowledgeDocument(db, accountId, document, new Date())).id;
}

export async function findKnowledgeDocument(db: Queryable, accountId: string, id: string): Promise<KnowledgeDocument> {
  const [row] = await db.query<DocumentRow>(
    `SELECT ${COLUMNS} FROM knowledge_documents WHERE id = $1 AND account_id = $2`,
    [id, accountId],
  );
  if (!row) throw new ParleyError('not_found', `No knowledge document ${id} in this account.`);
  return toDocument(row);
}

export interface KnowledgePageQuery {
  after?: string | undefined;
  limit: number;
  approved?: boolean | undefined;
  /** Only the documents of this language tag, exactly (`de` is not `de-AT`). */
  locale?: string | undefined;
}

/** A page of the account's documents, oldest first, after the document `after`. */
export async function pageKnowledgeDocuments(
  db: Queryable,
  accountId: string,
  { after, limit, approved, locale }: KnowledgePageQuery,
): Promise<KnowledgeList> {
  const params: unknown[] = [accountId, limit + 1];
  let where = 'account_id = $1';
  if (approved !== undefined) where += ` AND approved = $${params.push(approved)}`;
  if (locale !== undefined) where += ` AND locale = $${params.push(locale)}`;
  if (after) {
    const [cursor] = await db.query<{ id: string }>(
      'SELECT id FROM knowledge_documents WHERE id = $1 AND account_id = $2',
      [after, accountId],
    );
    if (!cursor)
      throw new ParleyError(
        'invalid_request',
        `The cursor ${after} is not a knowledge document of this account (was it deleted?); read again from the start.`,
      );
    where += ` AND position > (SELECT position FROM knowledge_documents WHERE id = $${params.push(after)})`;
  }
  // One more than the page: whether there is more is known without another question. In the order
  // the documents were added (migration 010: created_at alone ties within a millisecond).
  const rows = await db.query<DocumentRow>(
    `SELECT ${COLUMNS} FROM knowledge_documents WHERE ${where} ORDER BY position LIMIT $2`,
    params,
  );
  const documents = rows.slice(0, limit).map(toDocument);
  return { documents, next: documents.at(-1)?.id ?? after ?? null, has_more: rows.length > limit };
}

export interface KnowledgeChange {
  title?: string | undefined;
  body?: string | undefined;
  /** null removes the address; undefined leaves it. */
  url?: string | null | undefined;
  locale?: string | undefined;
}

/**
 * Changes a document. A change to what it says (title, body, address or language) takes its
 * approval away: it answers no one until it is approved again. The language counts as the address
 * does: it decides which customers the document answers, so a person approves that too. Giving the
 * values it has already changes nothing.
 */
export async function updateKnowledgeDocument(
  db: Queryable,
  accountId: string,
  id: string,
  change: KnowledgeChange,
  now: Date,
): Promise<KnowledgeDocument> {
  const [row] = await db.query<DocumentRow>(
    `WITH changed AS (
       UPDATE knowledge_documents SET title = COALESCE($3, title), body = COALESCE($4, body), url = CASE WHEN $5 THEN $6 ELSE url END,
         locale = COALESCE($8, locale), approved = false, approved_at = NULL, updated_at = $7
       WHERE id = $2 AND account_id = $1
         AND (title IS DISTINCT FROM COALESCE($3, title) OR body IS DISTINCT FROM COALESCE($4, body) OR ($5 AND url IS DISTINCT FROM $6)
           OR locale IS DISTINCT FROM COALESCE($8, locale))
       RETURNING ${COLUMNS}
     ), ${BUMP}
     SELECT ${COLUMNS} FROM changed`,
    [
      accountId,
      id,
      change.title ?? null,
      change.body ?? null,
      change.url !== undefined,
      change.url ?? null,
      now,
      change.locale ?? null,
    ],
  );
  return row ? toDocument(row) : findKnowledgeDocument(db, accountId, id);
}

/** Approves a document: from now on it answers customers. Approving an approved document changes nothing. */
export async function approveKnowledgeDocument(
  db: Queryable,
  accountId: string,
  id: string,
  now: Date,
): Promise<KnowledgeDocument> {
  const [row] = await db.query<DocumentRow>(
    `WITH changed AS (
       UPDATE knowledge_documents SET approved = true, approved_at = $3, updated_at = $3
       WHERE id = $2 AND account_id = $1 AND NOT approved
       RETURNING ${COLUMNS}
     ), ${BUMP}
     SELECT ${COLUMNS} FROM changed`,
    [accountId, id, now],
  );
  return row ? toDocument(row) : findKnowledgeDocument(db, accountId, id);
}

export async function deleteKnowledgeDocument(db: Queryable, accountId: string, id: string): Promise<void> {
  const rows = await db.query(
    `WITH changed AS (
       DELETE FROM knowledge_documents WHERE id = $2 AND account_id = $1 RETURNING id
     ), ${BUMP}
     SELECT id FROM changed`,
    [accountId, id],
  );
  if (rows.length === 0) throw new ParleyError('not_found', `No knowledge document ${id} in this account.`);
}

export type ImportOutcome = 'added' | 'updated' | 'unchanged';

/**
 * Imports a document from a file: the first import of `source` adds it, a later one updates the
 * document of that source when what it says or its language changed (which takes its approval
 * away), and leaves it alone otherwise. With `approve` the document is approved either way.
 */
export async function importKnowledgeDocument(
  db: Queryable,
  accountId: string,
  document: { source: string; title: string; body: string; url: string | null; locale: string; approve: boolean },
  now: Date,
): Promise<{ document: KnowledgeDocument; outcome: ImportOutcome }> {
  const [existing] = await db.query<{ id: string }>(
    'SELECT id FROM knowledge_documents WHERE account_id = $1 AND source = $2',
    [accountId, document.source],
  );
  let outcome: ImportOutcome;
  let stored: KnowledgeDocument;
  if (!existing) {
    stored = await insertKnowledgeDocument(db, accountId, { ...document, approved: document.approve }, now);
    outcome = 'added';
  } else {
    const before = await findKnowledgeDocument(db, accountId, existing.id);
    stored = await updateKnowledgeDocument(
      db,
      accountId,
      existing.id,
      { title: document.title, body: document.body, url: document.url, locale: document.locale },
      now,
    );
    outcome = stored.updated_at === before.updated_at ? 'unchanged' : 'updated';
    if (document.approve) stored = await approveKnowledgeDocument(db, accountId, existing.id, now);
  }
  return { document: stored, outcome };
}
