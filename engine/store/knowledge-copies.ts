import type { KnowledgeDocument } from '../../shared/schemas/engine-knowledge.ts';
import type { Queryable } from '../../shared/server/index.ts';
import {
  approveKnowledgeDocument,
  BUMP,
  COLUMNS,
  findKnowledgeDocument,
  insertKnowledgeDocument,
  lockKnowledge,
  toDocument,
  updateKnowledgeDocument,
  type DocumentRow,
  type KnowledgeOwner,
} from './knowledge.ts';

/** Knowledge documents that come from elsewhere: a file (`npm run engine:knowledge`), or the sandbox (a promotion). */

export type ImportOutcome = 'added' | 'updated' | 'unchanged';

/**
 * Imports a document from a file into the owner's environment: the first import of `source` adds
 * it, a later one updates the document of that source when what it says or its language changed
 * (which takes its approval away), and leaves it alone otherwise. With `approve` the document is
 * approved either way. Call it inside a transaction (the cap holds then).
 */
export async function importKnowledgeDocument(
  tx: Queryable,
  owner: KnowledgeOwner,
  document: { source: string; title: string; body: string; url: string | null; locale: string; approve: boolean },
  now: Date,
): Promise<{ document: KnowledgeDocument; outcome: ImportOutcome }> {
  const [existing] = await tx.query<{ id: string }>(
    'SELECT id FROM knowledge_documents WHERE account_id = $1 AND environment = $2 AND source = $3',
    [owner.accountId, owner.environment, document.source],
  );
  if (!existing) {
    const added = await insertKnowledgeDocument(tx, owner, { ...document, approved: document.approve }, now);
    return { document: added, outcome: 'added' };
  }
  const before = await findKnowledgeDocument(tx, owner, existing.id);
  let stored = await updateKnowledgeDocument(
    tx,
    owner,
    existing.id,
    { title: document.title, body: document.body, url: document.url, locale: document.locale },
    now,
  );
  const outcome = stored.updated_at === before.updated_at ? 'unchanged' : 'updated';
  if (document.approve) stored = await approveKnowledgeDocument(tx, owner, existing.id, now);
  return { document: stored, outcome };
}

/**
 * Copies a sandbox document of the account to live, as it is (approved or not). The live document
 * promoted from it before, or else the live one imported from the same file, is updated in place;
 * otherwise a live document is added (within the cap). Gives the live document and whether it is
 * new. Call it inside a transaction: the live environment's knowledge is locked until it ends.
 */
export async function promoteKnowledgeDocument(
  tx: Queryable,
  accountId: string,
  sandboxId: string,
  now: Date,
): Promise<{ document: KnowledgeDocument; created: boolean }> {
  const live: KnowledgeOwner = { accountId, environment: 'live' };
  const original = await findKnowledgeDocument(tx, { accountId, environment: 'sandbox' }, sandboxId);
  await lockKnowledge(tx, live);
  const [row] = await tx.query<DocumentRow>(
    `WITH target AS (
       SELECT id FROM knowledge_documents
       WHERE account_id = $1 AND environment = $2 AND (promoted_from = $3 OR (source IS NOT NULL AND source = $9))
       ORDER BY promoted_from = $3 DESC NULLS LAST LIMIT 1
     ), changed AS (
       UPDATE knowledge_documents SET title = $4, body = $5, url = $6, locale = $7, approved = $8,
         approved_at = CASE WHEN $8 THEN $10::timestamptz END, updated_at = $10, promoted_from = $3
       WHERE id IN (SELECT id FROM target)
       RETURNING ${COLUMNS}
     ), ${BUMP}
     SELECT ${COLUMNS} FROM changed`,
    [
      accountId,
      'live',
      sandboxId,
      original.title,
      original.body,
      original.url,
      original.locale,
      original.approved,
      original.source,
      now,
    ],
  );
  if (row) return { document: toDocument(row), created: false };
  const { title, body, url, locale, approved } = original;
  const copy = { title, body, url, locale, approved, source: original.source ?? undefined, promotedFrom: sandboxId };
  const added = await insertKnowledgeDocument(tx, live, copy, now);
  return { document: added, created: true };
}
