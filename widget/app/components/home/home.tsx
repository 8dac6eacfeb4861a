import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { HelpArticle, HelpArticleList, HelpArticleSummary, WidgetConfig } from '../../../../shared/index.ts';
import type { Chat } from '../../chat/chat.ts';
import { useI18n } from '../../i18n/context.ts';

interface Props {
  chat: Pick<Chat, 'send' | 'help' | 'localize'>;
  inbox: WidgetConfig['inbox'];
  /** Formatting of the greeting and of articles: the answers chunk, once loaded. */
  answers?: typeof import('../../answers.ts') | undefined;
}

/**
 * Markdown-lite has no headings: an article's `## Heading` reads as a bold line. A first heading
 * that only repeats the article's title (shown above it already) is left out.
 */
const articleText = (markdown: string, title: string) =>
  markdown
    .replace(/^\s*#{1,6}\s+(.+)\n?/, (heading, text: string) => (text.trim() === title.trim() ? '' : heading))
    .replace(/^#{1,6}\s+(.+)$/gm, '**$1**');

/**
 * What the chat shows before the first message (issue 16): the welcome and the greeting in the
 * widget's language, up to three suggested questions that send themselves, and a search of the
 * help articles' titles that opens an article with a way back and a way to ask about it. Without
 * questions of the inbox's own, the knowledge base's first articles are offered (their titles).
 */
export function Home({ chat, inbox, answers }: Props) {
  const { t, locale } = useI18n();
  const [first, setFirst] = useState<HelpArticleSummary[]>([]);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ q: string; articles: HelpArticleSummary[] }>();
  const [article, setArticle] = useState<HelpArticle>();
  const search = useRef<HTMLInputElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  const Text = answers?.RichText ?? (({ text }: { text: string }) => <p class="text">{text}</p>);

  // The greeting in the language shown, should it have changed since the config came.
  useEffect(() => void chat.localize(), [locale]);
  useEffect(() => {
    if (!inbox.suggested_questions)
      void chat.help<HelpArticleList>('articles').then(
        ({ articles }) => setFirst(articles.slice(0, 3)),
        () => {},
      );
  }, [inbox.suggested_questions]);
  useEffect(() => {
    const q = query.trim();
    if (!q) return setFound(undefined);
    // Asked once typing pauses; an answer to an older query is dropped.
    const timer = setTimeout(
      () =>
        void chat.help<HelpArticleList>(`articles?q=${encodeURIComponent(q)}`).then(
          ({ articles }) => setFound((now) => (search.current?.value.trim() === q ? { q, articles } : now)),
          () => {},
        ),
      250,
    );
    return () => clearTimeout(timer);
  }, [query]);
  // Opening an article moves focus to its title and Back to the search; on the first draw the message box keeps it.
  // In the same commit as the view it moves to (a layout effect): an effect runs after the next frame, and
  // until then focus is on the button just removed, which a keyboard or screen reader user would be left on.
  const drawn = useRef(false);
  useLayoutEffect(() => {
    if (drawn.current) (article ? title.current : search.current)?.focus();
    drawn.current = true;
  }, [article]);

  const questions = inbox.suggested_questions ?? first.map((entry) => entry.title);
  const open = (id: string) =>
    void chat.help<HelpArticle>(`articles/${encodeURIComponent(id)}`).then(setArticle, () => {});

  if (article) {
    return (
      <article class="home">
        <h3 ref={title} tabIndex={-1}>
          {article.title}
        </h3>
        <Text text={articleText(article.body, article.title)} />
        <p class="home-actions">
          <button type="button" class="link" onClick={() => setArticle(undefined)}>
            {t('homeBack')}
          </button>
          <button
            type="button"
            class="primary"
            onClick={() => void chat.send(t('homeAskText', { title: article.title }))}
          >
            {t('homeAsk')}
          </button>
        </p>
      </article>
    );
  }
  return (
    <div class="home">
      {inbox.welcome_title && <h3>{inbox.welcome_title}</h3>}
      {inbox.welcome_tagline && <p class="tagline">{inbox.welcome_tagline}</p>}
      {inbox.away && (
        <p class="away" role="status">
          {inbox.out_of_office_message || t('homeAway')}
        </p>
      )}
      {inbox.greeting && (
        <div class="bubble">
          <Text text={inbox.greeting} />
        </div>
      )}
      {questions.length > 0 && (
        <ul class="asks" aria-label={t('homeSuggested')}>
          {questions.map((question) => (
            <li key={question}>
              <button type="button" onClick={() => void chat.send(question)}>
                {question}
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        ref={search}
        type="search"
        aria-label={t('homeSearch')}
        placeholder={t('homeSearch')}
        maxLength={100}
        value={query}
        onInput={(event) => setQuery(event.currentTarget.value)}
      />
      {found &&
        (found.articles.length ? (
          <ul class="found" aria-label={t('homeResults')}>
            {found.articles.map((entry) => (
              <li key={entry.id}>
                <button type="button" onClick={() => open(entry.id)}>
                  {entry.title}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p role="status">{t('homeNoResults', { q: found.q })}</p>
        ))}
    </div>
  );
}
