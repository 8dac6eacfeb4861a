import { useEffect, useRef } from 'preact/hooks';
import type { DeskStore } from '../desk-store.ts';
import { SHORTCUTS, shortcutOf, stepFrom, type Shortcut } from '../shortcut-keys.ts';

/** Puts the caret in the reply box, as an answer to the customer or as a private note. */
function write(note: boolean): void {
  const box = document.getElementById('reply');
  const switchBox = box?.closest('form')?.querySelector<HTMLInputElement>('input[type=checkbox]');
  if (switchBox && switchBox.checked !== note) switchBox.click();
  box?.focus();
}

function act(does: Shortcut, store: DeskStore, showHelp: () => void): void {
  const { conversations, selected } = store.state;
  if (does === 'next' || does === 'previous') {
    const next = stepFrom(
      conversations.map((entry) => entry.id),
      selected?.id,
      does === 'next' ? 1 : -1,
    );
    if (next !== undefined) void store.open(next);
  } else if (does === 'search') {
    document.querySelector<HTMLInputElement>('input[aria-label="Search conversations"], input[type=search]')?.focus();
  } else if (does === 'help') {
    showHelp();
  } else if (selected) {
    if (does === 'reply' || does === 'note') write(does === 'note');
    else if (does === 'assign' && selected.assignee_id !== store.me) void store.assignToMe();
    else if (does === 'resolve' && selected.status !== 'resolved') void store.resolve();
  }
}

/**
 * The console's keys (`?` lists them): j/k move through the list, r and n write, a assigns, e
 * resolves, / searches. Never while the person types in a field, nor with Ctrl, Cmd or Alt.
 */
export function useShortcuts(store: DeskStore, showHelp: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const does = shortcutOf(event);
      if (!does) return;
      event.preventDefault();
      act(does, store, showHelp);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [store]);
}

/** The `?` dialog: every shortcut and what it does. A modal dialog: Escape or Close ends it. */
export function ShortcutHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (open && element && !element.open) element.showModal();
    if (!open && element?.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} class="shortcuts" aria-labelledby="shortcuts-title" onClose={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.map((entry) => (
          <div key={entry.key}>
            <dt>
              <kbd>{entry.key}</kbd>
            </dt>
            <dd>{entry.label}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </dialog>
  );
}
