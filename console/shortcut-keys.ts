/** The console's keyboard shortcuts, as the `?` dialog lists them. */
export const SHORTCUTS = [
  { key: 'j', does: 'next', label: 'Next conversation' },
  { key: 'k', does: 'previous', label: 'Previous conversation' },
  { key: 'r', does: 'reply', label: 'Reply to the customer' },
  { key: 'n', does: 'note', label: 'Write a private note' },
  { key: 'a', does: 'assign', label: 'Assign to me' },
  { key: 'e', does: 'resolve', label: 'Resolve' },
  { key: '/', does: 'search', label: 'Search conversations' },
  { key: '?', does: 'help', label: 'Show these shortcuts' },
] as const;

export type Shortcut = (typeof SHORTCUTS)[number]['does'];

interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/** What the console reads of the element a key press goes to. */
interface FieldLike {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
}

/** Whether a key goes to a field being written in (then it is the field's, never a shortcut); a checkbox or button takes no text. */
export function typingIn(target: EventTarget | null): boolean {
  const field = target as FieldLike | null;
  const tag = field?.tagName?.toLowerCase();
  if (!tag) return false;
  if (field!.isContentEditable || tag === 'textarea' || tag === 'select') return true;
  return tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(field!.type ?? 'text');
}

/** The shortcut a key press means, if any: not with Ctrl, Cmd or Alt, and not while typing in a field. */
export function shortcutOf(press: KeyPress): Shortcut | undefined {
  if (press.ctrlKey || press.metaKey || press.altKey || typingIn(press.target)) return undefined;
  return SHORTCUTS.find((entry) => entry.key === press.key)?.does;
}

/** The conversation `step` away from the open one in the list (the first one when none is open); undefined past the ends. */
export function stepFrom(ids: readonly number[], open: number | undefined, step: 1 | -1): number | undefined {
  if (ids.length === 0) return undefined;
  const at = open === undefined ? -1 : ids.indexOf(open);
  if (at === -1) return step === 1 ? ids[0] : ids.at(-1);
  return ids[at + step];
}
