import type { VNode } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { ReplyChoice, WidgetAttachment } from '../../../../shared/index.ts';
import type { ShownMessage } from '../../chat.ts';
import { useI18n } from '../../i18n/context.ts';
import type { MessageKey } from '../../i18n/index.ts';

const AUTHOR: Record<Exclude<ShownMessage['author'], 'system'>, MessageKey> = { customer: 'you', ai: 'assistant', human: 'support' };
const STATUS: Record<ShownMessage['status'], MessageKey> = { sending: 'sending', sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };
// Messages by the same sender within this time share one name, avatar and time.
const GROUP_MS = 5 * 60_000;

/** "Sam Lee Jones" → "SL": the first letters of the first two words, "?" without a name. */
const initials = (name: string | null) =>
  name?.match(/\S+/g)?.slice(0, 2).map((word) => [...word][0]).join('').toUpperCase() || '?';

interface Props {
  messages: readonly ShownMessage[];
  /** The inbox's greeting, shown while the conversation has no messages yet. */
  greeting?: string | undefined;
  typing: boolean;
  /** The AI's reply while it is written: shown growing, but not read out (the finished reply is). */
  draft?: string;
  /** Choices are offered only on the last answer, and only while the conversation is open. */
  canChoose: boolean;
  onChoose: (choice: ReplyChoice) => void;
  onRetry: (key: string) => void;
  /** Draws a message's photos and PDFs, once the attachments chunk is loaded. */
  files?: ((items: WidgetAttachment[]) => VNode) | undefined;
  /** Formatting, cards and quick replies, once the answers chunk is loaded (widget/app/answers.ts). */
  answers?: typeof import('../../answers.ts') | undefined;
}

/** A message's words before the answers chunk formats them: readable as they are, line breaks kept. */
const PlainText = ({ text }: { text: string }) => (
  <div class="text" dir="auto">
    <p>{text}</p>
  </div>
);

/** The conversation as a live log, grouped by sender with times: screen readers announce new messages; text is always text. */
export function MessageList({ messages, greeting, typing, draft, canChoose, onChoose, onRetry, files, answers }: Props) {
  const { t, locale } = useI18n();
  const RichText = answers?.RichText ?? PlainText;
  const end = useRef<HTMLDivElement>(null);
  const log = useRef<HTMLDivElement>(null);
  useEffect(() => end.current?.scrollIntoView?.({ block: 'end' }), [messages.length, typing, draft]);
  // The log keeps its bottom in place when it changes height (the survey opens below it, the keyboard shows): what was last in view stays in view.
  useEffect(() => {
    const element = log.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    let height = element.clientHeight;
    const observer = new ResizeObserver(() => {
      element.scrollTop += height - element.clientHeight;
      height = element.clientHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  const lastChoices = [...messages].reverse().find((message) => message.author !== 'customer' && message.author !== 'system');
  return (
    <div ref={log} class="messages" role="log" aria-live="polite" aria-label={t('messages')} tabIndex={0}>
      {messages.length === 0 && greeting && (
        <div class="greeting">
          <div class="bubble">
            <RichText text={greeting} />
          </div>
        </div>
      )}
      {messages.map((message, index) => {
        if (message.author === 'system') {
          return (
            <p key={message.key} class="notice">
              {message.text}
            </p>
          );
        }
        const previous = messages[index - 1];
        // Two people answering one after the other are two groups, each with its name.
        const startsGroup =
          !previous ||
          previous.author !== message.author ||
          previous.authorName !== message.authorName ||
          Date.parse(message.createdAt) - Date.parse(previous.createdAt) > GROUP_MS;
        const mine = message.author === 'customer';
        const name = message.author === 'human' && message.authorName ? message.authorName : t(AUTHOR[message.author]);
        return (
          <div key={message.key} class={`message ${mine ? 'mine' : 'theirs'} ${message.author}${startsGroup ? ' first' : ''}`} data-status={message.status}>
            {startsGroup && (
              <p class="meta">
                {/* A person's initials or "AI", so who answered shows at a glance; the name is the text that is read. */}
                {!mine && (
                  <span class="avatar" aria-hidden="true">
                    {message.author === 'human' ? initials(message.authorName) : 'AI'}
                  </span>
                )}
                <span class="author">{name}</span> <time dateTime={message.createdAt}>{time.format(new Date(message.createdAt))}</time>
              </p>
            )}
            <div class="bubble">
              {message.attachments && files?.(message.attachments)}
              <RichText text={message.text} />
              {message.card && answers && <answers.Card card={message.card} />}
            </div>
            {message.choices && message === lastChoices && answers && <answers.QuickReplies choices={message.choices} disabled={!canChoose} onChoose={onChoose} />}
            {mine && (
              <p class="status">
                {t(STATUS[message.status])}
                {message.status === 'failed' && (
                  <button type="button" class="link" onClick={() => onRetry(message.key)}>
                    {t('retry')}
                  </button>
                )}
              </p>
            )}
          </div>
        );
      })}
      {draft && (
        <div class="message theirs ai draft" aria-hidden="true">
          <div class="bubble">
            <RichText text={draft} />
          </div>
        </div>
      )}
      {typing && !draft && (
        <p class="typing" role="status">
          <span class="dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          <span class="visually-hidden">{t('writing')}</span>
        </p>
      )}
      <div ref={end} />
    </div>
  );
}
