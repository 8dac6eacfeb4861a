import { newId } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';

/** Adds a knowledge document to an account; `approved` documents are what the AI answers from. */
export async function addKnowledgeDocument(db: Queryable, accountId: string, document: { title: string; body: string; approved: boolean; url?: string | undefined }): Promise<string> {
  const id = newId('knowledgeDocument');
  await db.query('INSERT INTO knowledge_documents (id, account_id, title, body, approved, url) VALUES ($1, $2, $3, $4, $5, $6)', [
    id,
    accountId,
    document.title,
    document.body,
    document.approved,
    document.url ?? null,
  ]);
  return id;
}
