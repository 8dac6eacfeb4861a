/** The reply box under the transcript: its draft, the private-note switch and the canned responses a `/shortcode` offers. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DeskStore } from '../desk-store.ts';
import { cannedKey, typedShortCode, type Canned } from './canned-choice.ts';
import { addFiles, filesOf } from '../attach-files.ts';
import { AttachButton, AttachTray, useDropZone } from './attach-tray.tsx';

/**
 * The draft being written and what it does: typing tells the customer, `/code` offers canned
 * responses (Up/Down choose, Enter/Tab take, Escape closes), and a `/code` is never sent as such:
 * sending while responses are offered takes the one chosen.
 */
function useReply(store: DeskStore) {
  const [text, setText] = useState('');
  const [note, setNote] = useState(false);
  const [busy, setBusy] = useState(false);
  const [suggestions, setSuggestions] = useState<Canned[]>([]);
  const [active, setActive] = useState(0);
  // Files to send with the draft (picked, pasted or dropped): the draft is their caption.
  const [files, setFiles] = useState<File[]>([]);
  const echo = useRef(crypto.randomUUID());
  // Only the answer to the latest lookup counts: an earlier one arriving late must not bring the list back.
  const lookup = useRef(0);

  async function changed(value: string) {
    setText(value);
    if (value.trim()) store.typing();
    const code = typedShortCode(value);
    const asked = ++lookup.current;
    const found = code === undefined ? [] : (await store.canned(code)).slice(0, 6);
    if (asked !== lookup.current) return;
    setSuggestions(found);
    setActive(0);
  }

  function use(content: string) {
    lookup.current++;
    setText(content);
    setSuggestions([]);
  }

  /** A key in the reply box: true when the canned list used it. */
  function key(event: KeyboardEvent): boolean {
    const does = cannedKey(event.key, active, suggestions.length, event.shiftKey);
    if (does.kind === 'none') return false;
    event.preventDefault();
    if (does.kind === 'move') setActive(does.to);
    else if (does.kind === 'take') use(suggestions[active]!.content);
    else use(text);
    return true;
  }

  async function send() {
    const content = text.trim();
    if ((!content && files.length === 0) || busy) return;
    const chosen = typedShortCode(content) !== undefined ? suggestions[active] : undefined;
    if (chosen) return use(chosen.content);
    setBusy(true);
    lookup.current++;
    setSuggestions([]);
    const sent = await store.send(content, note, echo.current, files);
    setBusy(false);
    if (sent) {
      setText('');
      setFiles([]);
      setNote(false);
      echo.current = crypto.randomUUID();
    }
  }

  const attach = (added: File[]) => setFiles((picked) => addFiles(picked, added));
  const detach = (file: File) => setFiles((picked) => picked.filter((kept) => kept !== file));
  return { text, note, setNote, busy, suggestions, active, changed, use, key, send, files, attach, detach };
}

interface ComposerProps {
  store: DeskStore;
  resolved: boolean;
  /** A text put in the box from outside (Assist's "Use suggestion"): it replaces the draft, and is never sent by itself. */
  offered?: { text: string } | undefined;
}

/** The reply box: Enter sends, Shift+Enter breaks the line; `/shortcode` offers canned responses. */
export function Composer({ store, resolved, offered }: ComposerProps) {
  const { text, note, setNote, busy, suggestions, active, changed, use, key, send, files, attach, detach } =
    useReply(store);
  const box = useRef<HTMLTextAreaElement>(null);
  const { dropping, dropZone } = useDropZone(attach);
  useEffect(() => {
    if (!offered) return;
    use(offered.text);
    box.current?.focus();
  }, [offered]);
  return (
    <form
      class={`composer${note ? ' note' : ''}${dropping ? ' dropping' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
      {...dropZone}
    >
      {suggestions.length > 0 && <CannedList suggestions={suggestions} active={active} onUse={use} />}
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
        aria-controls={suggestions.length > 0 ? 'canned' : undefined}
        aria-activedescendant={suggestions.length > 0 ? `canned-${suggestions[active]?.id}` : undefined}
        onKeyDown={(event) => {
          if (key(event)) return;
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            void send();
          }
        }}
        onBlur={() => store.stopTyping()}
        onPaste={(event) => {
          const pasted = filesOf(event.clipboardData);
          if (pasted.length === 0) return;
          event.preventDefault();
          attach(pasted);
        }}
      />
      <AttachTray files={files} onRemove={detach} />
      <div class="composer-actions">
        <label class="check">
          <input
            type="checkbox"
            checked={note}
            onChange={(event) => setNote((event.currentTarget as HTMLInputElement).checked)}
          />{' '}
          Private note
        </label>
        <AttachButton onFiles={attach} disabled={busy} />
        <button
          type="submit"
          class="primary"
          disabled={busy || (!text.trim() && files.length === 0) || (resolved && !note)}
        >
          Send
        </button>
      </div>
    </form>
  );
}

/**
 * The canned responses whose short code starts as typed, as a list box the reply box drives: the
 * chosen one is marked, and a click takes one too.
 */
function CannedList(props: { suggestions: Canned[]; active: number; onUse: (content: string) => void }) {
  return (
    <ul class="canned" id="canned" role="listbox" aria-label="Canned responses">
      {props.suggestions.map((entry, index) => (
        <li
          key={entry.id}
          id={`canned-${entry.id}`}
          role="option"
          aria-selected={index === props.active}
          // Keep the focus in the reply box: the click takes the response, the box goes on.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => props.onUse(entry.content)}
        >
          <strong>/{entry.short_code}</strong> {entry.content}
        </li>
      ))}
    </ul>
  );
}
