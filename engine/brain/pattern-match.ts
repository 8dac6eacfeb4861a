import { createContext, Script } from 'node:vm';

/**
 * Action input patterns are written by an account and run on its customers' words in the engine's
 * own process. The check on them (`nestsRepeats`) refuses the plainest catastrophic shapes only:
 * `(?:\d|\d\d)*x` or `\d*\d*\d*\d*x` pass it and would hold the process, and every account with
 * it, on one message of digits. So a pattern runs with a deadline: in a context of its own, which
 * V8 interrupts (regular expressions included) when the time is over; then it found nothing.
 */
// The deadline is wall-clock time: generous, so that an ordinary pattern on a loaded machine (a
// thread not scheduled for a while) does not run out of it.
export const PATTERN_DEADLINE_MS = 200;

const context = createContext(Object.create(null) as object);
const script = new Script('(() => { try { return new RegExp(source, "i").exec(text); } catch { return null; } })()');

/**
 * How often each pattern ran out of time. After GIVE_UP_AFTER times it is not run again by this
 * process, so an account's bad pattern costs the deadline a few times, not on every message; one
 * time out alone (a busy machine) does not silence an ordinary pattern. At most SLOW_KEPT patterns
 * are remembered.
 */
const slow = new Map<string, number>();
const SLOW_KEPT = 10_000;
const GIVE_UP_AFTER = 2;

/** True when `pattern` ran out of time often enough that this process no longer runs it. */
export function patternGivenUp(pattern: string): boolean {
  return (slow.get(pattern) ?? 0) >= GIVE_UP_AFTER;
}

/** `pattern`'s match in `text` (case-insensitive), or null when it has none, does not compile, or takes too long (now or before). */
export function matchPattern(pattern: string, text: string): RegExpExecArray | null {
  if (patternGivenUp(pattern)) return null;
  const sandbox = context as { source?: string; text?: string };
  sandbox.source = pattern;
  sandbox.text = text;
  try {
    return script.runInContext(context, { timeout: PATTERN_DEADLINE_MS }) as RegExpExecArray | null;
  } catch {
    if (slow.size >= SLOW_KEPT) slow.clear();
    slow.set(pattern, (slow.get(pattern) ?? 0) + 1);
    return null;
  } finally {
    delete sandbox.source;
    delete sandbox.text;
  }
}
