import { ParleyError } from '../errors.ts';

/**
 * Request counters shared by the engine and the BFF. The in-memory stores serve one process; a
 * shared store (Redis) takes their place when several nodes serve one account or site.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the current window ends. */
  resetS: number;
}

/**
 * Counts requests per key in fixed one-minute windows, aligned to the clock minute, so that
 * `X-RateLimit-Reset` is the end of the minute.
 */
export interface RateLimiter {
  consume(key: string, limit: number, now: Date): Promise<RateDecision>;
}

export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { window: number; count: number }>();

  async consume(key: string, limit: number, now: Date): Promise<RateDecision> {
    const window = Math.floor(now.getTime() / 60_000);
    const resetS = (window + 1) * 60;
    let entry = this.#windows.get(key);
    if (!entry || entry.window !== window) {
      if (this.#windows.size > 10_000) this.#prune(window);
      entry = { window, count: 0 };
      this.#windows.set(key, entry);
    }
    if (entry.count >= limit) return { allowed: false, limit, remaining: 0, resetS };
    entry.count++;
    return { allowed: true, limit, remaining: limit - entry.count, resetS };
  }

  #prune(current: number): void {
    for (const [key, entry] of this.#windows) if (entry.window < current) this.#windows.delete(key);
  }
}


/**
 * Allows at most `limit` requests per key in any rolling window of `windowMs` (a sliding log:
 * the times of the requests it let through). A refused request is not logged, so it does not push
 * the window on. `retryAfterMs` says when the oldest logged request ages out.
 */
export interface RollingLimiter {
  consume(key: string, now: Date): Promise<{ allowed: boolean; limit: number; remaining: number; retryAfterMs: number }>;
}

export class MemoryRollingLimiter implements RollingLimiter {
  readonly #log = new Map<string, number[]>();
  readonly #limit: number;
  readonly #windowMs: number;

  constructor(limit: number, windowMs: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${limit}`);
    if (!(windowMs > 0)) throw new TypeError(`windowMs must be positive, got ${windowMs}`);
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  async consume(key: string, now: Date): Promise<{ allowed: boolean; limit: number; remaining: number; retryAfterMs: number }> {
    const at = now.getTime();
    const since = at - this.#windowMs;
    const times = (this.#log.get(key) ?? []).filter((time) => time > since);
    if (times.length >= this.#limit) {
      this.#log.set(key, times);
      return { allowed: false, limit: this.#limit, remaining: 0, retryAfterMs: times[0]! + this.#windowMs - at };
    }
    times.push(at);
    this.#log.set(key, times);
    if (this.#log.size > 50_000) this.#prune(since);
    return { allowed: true, limit: this.#limit, remaining: this.#limit - times.length, retryAfterMs: 0 };
  }

  #prune(since: number): void {
    for (const [key, times] of this.#log) if ((times.at(-1) ?? 0) <= since) this.#log.delete(key);
  }
}

/**
 * Puts a fixed-window decision on the answer (`X-RateLimit-Limit`, `-Remaining`, `-Reset`) and,
 * when the request is over the limit, refuses it with 429 and `Retry-After` before anything runs.
 */
export function enforceRateDecision(ctx: { set(name: string, value: string): void }, decision: RateDecision, at: Date, who = 'This key'): void {
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  ctx.set('X-RateLimit-Reset', String(decision.resetS));
  if (decision.allowed) return;
  const retryAfter = Math.max(1, decision.resetS - Math.floor(at.getTime() / 1000));
  ctx.set('Retry-After', String(retryAfter));
  throw new ParleyError('rate_limited', `${who} may make ${decision.limit} requests a minute. Try again in ${retryAfter} s.`);
}
