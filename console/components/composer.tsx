/** The reply box under the transcript: its draft, the private-note switch and the canned responses a `/shortcode` offers. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DeskStore } from '../desk-store.ts';

interface Canned {
  id: number;
  short_code: string;
  content: string;
}

/**
 * The draft being written and what it does: typing tells the customer, `/code` looks up canned
 * responses, and sending a `/code` that names one puts its text in the box instead of sending it.
 */
function useReply(store: DeskStore) {
  const [text, setText] = useState('');
  const [note, setNote] = useState(false);
  const [busy, setBusy] = useState(false);
  const [suggestions, setSuggestions] = useState<Canned[]>([]);
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

  return { text, note, setNote, busy, suggestions, changed, use, send };
}

interface ComposerProps {
  store: DeskStore;
  resolved: boolean;
  /** A text put in the box from outside (Assist's "Use suggestion"): it replaces the draft, and is never sent by itself. */
  offered?: { text: string } | undefined;
}

/** The reply box: Enter sends, Shift+Enter breaks the line; `/shortcode` offers canned responses. */
export function Composer({ store, resolved, offered }: ComposerProps) {
  const { text, note, setNote, busy, suggestions, changed, use, send } = useReply(store);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (!offered) return;
    use(offered.text);
    box.current?.focus();
  }, [offered]);
  return (
    <form
      class={`composer${note ? ' note' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {suggestions.length > 0 && <CannedList suggestions={suggestions} onUse={use} />}
      <label class="visually-hidden" for="reply">
        Reply
      </label>
      <textarea
        ref={box}
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

/** The canned responses whose short code starts as typed; choosing one puts its text in the box. */
function CannedList({ suggestions, onUse }: { suggestions: Canned[]; onUse: (content: string) => void }) {
  return (
    <ul class="canned" aria-label="Canned responses">
      {suggestions.map((entry) => (
        <li key={entry.id}>
          <button type="button" onClick={() => onUse(entry.content)}>
            <strong>/{entry.short_code}</strong> {entry.content}
          </button>
        </li>
      ))}
    </ul>
  );
}
