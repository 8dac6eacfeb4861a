/** A canned response as the Application API lists it. */
export interface Canned {
  id: number;
  short_code: string;
  content: string;
}

/** The short code being typed (`/hal` gives `hal`), or undefined when the draft is not just a `/code`. */
export function typedShortCode(draft: string): string | undefined {
  return /^\/([\w-]*)$/.exec(draft)?.[1];
}

/** What a key does in the reply box while canned responses are offered. */
export type CannedKey = { kind: 'move'; to: number } | { kind: 'take' } | { kind: 'close' } | { kind: 'none' };

/** Up and Down move the choice (round), Enter and Tab take it, Escape closes the list. */
export function cannedKey(key: string, active: number, count: number, shift: boolean): CannedKey {
  if (count === 0) return { kind: 'none' };
  if (key === 'ArrowDown') return { kind: 'move', to: (active + 1) % count };
  if (key === 'ArrowUp') return { kind: 'move', to: (active - 1 + count) % count };
  if ((key === 'Enter' && !shift) || (key === 'Tab' && !shift)) return { kind: 'take' };
  if (key === 'Escape') return { kind: 'close' };
  return { kind: 'none' };
}
