import { newId, ParleyError } from '../../shared/index.ts';
import type { Environment } from '../../shared/environment.ts';
import {
  KNOWLEDGE_DEFAULT_LOCALE,
  type KnowledgeDocument,
  type KnowledgeList,
} from '../../shared/schemas/engine-knowledge.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

/**
 * An account's knowledge documents, each of one environment (as the agent is, migration 018): a
 * sandbox key reads and changes the sandbox's documents only, a live key the live ones, and each
 * environment's customers are answered from their own. A live key copies a sandbox document to
 * live (knowledge-promotion.ts).
 *
 * Every statement that changes a document also moves the environment's number in
 * `knowledge_versions` on (a data-modifying CTE, so the two are one statement). The knowledge cache
 * of each engine process compares that number before it answers (engine/brain/knowledge-cache.ts).
 */

/** Whose documents: an account's, in one environment. */
export type KnowledgeOwner = Pick<Caller, 'accountId' | 'environment'>;

/** The most documents an account holds in an environment: the AI's knowledge base is built from them in memory. */
export const KNOWLEDGE_DOCUMENTS_MAX = 1000;

export const COLUMNS = 'id, title, body, url, locale, approved, approved_at, source, created_at, updated_at';

export interface DocumentRow {
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

export const toDocument = (row: DocumentRow): KnowledgeDocument => ({
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

/** Moves the environment's knowledge version on when the CTE `changed` holds a row ($1 is the account, $2 the environment). */
export const BUMP = `bumped AS (
  INSERT INTO knowledge_versions (account_id, environment, version) SELECT $1, $2, 1 FROM changed LIMIT 1
  ON CONFLICT (account_id, environment) DO UPDATE SET version = knowledge_versions.version + 1
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

/**
 * Takes the environment's knowledge lock (its `knowledge_versions` row) until the transaction ends,
 * so that requests at the same instant count and add one after the other. Outside a transaction
 * the lock ends with the statement.
 */
export async function lockKnowledge(tx: Queryable, owner: KnowledgeOwner): Promise<void> {
  await tx.query(
    `INSERT INTO knowledge_versions (account_id, environment, version) VALUES ($1, $2, 0)
     ON CONFLICT (account_id, environment) DO NOTHING`,
    [owner.accountId, owner.environment],
  );
  await tx.query('SELECT version FROM knowledge_versions WHERE account_id = $1 AND environment = $2 FOR UPDATE', [
    owner.accountId,
    owner.environment,
  ]);
}

/** Refuses a new document past the cap; count it under the lock (lockKnowledge). */
export async function refuseOverCap(tx: Queryable, owner: KnowledgeOwner): Promise<void> {
  const [{ count } = { count: 0 }] = await tx.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM knowledge_documents WHERE account_id = $1 AND environment = $2',
    [owner.accountId, owner.environment],
  );
  if (count >= KNOWLEDGE_DOCUMENTS_MAX)
    throw new ParleyError(
      'unprocessable',
      `An account holds at most ${KNOWLEDGE_DOCUMENTS_MAX} knowledge documents in an environment; delete one first.`,
    );
}

/**
 * Adds a document (unapproved unless `approved`) and gives it. Call it inside a transaction: the
 * cap then holds against simultaneous requests.
 */
export async function insertKnowledgeDocument(
  tx: Queryable,
  owner: KnowledgeOwner,
  document: NewKnowledgeDocument & { promotedFrom?: string | undefined },
  now: Date,
): Promise<KnowledgeDocument> {
  await lockKnowledge(tx, owner);
  await refuseOverCap(tx, owner);
  const approved = document.approved ?? false;
  const [row] = await tx.query<DocumentRow>(
    `WITH changed AS (
       INSERT INTO knowledge_documents (id, account_id, environment, title, body, url, locale, approved, approved_at, source,
         created_at, updated_at, promoted_from)
       VALUES ($3, $1, $2, $4, $5, $6, $10, $7, CASE WHEN $7 THEN $9::timestamptz END, $8, $9, $9, $11)
       RETURNING ${COLUMNS}
     ), ${BUMP}
     SELECT ${COLUMNS} FROM changed`,
    [
      owner.accountId,
      owner.environment,
      newId('knowledgeDocument'),
      document.title,
      document.body,
      document.url ?? null,
      approved,
      document.source ?? null,
      now,
      document.locale ?? KNOWLEDGE_DEFAULT_LOCALE,
      document.promotedFrom ?? null,
    ],
  );
  return toDocument(row!);
}

/**
 * Adds a knowledge document to an account in both environments, as the demo and the tests fill
 * them (an API key adds to its own environment only); `approved` documents are what the AI answers
 * from. Gives the document's id in each environment.
 */
export async function addKnowledgeDocument(
  db: Queryable,
  accountId: string,
  document: { title: string; body: string; approved: boolean; url?: string | undefined; locale?: string | undefined },
): Promise<Record<Environment, string>> {
  const now = new Date();
  const sandbox = await insertKnowledgeDocument(db, { accountId, environment: 'sandbox' }, document, now);
  const live = await insertKnowledgeDocument(
    db,
    { accountId, environment: 'live' },
    { ...document, promotedFrom: sandbox.id },
    now,
  );
  return { sandbox: sandbox.id, live: live.id };
}

/** A document of the owner's environment; another environment's or account's is not found (404). */
export async function findKnowledgeDocument(
  db: Queryable,
  owner: KnowledgeOwner,
  id: string,
): Promise<KnowledgeDocument> {
  const [row] = await db.query<DocumentRow>(
    `SELECT ${COLUMNS} FROM knowledge_documents WHERE id = $1 AND account_id = $2 AND environment = $3`,
    [id, owner.accountId, owner.environment],
  );
  if (!row) throw new ParleyError('not_found', `No knowledge document ${id} for this key.`);
  return toDocument(row);
}

export interface KnowledgePageQuery {
  after?: string | undefined;
  limit: number;
  approved?: boolean | undefined;
  /** Only the documents of this language tag, exactly (`de` is not `de-AT`). */
  locale?: string | undefined;
}

/** A page of the environment's documents, oldest first, after the document `after`. */
export async function pageKnowledgeDocuments(
  db: Queryable,
  owner: KnowledgeOwner,
  { after, limit, approved, locale }: KnowledgePageQuery,
): Promise<KnowledgeList> {
  const params: unknown[] = [owner.accountId, owner.environment, limit + 1];
  let where = 'account_id = $1 AND environment = $2';
  if (approved !== undefined) where += ` AND approved = $${params.push(approved)}`;
  if (locale !== undefined) where += ` AND locale = $${params.push(locale)}`;
  if (after) {
    const [cursor] = await db.query<{ id: string }>(
      'SELECT id FROM knowledge_documents WHERE id = $1 AND account_id = $2 AND environment = $3',
      [after, owner.accountId, owner.environment],
    );
    if (!cursor)
      throw new ParleyError(
        'invalid_request',
        `The cursor ${after} is not a knowledge document of this key (was it deleted?); read again from the start.`,
      );
    where += ` AND position > (SELECT position FROM knowledge_documents WHERE id = $${params.push(after)})`;
  }
  // One more than the page: whether there is more is known without another question. In the order
  // the documents were added (migration 010: created_at alone ties within a millisecond).
  const rows = await db.query<DocumentRow>(
    `SELECT ${COLUMNS} FROM knowledge_documents WHERE ${where} ORDER BY position LIMIT $3`,
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
  owner: KnowledgeOwner,
  id: string,
  change: KnowledgeChange,
  now: Date,
): Promise<KnowledgeDocument> {
  const [row] = await db.query<DocumentRow>(
    `WITH changed AS (
       UPDATE knowledge_documents SET title = COALESCE($4, title), body = COALESCE($5, body), url = CASE WHEN $6 THEN $7 ELSE url END,
         locale = COALESCE($9, locale), approved = false, approved_at = NULL, updated_at = $8
       WHERE id = $3 AND account_id = $1 AND environment = $2
         AND (title IS DISTINCT FROM COALESCE($4, title) OR body IS DISTINCT FROM COALESCE($5, body) OR ($6 AND url IS DISTINCT FROM $7)
           OR locale IS DISTINCT FROM COALESCE($9, locale))
       RETURNING ${COLUMNS}
     ), ${BUMP}
     SELECT ${COLUMNS} FROM changed`,
    [
      owner.accountId,
      owner.environment,
      id,
      change.title ?? null,
      change.body ?? null,
      change.url !== undefined,
      change.url ?? null,
      now,
      change.locale ?? null,
    ],
  );
  return row ? toDocument(row) : findKnowledgeDocument(db, owner, id);
}

/** Approves a document: from now on it answers customers. Approving an approved document changes nothing. */
export async function approveKnowledgeDocument(
  db: Queryable,
  owner: KnowledgeOwner,
  id: string,
  now: Date,
): Promise<KnowledgeDocument> {
  const [row] = await db.query<DocumentRow>(
    `WITH changed AS (
       UPDATE knowledge_documents SET approved = true, approved_at = $4, updated_at = $4
       WHERE id = $3 AND account_id = $1 AND environment = $2 AND NOT approved
       RETURNING ${COLUMNS}
     ), ${BUMP}
     SELECT ${COLUMNS} FROM changed`,
    [owner.accountId, owner.environment, id, now],
  );
  return row ? toDocument(row) : findKnowledgeDocument(db, owner, id);
}

export async function deleteKnowledgeDocument(db: Queryable, owner: KnowledgeOwner, id: string): Promise<void> {
  const rows = await db.query(
    `WITH changed AS (
       DELETE FROM knowledge_documents WHERE id = $3 AND account_id = $1 AND environment = $2 RETURNING id
     ), ${BUMP}
     SELECT id FROM changed`,
    [owner.accountId, owner.environment, id],
  );
  if (rows.length === 0) throw new ParleyError('not_found', `No knowledge document ${id} for this key.`);
}
