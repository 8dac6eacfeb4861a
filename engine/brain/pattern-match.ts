import { createContext, Script } from 'node:vm';

/**
 * Action input patterns are written by an account and run on its customers' words in the engine's
 * own process. The check on them (`nestsRepeats`) refuses the plainest catastrophic shapes only:
 * `(?:\d|\d\d)*x` or `\d*\d*\d*\d*x` pass it and would hold the process, and every account with
 * it, on one message of digits. So a pattern runs with a deadline: in a context of its own, which
 * V8 interrupts (regular expressions included) when the time is over; then it found nothing.
 */
export const PATTERN_DEADLINE_MS = 25;

const context = createContext(Object.create(null) as object);
const script = new Script('(() => { try { return new RegExp(source, "i").exec(text); } catch { return null; } })()');

/**
 * Patterns that ran out of time once: not run again by this process, so an account's bad pattern
 * costs the deadline once, not on every message (at most SLOW_KEPT of them are remembered).
 */
const slow = new Set<string>();
const SLOW_KEPT = 10_000;

/** `pattern`'s match in `text` (case-insensitive), or null when it has none, does not compile, or takes too long (now or before). */
export function matchPattern(pattern: string, text: string): RegExpExecArray | null {
  if (slow.has(pattern)) return null;
  const sandbox = context as { source?: string; text?: string };
  sandbox.source = pattern;
  sandbox.text = text;
  try {
    return script.runInContext(context, { timeout: PATTERN_DEADLINE_MS }) as RegExpExecArray | null;
  } catch {
    if (slow.size >= SLOW_KEPT) slow.clear();
    slow.add(pattern);
    return null;
  } finally {
    delete sandbox.source;
    delete sandbox.text;
  }
}
