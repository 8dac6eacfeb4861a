/** A help article opened from the home screen, with a way back to the search and a way to ask about it. */
import type { ComponentType, RefObject } from 'preact';
import type { HelpArticle } from '../../../../shared/index.ts';
import { useI18n } from '../../i18n/context.ts';

/**
 * Markdown-lite has no headings: an article's `## Heading` reads as a bold line. A first heading
 * that only repeats the article's title (shown above it already) is left out.
 */
const articleText = (markdown: string, title: string) =>
  markdown
    .replace(/^\s*#{1,6}\s+(.+)\n?/, (heading, text: string) => (text.trim() === title.trim() ? '' : heading))
    .replace(/^#{1,6}\s+(.+)$/gm, '**$1**');

interface Props {
  article: HelpArticle;
  /** The title, which takes the focus when the article opens. */
  titleRef: RefObject<HTMLHeadingElement | null>;
  /** The article's words: formatted by the answers chunk once loaded, else plain. */
  Text: ComponentType<{ text: string }>;
  onBack: () => void;
  onAsk: (text: string) => void;
}

/** The article's title (focused when it opens), its text, and the buttons Back and Ask about it. */
export function Article({ article, titleRef, Text, onBack, onAsk }: Props) {
  const { t } = useI18n();
  return (
    <article class="home">
      <h3 ref={titleRef} tabIndex={-1}>
        {article.title}
      </h3>
      <Text text={articleText(article.body, article.title)} />
      <p class="home-actions">
        <button type="button" class="link" onClick={onBack}>
          {t('homeBack')}
        </button>
        <button type="button" class="primary" onClick={() => onAsk(t('homeAskText', { title: article.title }))}>
          {t('homeAsk')}
        </button>
      </p>
    </article>
  );
}
