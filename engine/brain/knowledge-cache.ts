import type { Logger, Queryable } from '../../shared/server/index.ts';
import type { KnowledgeOwner } from '../store/knowledge.ts';
import { EmbeddingsUnavailableError, type EmbeddingsClient } from './embeddings-client.ts';
import { KnowledgeBase, splitSections, type KnowledgeDocument, type KnowledgeSection } from './knowledge-base.ts';
import { vectorsForSections } from './section-vectors.ts';

/** How long an answer after a change waits for the sections' vectors; then it ranks by words, and the vectors serve later answers. */
export const VECTORS_WAIT_MS = 3_000;
/** After the embeddings API gave no vectors, how long until they are asked for again. */
export const VECTORS_RETRY_MS = 60_000;

/** An environment's knowledge as the brain ranks it. */
export interface AccountKnowledge {
  knowledge: KnowledgeBase;
  /** A vector per section (by section id), when an embeddings API is configured and has given them. */
  sectionVectors: ReadonlyMap<string, Float32Array> | undefined;
}

interface Built {
  version: string;
  knowledge: KnowledgeBase;
  sections: KnowledgeSection[];
  sectionVectors?: ReadonlyMap<string, Float32Array>;
  /** The sections' vectors being fetched. */
  filling?: Promise<void> | undefined;
  failedAt?: number | undefined;
}

export interface KnowledgeCacheOptions {
  /** The embeddings API (EMBEDDINGS_BASE_URL): without it the brain ranks by words alone. */
  embeddings?: EmbeddingsClient | undefined;
  /** Where a failure to keep vectors in the store is told (the client tells its own). */
  logger?: Logger | undefined;
  vectorsWaitMs?: number;
  vectorsRetryMs?: number;
}

/**
 * Keeps one built knowledge base per account and environment (each environment's customers are
 * answered from its own documents) and rebuilds it when its approved documents change. The check is one small query, so several engine nodes stay in step: every
 * change moves the account's `knowledge_versions` number on in the statement that makes it
 * (engine/store/knowledge.ts), so a change, an approval or a delete made through any process is
 * seen by the next answer, however close in time; the count and newest time of the approved
 * documents are compared too, for rows written by other means.
 *
 * With an embeddings API, each built knowledge base also gets a vector per section
 * (section-vectors.ts: kept in the store, so only changed sections are embedded). An answer waits
 * for them at most VECTORS_WAIT_MS; the first knowledge of a large shop may take longer to embed,
 * and meanwhile answers rank by words. When the API fails, words alone rank until it is tried
 * again VECTORS_RETRY_MS later.
 */
export class KnowledgeCache {
  readonly #built = new Map<string, Built>();
  readonly #embeddings: EmbeddingsClient | undefined;
  readonly #logger: Logger | undefined;
  readonly #waitMs: number;
  readonly #retryMs: number;

  constructor(options: KnowledgeCacheOptions = {}) {
    this.#embeddings = options.embeddings;
    this.#logger = options.logger;
    this.#waitMs = options.vectorsWaitMs ?? VECTORS_WAIT_MS;
    this.#retryMs = options.vectorsRetryMs ?? VECTORS_RETRY_MS;
  }

  /** The embeddings API questions are embedded with (question-vector.ts), when one is configured. */
  get embeddings(): EmbeddingsClient | undefined {
    return this.#embeddings;
  }

  async forAccount(db: Queryable, owner: KnowledgeOwner): Promise<KnowledgeBase> {
    return (await this.read(db, owner)).knowledge;
  }

  /**
   * The environment's knowledge base with its sections' vectors when there are some. `db` is the store
   * itself, not a transaction: vectors still being fetched when the wait ends are kept after it.
   */
  async read(db: Queryable, owner: KnowledgeOwner): Promise<AccountKnowledge> {
    const built = await this.#current(db, owner);
    if (this.#embeddings) await this.#awaitVectors(db, owner.accountId, built, this.#embeddings);
    return { knowledge: built.knowledge, sectionVectors: built.sectionVectors };
  }

  async #current(db: Queryable, { accountId, environment }: KnowledgeOwner): Promise<Built> {
    // Read before the documents: a change committed in between is built in now and seen again next time.
    const [stamp] = await db.query<{ version: string | null; count: number; latest: Date | null }>(
      `SELECT (SELECT version::text FROM knowledge_versions WHERE account_id = $1 AND environment = $2) AS version,
         count(*)::int AS count, max(updated_at) AS latest
       FROM knowledge_documents WHERE account_id = $1 AND environment = $2 AND approved`,
      [accountId, environment],
    );
    const version = `${stamp?.version ?? 0}:${stamp?.count ?? 0}:${stamp?.latest?.toISOString() ?? ''}`;
    const key = `${accountId}:${environment}`;
    const cached = this.#built.get(key);
    if (cached?.version === version) return cached;
    const documents = await db.query<KnowledgeDocument>(
      'SELECT id, title, body, url, locale FROM knowledge_documents WHERE account_id = $1 AND environment = $2 AND approved ORDER BY id',
      [accountId, environment],
    );
    const built: Built = {
      version,
      knowledge: new KnowledgeBase(documents),
      sections: documents.flatMap(splitSections),
    };
    this.#built.set(key, built);
    return built;
  }

  /** Fetches the sections' vectors unless they are there, being fetched, or failed a short while ago; waits a little for them. */
  async #awaitVectors(db: Queryable, accountId: string, built: Built, client: EmbeddingsClient): Promise<void> {
    if (built.sectionVectors) return;
    if (!built.filling && (built.failedAt === undefined || Date.now() - built.failedAt >= this.#retryMs))
      built.filling = this.#fill(db, accountId, built, client);
    if (!built.filling) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#waitMs)));
    await Promise.race([built.filling, waited]);
    clearTimeout(timer);
  }

  async #fill(db: Queryable, accountId: string, built: Built, client: EmbeddingsClient): Promise<void> {
    try {
      built.sectionVectors = await vectorsForSections(db, accountId, built.sections, client);
      built.failedAt = undefined;
    } catch (error) {
      built.failedAt = Date.now();
      if (!(error instanceof EmbeddingsUnavailableError))
        this.#logger?.warn(
          { err: error, accountId },
          'section vectors not kept: the brain ranks by words only for now',
        );
    } finally {
      built.filling = undefined;
    }
  }
}
