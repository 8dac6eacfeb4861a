import { useEffect, useRef, useState } from 'preact/hooks';
import type { DeskState, DeskStore } from '../desk-store.ts';
import { clockText, contactName } from '../format.ts';
import type { DeskMessage } from '../types.ts';
import { AttachmentList } from './attachment-list.tsx';

const STATUS_TEXT = {
  open: 'People answer',
  pending: 'The AI answers',
  snoozed: 'Snoozed',
  resolved: 'Resolved',
} as const;

/** Who wrote a message, as the people see it. */
function authorOf(message: DeskMessage, customer: string): string {
  if (message.message_type === 0) return customer;
  const sender = message.sender;
  if (!sender) return '';
  if (sender.type === 'agent_bot') return sender.id ? `${sender.name} (bot)` : 'AI assistant';
  return sender.name;
}

function kindOf(message: DeskMessage): string {
  if (message.private && message.message_type === 2) return 'team-notice';
  if (message.private) return 'note';
  if (message.message_type === 0) return 'customer';
  if (message.message_type === 2 || message.message_type === 3) return 'notice';
  return message.sender?.type === 'user' ? 'person' : 'ai';
}

/**
 * One conversation: its moves (assign to me, hand back to the AI, resolve or reopen), the
 * transcript with the customer's, the AI's and people's messages told apart (private notes too),
 * the customer's typing, read receipts, and the reply box.
 */
export function ConversationView({ state, store }: { state: DeskState; store: DeskStore }) {
  const conversation = state.selected!;
  const customer = contactName(conversation);
  const log = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [state.messages.length, state.customerTyping]);
  const lastPersonAnswer = [...state.messages]
    .reverse()
    .find((message) => message.message_type === 1 && !message.private);
  const resolved = conversation.status === 'resolved';

  return (
    <section class="conversation" aria-labelledby="conversation-title">
      <header class="conversation-head">
        <div>
          <h2 id="conversation-title">{customer}</h2>
          <p class="muted">
            {STATUS_TEXT[conversation.status]}
            {conversation.assignee_id !== null &&
              ` · assigned to ${conversation.assignee_id === store.me ? 'you' : `person #${conversation.assignee_id}`}`}
          </p>
        </div>
        <div class="actions">
          <button
            type="button"
            onClick={() => void store.assignToMe()}
            disabled={conversation.assignee_id === store.me}
          >
            Assign to me
          </button>
          {conversation.handled_by === 'human' && !resolved && (
            <button type="button" onClick={() => void store.handBack()}>
              Hand back to AI
            </button>
          )}
          {resolved ? (
            <button type="button" onClick={() => void store.reopen()}>
              Reopen
            </button>
          ) : (
            <button type="button" onClick={() => void store.resolve()}>
              Resolve
            </button>
          )}
        </div>
      </header>
      <div ref={log} class="transcript" role="log" aria-label="Transcript" aria-live="polite" tabIndex={0}>
        {state.messages.map((message) => {
          const kind = kindOf(message);
          if (kind === 'team-notice') {
            return (
              <p key={message.id} class="notice team">
                {message.content} <span class="visually-hidden">(only your team sees this)</span>
              </p>
            );
          }
          if (kind === 'notice') {
            return (
              <p key={message.id} class="notice">
                {message.message_type === 3 ? 'Asked the customer for a rating' : message.content}
              </p>
            );
          }
          return (
            <article key={message.id} class={`message ${kind}`}>
              <p class="meta">
                <span class="author">{authorOf(message, customer)}</span>
                {kind === 'note' && <span class="tag">Private note</span>}
                <time dateTime={new Date(message.created_at * 1000).toISOString()}>
                  {clockText(message.created_at)}
                </time>
              </p>
              {message.attachments && <AttachmentList items={message.attachments} store={store} />}
              {message.content && <p class="text">{message.content}</p>}
              {message === lastPersonAnswer && message.id <= conversation.contact_last_read_id && (
                <p class="seen">Seen by the customer</p>
              )}
            </article>
          );
        })}
        {state.customerTyping && (
          <p class="typing" role="status">
            {customer} is typing…
          </p>
        )}
      </div>
      <Composer store={store} resolved={resolved} key={conversation.id} />
    </section>
  );
}

/** The reply box: Enter sends, Shift+Enter breaks the line; `/shortcode` offers canned responses. */
function Composer({ store, resolved }: { store: DeskStore; resolved: boolean }) {
  const [text, setText] = useState('');
  const [note, setNote] = useState(false);
  const [busy, setBusy] = useState(false);
  const [suggestions, setSuggestions] = useState<{ id: number; short_code: string; content: string }[]>([]);
  const echo = useRef(crypto.randomUUID());

  async function changed(value: string) {
    setText(value);
    if (value.trim()) store.typing();
    const code = /^\/([\w-]*)$/.exec(value);
    setSuggestions(code ? (await store.canned(code[1]!)).slice(0, 6) : []);
  }

  function use(content: string) {
    setText(content);
    setSuggestions([]);
  }

  async function send() {
    const content = text.trim();
    if (!content || busy) return;
    const exact = /^\/([\w-]+)$/.exec(content) && suggestions.find((entry) => `/${entry.short_code}` === content);
    if (exact) return use(exact.content);
    setBusy(true);
    const sent = await store.send(content, note, echo.current);
    setBusy(false);
    if (sent) {
      setText('');
      setNote(false);
      echo.current = crypto.randomUUID();
    }
  }

  return (
    <form
      class={`composer${note ? ' note' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {suggestions.length > 0 && (
        <ul class="canned" aria-label="Canned responses">
          {suggestions.map((entry) => (
            <li key={entry.id}>
              <button type="button" onClick={() => use(entry.content)}>
                <strong>/{entry.short_code}</strong> {entry.content}
              </button>
            </li>
          ))}
        </ul>
      )}
      <label class="visually-hidden" for="reply">
        Reply
      </label>
      <textarea
        id="reply"
        rows={3}
        value={text}
        placeholder={
          resolved
            ? 'This conversation is resolved: reopen it to answer, or write a private note.'
            : note
              ? 'A note for the people of your team (the customer never sees it)'
              : 'Write to the customer; type / for canned responses'
        }
        onInput={(event) => void changed((event.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            void send();
          }
        }}
        onBlur={() => store.stopTyping()}
      />
      <div class="composer-actions">
        <label class="check">
          <input
            type="checkbox"
            checked={note}
            onChange={(event) => setNote((event.currentTarget as HTMLInputElement).checked)}
          />{' '}
          Private note
        </label>
        <button type="submit" class="primary" disabled={busy || !text.trim() || (resolved && !note)}>
          Send
        </button>
      </div>
    </form>
  );
}
