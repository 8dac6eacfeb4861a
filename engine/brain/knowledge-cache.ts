import type { Queryable } from '../../shared/server/index.ts';
import { KnowledgeBase, type KnowledgeDocument } from './knowledge-base.ts';

/**
 * Keeps one built knowledge base per account and rebuilds it when the account's approved
 * documents change. The check is one small query, so several engine nodes stay in step: every
 * change moves the account's `knowledge_versions` number on in the statement that makes it
 * (engine/store/knowledge.ts), so a change, an approval or a delete made through any process is
 * seen by the next answer, however close in time; the count and newest time of the approved
 * documents are compared too, for rows written by other means.
 */
export class KnowledgeCache {
  readonly #built = new Map<string, { version: string; knowledge: KnowledgeBase }>();

  async forAccount(db: Queryable, accountId: string): Promise<KnowledgeBase> {
    // Read before the documents: a change committed in between is built in now and seen again next time.
    const [stamp] = await db.query<{ version: string | null; count: number; latest: Date | null }>(
      `SELECT (SELECT version::text FROM knowledge_versions WHERE account_id = $1) AS version, count(*)::int AS count, max(updated_at) AS latest
       FROM knowledge_documents WHERE account_id = $1 AND approved`,
      [accountId],
    );
    const version = `${stamp?.version ?? 0}:${stamp?.count ?? 0}:${stamp?.latest?.toISOString() ?? ''}`;
    const cached = this.#built.get(accountId);
    if (cached?.version === version) return cached.knowledge;
    const documents = await db.query<KnowledgeDocument>(
      'SELECT id, title, body, url, locale FROM knowledge_documents WHERE account_id = $1 AND approved ORDER BY id',
      [accountId],
    );
    const knowledge = new KnowledgeBase(documents);
    this.#built.set(accountId, { version, knowledge });
    return knowledge;
  }
}
