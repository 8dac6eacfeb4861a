/**
 * The list's cursors and label filter as the query string carries them. A cursor is opaque to
 * clients (base64url of the last row's sort key and number): one that does not decode is a 422.
 */
import { ParleyError } from '../../shared/index.ts';
import type { DeskCursor, DeskSort } from './store/desk-conversation-list.ts';

const badCursor = () =>
  new ParleyError('unprocessable', 'after is not a cursor this list gave.', {
    problems: [{ field: 'after', message: 'not a cursor of this list' }],
  });

const TIME = '(?:infinity|\\d{4}-\\d\\d-\\d\\d [\\d:.]+(?:[+-]\\d\\d(?::\\d\\d)?)?)';
/** The sort key's form per order: the default one leads with whether people answer it. */
const KEYS: Record<DeskSort, RegExp> = {
  default: new RegExp(`^[01]\\|${TIME}$`),
  latest: new RegExp(`^${TIME}$`),
  waiting_since: new RegExp(`^${TIME}$`),
};

/** A cursor of a list in one order (it is refused in another). */
export function writeCursor(sort: DeskSort, cursor: DeskCursor): string {
  return Buffer.from(JSON.stringify([sort, cursor.key, cursor.id])).toString('base64url');
}

export function readCursor(text: string | undefined, sort: DeskSort): DeskCursor | undefined {
  if (text === undefined) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 3 ||
    decoded[0] !== sort ||
    typeof decoded[1] !== 'string' ||
    !KEYS[sort].test(decoded[1]) ||
    !Number.isSafeInteger(decoded[2]) ||
    decoded[2] < 1
  )
    throw badCursor();
  return { key: decoded[1], id: decoded[2] };
}

/** `labels=a,b` or Chatwoot's `labels[]=a` (each given once), as lower-case titles. */
export function labelFilter(...given: (string | undefined)[]): string[] | undefined {
  const titles = given
    .flatMap((text) => (text ?? '').split(','))
    .map((title) => title.trim().toLowerCase())
    .filter(Boolean);
  return titles.length ? [...new Set(titles)] : undefined;
}
