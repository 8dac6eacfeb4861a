import { ParleyError, type HelpArticle, type HelpArticleSummary } from '../../shared/index.ts';
import { KNOWLEDGE_DEFAULT_LOCALE } from '../../shared/schemas/engine-knowledge.ts';
import { EngineCallError } from '../engine-link/engine-client.ts';
import type { EngineAccounts, EngineScope } from '../engine-link/engine-accounts.ts';
import type { Environment } from '../store/inboxes.ts';

/** How long the titles of an engine account's approved articles (of one environment) are kept before the engine is asked again. */
export const HELP_CACHE_MS = 60_000;
/** The most articles one answer lists. */
export const HELP_RESULTS_MAX = 10;
/** Pages of 100 read at most: the engine keeps at most 1,000 documents an account. */
const PAGES_MAX = 10;

interface Title extends HelpArticleSummary {
  /** The title folded for matching: lower case, without accents. */
  folded: string;
  /** The language the article is written in: its locale's first part (`pt` of `pt-BR`). */
  language: string;
}

/** Lower case without accents, so "Rückgabe" is found by "ruckgabe" and "Return" by "return". */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** The language of a locale tag, lower case: `de` of `de-AT`, `pt` of `pt-BR`. */
const languageOf = (locale: string) => locale.split('-')[0]!.toLowerCase();

/** The account's default language: the engine's accounts have none of their own, so English (issue 28). */
const DEFAULT_LANGUAGE = languageOf(KNOWLEDGE_DEFAULT_LOCALE);

/**
 * The titles a visitor reading `locale` is offered: those written in its language, whatever their
 * region (a `de-AT` visitor reads `de` and `de-CH` articles); when no approved article is in that
 * language, those of the account's default language, English. Without a locale, English.
 */
function inLanguageOf(titles: Title[], locale: string | undefined): Title[] {
  const language = languageOf(locale ?? DEFAULT_LANGUAGE);
  const own = titles.filter((title) => title.language === language);
  return own.length > 0 ? own : titles.filter((title) => title.language === DEFAULT_LANGUAGE);
}

/** Whose help a customer reads: their inbox's (its engine account's knowledge) in their environment. */
export interface HelpReader {
  inboxId: string;
  environment: Environment;
}

/**
 * The widget's help search (issue 16): the titles of the engine's approved knowledge, read with the
 * key of the customer's inbox's engine account and own environment, kept a minute per engine account
 * and environment (every language's, each with its language), and one article at a time. A visitor
 * is offered the articles in the widget's language, else the English ones (`inLanguageOf`).
 * Only approved documents are ever shown: the list asks the engine for approved ones, and an
 * article asked for by id is checked again (it may have lost its approval since).
 */
export function createHelpArticles({
  engines,
  now,
}: {
  engines: Pick<EngineAccounts, 'for' | 'scopeOfInbox'>;
  now: () => Date;
}) {
  const cache = new Map<string, { at: number; titles: Promise<Title[]> }>();

  async function load(scope: EngineScope, environment: Environment): Promise<Title[]> {
    const engine = await engines.for(scope, environment);
    const titles: Title[] = [];
    let after: string | undefined;
    for (let page = 0; page < PAGES_MAX; page++) {
      const { documents, has_more, next } = await engine.approvedKnowledge(after);
      for (const document of documents)
        if (document.approved)
          titles.push({
            id: document.id,
            title: document.title,
            folded: fold(document.title),
            language: languageOf(document.locale),
          });
      if (!has_more || !next) break;
      after = next;
    }
    return titles;
  }

  async function titlesOf(reader: HelpReader): Promise<Title[]> {
    const scope = await engines.scopeOfInbox(reader.inboxId);
    const key = `${scope ?? 'installation'}:${reader.environment}`;
    const at = now().getTime();
    const kept = cache.get(key);
    if (kept && at - kept.at < HELP_CACHE_MS) return kept.titles;
    const titles = unavailable(load(scope, reader.environment));
    cache.set(key, { at, titles });
    // A failed read is not kept: the next request asks the engine again.
    titles.catch(() => cache.get(key)?.titles === titles && cache.delete(key));
    return titles;
  }

  return {
    /**
     * Approved articles in the visitor's language (`locale`, else English: see `inLanguageOf`) whose
     * titles hold every word of `q`, in the knowledge base's order; without `q`, its first articles
     * (the home screen offers them when the inbox sets no questions).
     */
    async search(
      reader: HelpReader,
      { q, locale }: { q?: string | undefined; locale?: string | undefined },
    ): Promise<HelpArticleSummary[]> {
      const words = fold(q ?? '')
        .split(/\s+/)
        .filter(Boolean);
      const titles = inLanguageOf(await titlesOf(reader), locale);
      return titles
        .filter((title) => words.every((word) => title.folded.includes(word)))
        .slice(0, HELP_RESULTS_MAX)
        .map(({ id, title }) => ({ id, title }));
    },

    async article(reader: HelpReader, id: string): Promise<HelpArticle> {
      const missing = () => new ParleyError('not_found', `No article ${id}.`);
      if (!/^doc_[0-9A-Za-z]{16,64}$/.test(id)) throw missing();
      const engine = await engines.for(await engines.scopeOfInbox(reader.inboxId), reader.environment);
      const document = await unavailable(engine.knowledgeDocument(id));
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
    if (error instanceof EngineCallError && error.status === 404)
      throw new ParleyError('not_found', 'No such article.');
    if (error instanceof ParleyError) throw error;
    throw new ParleyError(
      'upstream_unavailable',
      'The help articles cannot be read right now; try again shortly.',
    ).retryAfter(((error instanceof EngineCallError ? error.retryAfterMs : undefined) ?? 5_000) / 1000);
  }
}
