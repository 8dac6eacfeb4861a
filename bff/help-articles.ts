import { ParleyError, type HelpArticle, type HelpArticleSummary } from '../shared/index.ts';
import { EngineCallError } from './engine-client.ts';
import type { EngineKeys } from './engine-keys.ts';
import type { Environment } from './store/inboxes.ts';

/** How long the titles of an environment's approved articles are kept before the engine is asked again. */
export const HELP_CACHE_MS = 60_000;
/** The most articles one answer lists. */
export const HELP_RESULTS_MAX = 10;
/** Pages of 100 read at most: the engine keeps at most 1,000 documents an account. */
const PAGES_MAX = 10;

interface Title extends HelpArticleSummary {
  /** The title folded for matching: lower case, without accents. */
  folded: string;
}

/** Lower case without accents, so "Rückgabe" is found by "ruckgabe" and "Return" by "return". */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The widget's help search (issue 16): the titles of the engine's approved knowledge, read with the
 * key of the customer's own environment, kept a minute per environment, and one article at a time.
 * Only approved documents are ever shown: the list asks the engine for approved ones, and an
 * article asked for by id is checked again (it may have lost its approval since).
 */
export function createHelpArticles({ engines, now }: { engines: EngineKeys; now: () => Date }) {
  const cache = new Map<Environment, { at: number; titles: Promise<Title[]> }>();

  async function load(environment: Environment): Promise<Title[]> {
    const engine = engines.for(environment);
    const titles: Title[] = [];
    let after: string | undefined;
    for (let page = 0; page < PAGES_MAX; page++) {
      const { documents, has_more, next } = await engine.approvedKnowledge(after);
      for (const document of documents) if (document.approved) titles.push({ id: document.id, title: document.title, folded: fold(document.title) });
      if (!has_more || !next) break;
      after = next;
    }
    return titles;
  }

  function titlesOf(environment: Environment): Promise<Title[]> {
    const at = now().getTime();
    const kept = cache.get(environment);
    if (kept && at - kept.at < HELP_CACHE_MS) return kept.titles;
    const titles = unavailable(load(environment));
    cache.set(environment, { at, titles });
    // A failed read is not kept: the next request asks the engine again.
    titles.catch(() => cache.get(environment)?.titles === titles && cache.delete(environment));
    return titles;
  }

  return {
    /**
     * Approved articles whose titles hold every word of `q`, in the knowledge base's order; without
     * `q`, its first articles (the home screen offers them when the inbox sets no questions).
     */
    async search(environment: Environment, q: string | undefined): Promise<HelpArticleSummary[]> {
      const words = fold(q ?? '').split(/\s+/).filter(Boolean);
      const titles = await titlesOf(environment);
      return titles
        .filter((title) => words.every((word) => title.folded.includes(word)))
        .slice(0, HELP_RESULTS_MAX)
        .map(({ id, title }) => ({ id, title }));
    },

    async article(environment: Environment, id: string): Promise<HelpArticle> {
      const missing = () => new ParleyError('not_found', `No article ${id}.`);
      if (!/^doc_[0-9A-Za-z]{16,64}$/.test(id)) throw missing();
      const document = await unavailable(engines.for(environment).knowledgeDocument(id));
      if (!document.approved) throw missing();
      return { id: document.id, title: document.title, body: document.body, url: document.url };
    },
  };
}

export type HelpArticles = ReturnType<typeof createHelpArticles>;

/** The engine's refusals and absences as the widget's own codes: a missing document is a 404, the rest a 503. */
async function unavailable<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof EngineCallError && error.status === 404) throw new ParleyError('not_found', 'No such article.');
    if (error instanceof ParleyError) throw error;
    throw new ParleyError('upstream_unavailable', 'The help articles cannot be read right now; try again shortly.').retryAfter(((error instanceof EngineCallError ? error.retryAfterMs : undefined) ?? 5_000) / 1000);
  }
}
