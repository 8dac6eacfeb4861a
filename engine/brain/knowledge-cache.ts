import type { Queryable } from '../../shared/server/index.ts';
import { KnowledgeBase, type KnowledgeDocument } from './knowledge-base.ts';

/**
 * Keeps one built knowledge base per account and rebuilds it when the account's approved
 * documents change. The check is one small query, so several engine nodes stay in step.
 */
export class KnowledgeCache {
  readonly #built = new Map<string, { version: string; knowledge: KnowledgeBase }>();

  async forAccount(db: Queryable, accountId: string): Promise<KnowledgeBase> {
    const [stamp] = await db.query<{ count: number; latest: Date | null }>(
      'SELECT count(*)::int AS count, max(updated_at) AS latest FROM knowledge_documents WHERE account_id = $1 AND approved',
      [accountId],
    );
    const version = `${stamp?.count ?? 0}:${stamp?.latest?.toISOString() ?? ''}`;
    const cached = this.#built.get(accountId);
    if (cached?.version === version) return cached.knowledge;
    const documents = await db.query<KnowledgeDocument>(
      'SELECT id, title, body, url FROM knowledge_documents WHERE account_id = $1 AND approved ORDER BY id',
      [accountId],
    );
    const knowledge = new KnowledgeBase(documents);
    this.#built.set(accountId, { version, knowledge });
    return knowledge;
  }
}
