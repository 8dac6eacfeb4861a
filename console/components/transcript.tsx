/** The transcript of one conversation: its messages told apart by who wrote them, notices, and the customer's typing. */
import { useEffect, useRef } from 'preact/hooks';
import type { DeskState, DeskStore } from '../desk-store.ts';
import { clockText } from '../format.ts';
import type { DeskConversation, DeskMessage } from '../types.ts';
import { AttachmentList } from './attachment-list.tsx';
import { RichText } from './rich-text.tsx';

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
  }, [state.messages.length, state.customerTyping]);
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
  if (kind === 'notice') {
    return <p class="notice">{message.message_type === 3 ? 'Asked the customer for a rating' : message.content}</p>;
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
      {seen && <p class="seen">Seen by the customer</p>}
    </article>
  );
}
