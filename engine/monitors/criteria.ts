import { matchPattern } from '../brain/pattern-match.ts';
import type { Monitor } from '../../shared/schemas/monitors.ts';

/** Characters kept on each side of what was found, so the team reads it in its sentence. */
const EXCERPT_SIDE = 80;
/** The longest excerpt of a message found by an instruction (the LLM names no place in it). */
const EXCERPT_MAX = 200;

/** Which authors of turns a scope reads; system notes (the engine's own) are never read. */
export const ROLES_OF_SCOPE: Record<Monitor['scope'], readonly string[]> = {
  ai_messages: ['ai'],
  customer_messages: ['customer'],
  all: ['customer', 'ai', 'human'],
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A keyword as a regular expression of our own making: its words escaped, any run of spaces
 * between them, and its start at the start of a word ("refund" finds "refunds", not "prefund").
 * It has no repeat but `\s+`, so it runs in linear time.
 */
function keywordRegExp(keyword: string): RegExp {
  const words = keyword.trim().split(/\s+/).map(escapeRegExp).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}`, 'iu');
}

/** The text around `[start, end)`, with … where it was cut. */
export function excerptAround(text: string, start: number, end: number): string {
  const from = Math.max(0, start - EXCERPT_SIDE);
  const to = Math.min(text.length, end + EXCERPT_SIDE);
  return `${from > 0 ? '…' : ''}${text.slice(from, to).trim()}${to < text.length ? '…' : ''}`;
}

/** The start of a message, for a finding the LLM made. */
export function excerptOf(text: string): string {
  return text.length <= EXCERPT_MAX ? text : `${text.slice(0, EXCERPT_MAX).trimEnd()}…`;
}

/**
 * The excerpt of the first keyword, else the pattern, found in `text`; undefined when neither is
 * found (an instruction is asked of the LLM apart, engine/monitors/instruction-checks.ts).
 *
 * @example findByWords({ keywords: ['chargeback'], pattern: null, instruction: null }, 'I will file a chargeback')
 */
export function findByWords(criteria: Monitor['criteria'], text: string): string | undefined {
  for (const keyword of criteria.keywords) {
    const found = keywordRegExp(keyword).exec(text);
    if (found) return excerptAround(text, found.index, found.index + found[0].length);
  }
  if (criteria.pattern) {
    const whole = matchPattern(criteria.pattern, text)?.[0];
    if (whole) {
      const at = Math.max(0, text.toLowerCase().indexOf(whole.toLowerCase()));
      return excerptAround(text, at, at + whole.length);
    }
  }
  return undefined;
}
