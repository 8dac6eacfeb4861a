/**
 * The home screen's calls to the help articles: the first few to offer, and the search of their
 * titles, in the widget's language (the BFF gives the English ones when it has none in it).
 */
import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { HelpArticleList, HelpArticleSummary } from '../../../../shared/index.ts';
import type { Chat } from '../../chat/chat.ts';
import { useI18n } from '../../i18n/context.ts';

type Help = Pick<Chat, 'call'>;

/** Without questions of the inbox's own, the knowledge base's first three articles (none until they come). */
export function useFirstArticles(chat: Help, suggested: readonly string[] | undefined): HelpArticleSummary[] {
  const { locale } = useI18n();
  const [first, setFirst] = useState<HelpArticleSummary[]>([]);
  useEffect(() => {
    if (!suggested)
      void chat.call<HelpArticleList>(`help/articles?locale=${locale}`).then(
        ({ articles }) => setFirst(articles.slice(0, 3)),
        () => {},
      );
  }, [suggested, locale]);
  return first;
}

/** The articles whose titles match `query`, and the query they match; none while the query is blank. */
export function useArticleSearch(chat: Help, query: string, search: RefObject<HTMLInputElement | null>) {
  const { locale } = useI18n();
  const [found, setFound] = useState<{ q: string; articles: HelpArticleSummary[] }>();
  useEffect(() => {
    const q = query.trim();
    if (!q) return setFound(undefined);
    // Asked once typing pauses; an answer to an older query is dropped.
    const timer = setTimeout(
      () =>
        void chat.call<HelpArticleList>(`help/articles?locale=${locale}&q=${encodeURIComponent(q)}`).then(
          ({ articles }) => setFound((now) => (search.current?.value.trim() === q ? { q, articles } : now)),
          () => {},
        ),
      250,
    );
    return () => clearTimeout(timer);
  }, [query, locale]);
  return found;
}
