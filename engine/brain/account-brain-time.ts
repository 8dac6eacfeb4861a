import { ParleyError } from '../../shared/index.ts';
import { cpuClock, MESSAGE_BRAIN_MS, type Think } from './bounds.ts';

/**
 * The brain time an account may use a minute: 6 s, a tenth of one core. An ordinary question takes
 * under 1 ms, so this is thousands of messages a minute, beyond any account's request limit; a
 * message that costs the most (MESSAGE_BRAIN_MS, say under slow action patterns) has 120 a minute.
 * So one account's patterns or messages take about a tenth of the engine's thread at most (twice
 * that across the turn of a minute, as with every fixed window), which every account shares
 * (issue 26).
 */
export const ACCOUNT_BRAIN_MS_PER_MINUTE = 6_000;

/**
 * The most accounts whose time is remembered within one minute, at about 100 B each: 1 MB. Past
 * it they are all forgotten, and count afresh: the limit fails open, as the rate limiters do
 * (shared/server/rate-limiter.ts), and accounts are made by the operator, not by visitors.
 */
export const BRAIN_ACCOUNTS_KEPT = 10_000;

const MINUTE_MS = 60_000;

/**
 * Counts the brain's time per account in fixed minutes of `clock` (ms, monotonic), and gives each
 * message its budget. The work itself is measured on `workClock` (CPU time by default: cpuClock). An account that spent its minute is refused, 429 `rate_limited` with
 * Retry-After, before anything of the message is kept: the BFF's outbox sends it again later with
 * the same message id, so nothing is lost.
 */
export class AccountBrainTime {
  readonly #clock: () => number;
  readonly #workClock: () => number;
  readonly #messageMs: number;
  readonly #perMinuteMs: number;
  readonly #accountsKept: number;
  #minute = Number.NEGATIVE_INFINITY;
  // Only this minute's accounts: a new minute starts with an empty map.
  #spent = new Map<string, number>();

  constructor({
    clock = () => performance.now(),
    workClock = cpuClock,
    messageMs = MESSAGE_BRAIN_MS,
    perMinuteMs = ACCOUNT_BRAIN_MS_PER_MINUTE,
    accountsKept = BRAIN_ACCOUNTS_KEPT,
  }: {
    clock?: () => number;
    workClock?: () => number;
    messageMs?: number;
    perMinuteMs?: number;
    accountsKept?: number;
  } = {}) {
    if (!(messageMs > 0) || !(perMinuteMs > 0))
      throw new TypeError(`messageMs and perMinuteMs must be positive, got ${messageMs} and ${perMinuteMs}`);
    if (!Number.isInteger(accountsKept) || accountsKept < 1)
      throw new TypeError(`accountsKept must be a positive integer, got ${accountsKept}`);
    this.#clock = clock;
    this.#workClock = workClock;
    this.#messageMs = messageMs;
    this.#perMinuteMs = perMinuteMs;
    this.#accountsKept = accountsKept;
  }

  /** How many accounts it remembers now (never more than `accountsKept`). */
  get size(): number {
    return this.#spent.size;
  }

  /** Refuses with 429 `rate_limited` (Retry-After: the end of the minute) when the account spent its brain time for this minute. */
  refuseWhenSpent(accountId: string): void {
    const at = this.#clock();
    if ((this.#spentIn(at).get(accountId) ?? 0) < this.#perMinuteMs) return;
    const waitS = Math.max(1, Math.ceil(((this.#minute + 1) * MINUTE_MS - at) / 1000));
    throw new ParleyError(
      'rate_limited',
      `This account's AI used its ${this.#perMinuteMs / 1000} s of thinking for this minute. Try again in ${waitS} s.`,
    ).retryAfter(waitS);
  }

  /**
   * The brain's stretches of work on one of the account's messages: they share MESSAGE_BRAIN_MS,
   * and their time is counted to the account. Refuses first when the account spent its minute.
   */
  forMessage(accountId: string): Think {
    this.refuseWhenSpent(accountId);
    let leftMs = this.#messageMs;
    return (work) => {
      const started = this.#workClock();
      try {
        return work({ clock: this.#workClock, deadline: started + leftMs });
      } catch (error) {
        // A length past what V8 allocates, met while reading this message (issue 26 met one in the
        // knowledge search), is the message's fault and will be again: a final 422, never a 500,
        // which the BFF would send again for ever.
        if (error instanceof RangeError)
          throw new ParleyError(
            'unprocessable',
            'The AI cannot read this message. Send it shorter, or in several messages.',
          );
        throw error;
      } finally {
        const tookMs = Math.max(0, this.#workClock() - started);
        leftMs -= tookMs;
        this.#charge(accountId, tookMs);
      }
    };
  }

  #charge(accountId: string, ms: number): void {
    const spent = this.#spentIn(this.#clock());
    if (!spent.has(accountId) && spent.size >= this.#accountsKept) spent.clear();
    spent.set(accountId, (spent.get(accountId) ?? 0) + ms);
  }

  /** This minute's time per account, at `at`. */
  #spentIn(at: number): Map<string, number> {
    const minute = Math.floor(at / MINUTE_MS);
    if (minute !== this.#minute) {
      this.#minute = minute;
      this.#spent = new Map();
    }
    return this.#spent;
  }
}
