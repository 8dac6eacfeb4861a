import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { HelpArticle, HelpArticleSummary, WidgetConfig } from '../../../../shared/index.ts';
import type { Chat } from '../../chat/chat.ts';
import { useI18n } from '../../i18n/context.ts';
import { Article } from './article.tsx';
import { useArticleSearch, useFirstArticles } from './help-search.ts';
import { useChunk } from '../../use-chunk.ts';

// The interview offer's button: loaded only for an inbox that offers one.
const interviewChunk = () => import('../../interview.ts');

interface Props {
  chat: Pick<Chat, 'send' | 'call' | 'localize' | 'state' | 'subscribe' | 'enterConversation'>;
  inbox: WidgetConfig['inbox'];
  /** Formatting of the greeting and of articles: the answers chunk, once loaded. */
  answers?: typeof import('../../answers.ts') | undefined;
}

/**
 * What the chat shows before the first message (issue 16): the welcome and the greeting in the
 * widget's language, the interview the inbox offers (issue 29), up to three suggested questions that
 * send themselves, and a search of the help articles' titles that opens an article with a way back
 * and a way to ask about it. Without
 * questions of the inbox's own, the knowledge base's first articles are offered (their titles).
 */
export function Home({ chat, inbox, answers }: Props) {
  const { t, locale } = useI18n();
  const [query, setQuery] = useState('');
  const [article, setArticle] = useState<HelpArticle>();
  const search = useRef<HTMLInputElement>(null);
  const interview = useChunk(interviewChunk, !!inbox.interview_offer, () => search.current);
  const title = useRef<HTMLHeadingElement>(null);
  const Text = answers?.RichText ?? (({ text }: { text: string }) => <p class="text">{text}</p>);

  // The greeting in the language shown, should it have changed since the config came.
  useEffect(() => void chat.localize(), [locale]);
  const first = useFirstArticles(chat, inbox.suggested_questions);
  const found = useArticleSearch(chat, query, search);
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
    void chat.call<HelpArticle>(`help/articles/${encodeURIComponent(id)}`).then(setArticle, () => {});

  if (article) {
    return (
      <Article
        article={article}
        titleRef={title}
        Text={Text}
        onBack={() => setArticle(undefined)}
        onAsk={(text) => void chat.send(text)}
      />
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
      {inbox.interview_offer && interview && <interview.InterviewOffer chat={chat} offer={inbox.interview_offer} />}
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
      {found && <SearchResults found={found} onOpen={open} />}
    </div>
  );
}

interface ResultsProps {
  found: { q: string; articles: HelpArticleSummary[] };
  onOpen: (id: string) => void;
}

/** The titles found, each opening its article; or that nothing matched. */
function SearchResults({ found, onOpen }: ResultsProps) {
  const { t } = useI18n();
  return found.articles.length ? (
    <ul class="found" aria-label={t('homeResults')}>
      {found.articles.map((entry) => (
        <li key={entry.id}>
          <button type="button" onClick={() => onOpen(entry.id)}>
            {entry.title}
          </button>
        </li>
      ))}
    </ul>
  ) : (
    <p role="status">{t('homeNoResults', { q: found.q })}</p>
  );
}
