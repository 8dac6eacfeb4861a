import type { ComponentType, VNode } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { ReplyChoice, WidgetAttachment } from '../../../../shared/index.ts';
import type { ShownMessage } from '../../chat/messages.ts';
import { useI18n } from '../../i18n/context.ts';
import type { MessageKey, Translator } from '../../i18n/index.ts';
import { shownStatus } from './delivery.ts';
import { dayLabel, sameDay, timeOfDay } from './when.ts';

const AUTHOR: Record<Exclude<ShownMessage['author'], 'system'>, MessageKey> = {
  customer: 'you',
  ai: 'assistant',
  human: 'support',
};
// Messages by the same sender within this time share one name, avatar and time.
const GROUP_MS = 5 * 60_000;

/** "Sam Lee Jones" → "SL": the first letters of the first two words, "?" without a name. */
const initials = (name: string | null) =>
  name
    ?.match(/\S+/g)
    ?.slice(0, 2)
    .map((word) => [...word][0])
    .join('')
    .toUpperCase() || '?';

/** The AI's avatar: a small robot, drawn (no emoji), so it never reads as a person's initials. */
const Bot = () => (
  <svg viewBox="0 0 24 24" width="14" fill="none" stroke="currentColor" stroke-width="2">
    <path d="M12 3v4M5 7h14v12H5zM9 11v2m6-2v2" />
  </svg>
);

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

/**
 * How each message of the list is drawn, after the name of its day when a new day starts: grouped by
 * sender with times, quick replies under the last answer only, and how the customer's messages fared.
 */
function messageEntries(
  { messages, canChoose, onChoose, onRetry, files, answers }: Props,
  t: Translator['t'],
  locale: string,
  RichText: ComponentType<{ text: string }>,
) {
  const lastChoices = messages.findLast((message) => message.author !== 'customer' && message.author !== 'system');
  const lastMine = messages.map((message) => message.author).lastIndexOf('customer');
  return (message: ShownMessage, index: number) => {
    const previous = messages[index - 1];
    const date = new Date(message.createdAt);
    // A new day starts with its name ("Today", "Yesterday", the date), in the customer's time zone.
    const newDay = !previous || !sameDay(new Date(previous.createdAt), date);
    const day = newDay && (
      <p key={`d${message.key}`} class="day">
        {dayLabel(locale, date)}
      </p>
    );
    if (message.author === 'system') {
      return [
        day,
        <p key={message.key} class="notice">
          {message.notice ? t(message.notice) : message.text}
        </p>,
      ];
    }
    // Two people answering one after the other are two groups, each with its name.
    const startsGroup =
      newDay ||
      previous!.author !== message.author ||
      previous!.authorName !== message.authorName ||
      Date.parse(message.createdAt) - Date.parse(previous!.createdAt) > GROUP_MS;
    const mine = message.author === 'customer';
    const status = mine ? shownStatus(messages, index) : message.status;
    const name = message.author === 'human' && message.authorName ? message.authorName : t(AUTHOR[message.author]);
    return [
      day,
      <div
        key={message.key}
        class={`message ${mine ? 'mine' : 'theirs'} ${message.author}${startsGroup ? ' first' : ''}`}
        data-status={status}
      >
        {startsGroup && (
          <p class="meta">
            {/* A robot for the AI, a person's initials: who answered shows at a glance; the name is the text that is read. */}
            {!mine && (
              <span class="avatar" aria-hidden="true">
                {message.author === 'human' ? initials(message.authorName) : <Bot />}
              </span>
            )}
            {/* The customer's own name is only read out: their side of the log needs no label. */}
            <span class={mine ? 'author visually-hidden' : 'author'}>{name}</span>
            {message.author === 'ai' && <span class="badge">{t('aiBadge')}</span>}{' '}
            <time dateTime={message.createdAt}>{timeOfDay(locale, date)}</time>
          </p>
        )}
        <div class="bubble">
          {message.attachments && files?.(message.attachments)}
          <RichText text={message.text} />
          {message.card && answers && <answers.Card card={message.card} />}
        </div>
        {message.choices && message === lastChoices && answers && (
          <answers.QuickReplies choices={message.choices} disabled={!canChoose} onChoose={onChoose} />
        )}
        {/* Under the customer's last message, and under any still on its way or not sent. */}
        {mine && (index === lastMine || status === 'sending' || status === 'failed') && (
          <p class="status">
            {t(status)}
            {status === 'failed' && (
              <button type="button" class="link" onClick={() => onRetry(message.key)}>
                {t('retry')}
              </button>
            )}
          </p>
        )}
      </div>,
    ];
  };
}

/** The conversation as a live log, grouped by sender with times: screen readers announce new messages; text is always text. */
export function MessageList(props: Props) {
  const { messages, greeting, typing, draft, answers } = props;
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
  return (
    <div ref={log} class="messages" role="log" aria-live="polite" aria-label={t('messages')} tabIndex={0}>
      {messages.length === 0 && greeting && (
        <div class="greeting">
          <div class="bubble">
            <RichText text={greeting} />
          </div>
        </div>
      )}
      {messages.map(messageEntries(props, t, locale, RichText))}
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
