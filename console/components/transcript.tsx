/** The transcript of one conversation: its messages told apart by who wrote them, notices, and the customer's typing. */
import { useEffect, useRef } from 'preact/hooks';
import type { DeskState, DeskStore } from '../desk-store.ts';
import { clockText } from '../format.ts';
import type { DeskConversation, DeskMessage } from '../types.ts';
import { AttachmentList } from './attachment-list.tsx';
import { extrasOf, ratingText, type MessageExtras } from './message-extras.ts';
import { RichText } from '../../shared/rich-text.tsx';

/** Who wrote a message, as the people see it. */
function authorOf(message: DeskMessage, customer: string): string {
  if (message.message_type === 0) return customer;
  const sender = message.sender;
  if (!sender) return '';
  if (sender.type === 'agent_bot') return sender.id ? `${sender.name} (bot)` : 'AI assistant';
  return sender.name;
}

/** What a line of the transcript is (its class): a notice, a private note, or whose message. */
function kindOf(message: DeskMessage): string {
  if (message.private && message.message_type === 2) return 'team-notice';
  if (message.private) return 'note';
  if (message.message_type === 0) return 'customer';
  if (message.message_type === 2 || message.message_type === 3) return 'notice';
  return message.sender?.type === 'user' ? 'person' : 'ai';
}

interface Props {
  state: DeskState;
  store: DeskStore;
  conversation: DeskConversation;
  customer: string;
}

/** The log of messages, kept scrolled to its end as messages come and the customer types. */
export function Transcript({ state, store, conversation, customer }: Props) {
  const log = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [state.messages.length, state.customerTyping, state.aiDraft]);
  const lastPersonAnswer = [...state.messages]
    .reverse()
    .find((message) => message.message_type === 1 && !message.private);

  return (
    <div ref={log} class="transcript" role="log" aria-label="Transcript" aria-live="polite" tabIndex={0}>
      {state.messages.map((message) => (
        <TranscriptEntry
          key={message.id}
          message={message}
          store={store}
          customer={customer}
          seen={message === lastPersonAnswer && message.id <= conversation.contact_last_read_id}
        />
      ))}
      {state.aiDraft && (
        <article class="message ai streaming" aria-busy="true">
          <p class="meta">
            <span class="author">AI assistant</span> <span class="tag">Writing…</span>
          </p>
          <RichText text={state.aiDraft} />
        </article>
      )}
      {state.customerTyping && (
        <p class="typing" role="status">
          {customer} is typing…
        </p>
      )}
    </div>
  );
}

interface EntryProps {
  message: DeskMessage;
  store: DeskStore;
  customer: string;
  /** The people's last answer, and the customer has read it. */
  seen: boolean;
}

/** One line of the transcript: a notice, or a message with its author, time, files and read receipt. */
function TranscriptEntry({ message, store, customer, seen }: EntryProps) {
  const kind = kindOf(message);
  if (kind === 'team-notice') {
    return (
      <p class="notice team">
        {message.content} <span class="visually-hidden">(only your team sees this)</span>
      </p>
    );
  }
  const extras = extrasOf(message);
  if (kind === 'notice') {
    if (message.message_type !== 3) return <p class="notice">{message.content}</p>;
    return (
      <p class="notice">
        Asked the customer for a rating{extras.rating && <strong class="rating">. {ratingText(extras.rating)}</strong>}
      </p>
    );
  }
  return (
    <article class={`message ${kind}`}>
      <p class="meta">
        <span class="author">{authorOf(message, customer)}</span>
        {kind === 'note' && <span class="tag">Private note</span>}
        <time dateTime={new Date(message.created_at * 1000).toISOString()}>{clockText(message.created_at)}</time>
      </p>
      {message.attachments && <AttachmentList items={message.attachments} store={store} />}
      {message.content && <RichText text={message.content} />}
      <SeenExtras extras={extras} />
      {seen && <p class="seen">Seen by the customer</p>}
    </article>
  );
}

/** The AI's suggestion buttons and card as the customer saw them: shown, never pressed here. */
function SeenExtras({ extras }: { extras: MessageExtras }) {
  return (
    <>
      {extras.buttons.length > 0 && (
        <ul class="choices" aria-label="Buttons the customer was offered">
          {extras.buttons.map((title) => (
            <li key={title} class="chip">
              {title}
            </li>
          ))}
        </ul>
      )}
      {extras.card && (
        <section class="card" aria-label={`Card: ${extras.card.title}`}>
          <strong>{extras.card.title}</strong>
          <dl>
            {extras.card.fields.map((field) => (
              <div key={field.label}>
                <dt>{field.label}</dt>
                <dd>{field.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </>
  );
}
