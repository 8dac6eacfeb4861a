import { RE2JS } from 're2js';
import { compileCostProblem } from '../../shared/schemas/engine-actions.ts';

/**
 * Action input patterns are written by an account and run on its customers' words in the engine's
 * own process, where a backtracking pattern such as `(?:\d|\d\d)*x` held every account for
 * seconds on one message of digits (issue 26). So they run on RE2 (re2js, pure JavaScript): it
 * never backtracks, and its time is linear by construction, in the text and in the size of the
 * pattern's program. A definition is refused when RE2 cannot compile it (a lookaround, a
 * backreference) or compiling it would cost too much (shared/schemas/engine-actions.ts); a pattern
 * stored before those checks that fails them simply never matches.
 */

/**
 * The most RE2 work one pattern does on one message: instructions of its program times characters
 * read, about 50 ns each at worst here, so about 10 ms. A pattern of up to 50 instructions (an
 * order number, a postcode, an e-mail address) reads the brain's whole 4,000 characters; a larger
 * one reads proportionally fewer (the largest allowed, 1,000 instructions, reads 200).
 */
export const PATTERN_STEPS_MAX = 200_000;

// Compiling costs up to a few ms, so each pattern is compiled once, in the budget of the message
// that first needs it; at most COMPILED_KEPT are kept (then they are all forgotten and compiled
// again as they come), so the memory stays bounded.
const compiled = new Map<string, RE2JS | null>();
const COMPILED_KEPT = 10_000;

function compile(pattern: string): RE2JS | null {
  let regex = compiled.get(pattern);
  if (regex !== undefined) return regex;
  try {
    regex = compileCostProblem(pattern) ? null : RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch {
    regex = null;
  }
  if (compiled.size >= COMPILED_KEPT) compiled.clear();
  compiled.set(pattern, regex);
  return regex;
}

/**
 * `pattern`'s match in `text` (case-insensitive): the whole match, then its groups (undefined for a
 * group that took no part). Null when it has none, or when the engine does not run the pattern.
 *
 * @example matchPattern('(\\d{4,12})', 'order 48213')?.[1] // '48213'
 */
export function matchPattern(pattern: string, text: string): (string | undefined)[] | null {
  const regex = compile(pattern);
  if (!regex) return null;
  const read = Math.floor(PATTERN_STEPS_MAX / Math.max(1, regex.programSize()));
  return regex.exec(text.length <= read ? text : text.slice(0, read));
}
