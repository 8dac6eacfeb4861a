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
  /**
   * Gives back one request that `consume` let through at `now`, when what it was counted for did
   * not happen after all (a retry found its first copy kept). A window that has ended is left as it was.
   */
  refund(key: string, now: Date): Promise<void>;
}

/**
 * The most keys an in-memory limiter remembers (addresses, customers, API keys). At about 150 B a
 * key for the fixed window and 300 B for a rolling log of 20, that is 15 to 30 MB at most, and it
 * is far more than one node sees in a window in normal use (several nodes share Redis instead).
 *
 * At the cap a limiter forgets the keys used least recently, and a forgotten key that was still
 * over its limit starts counting afresh: it fails open, never closed. That is the safe way round.
 * To push a key out, a client must bring half the cap of other keys after that key's last
 * request, and each of those keys already has a full limit of its own, so forgetting at most
 * doubles what such a client could send anyway; a key that keeps sending is kept, because every
 * request marks it used. Failing closed (refusing keys the limiter has no room for) would let
 * whoever holds enough addresses lock every new visitor out, and no cap at all lets them exhaust
 * the memory of the process: both stop every chat, which the limits are there to prevent.
 */
export const MEMORY_LIMITER_MAX_KEYS = 100_000;

/**
 * The keys a limiter remembers, in two generations so that every step is O(1): a key in use is
 * moved into the newer one; when the newer one holds half the cap, or is `lifetimeMs` old, the
 * older one is dropped whole and the newer one takes its place. Nothing ever walks the keys.
 * (A Map kept in order of use, trimmed from its oldest end, looks simpler, but V8 leaves a hole at
 * the start of the map for each key deleted there, and finding the oldest key walks them: issue 12.)
 * A key is forgotten only when it was not used for `lifetimeMs`, or for half the cap of other keys.
 */
class RecentKeys<V> {
  #newer = new Map<string, V>();
  #older = new Map<string, V>();
  #newerSince = Number.NEGATIVE_INFINITY;
  readonly #half: number;
  readonly #lifetimeMs: number;

  constructor(maxKeys: number, lifetimeMs: number) {
    if (!Number.isInteger(maxKeys) || maxKeys < 2)
      throw new TypeError(`maxKeys must be an integer of at least 2, got ${maxKeys}`);
    this.#half = Math.floor(maxKeys / 2);
    this.#lifetimeMs = lifetimeMs;
  }

  get size(): number {
    return this.#newer.size + this.#older.size;
  }

  /** The key's value, which is now the most recently used; undefined when it is not remembered. */
  get(key: string, at: number): V | undefined {
    if (at - this.#newerSince >= this.#lifetimeMs) this.#rotate(at, at - this.#newerSince >= 2 * this.#lifetimeMs);
    const value = this.#newer.get(key);
    if (value !== undefined) return value;
    const older = this.#older.get(key);
    if (older !== undefined) {
      this.#older.delete(key);
      this.set(key, older, at);
    }
    return older;
  }

  set(key: string, value: V, at: number): void {
    if (this.#newer.size >= this.#half && !this.#newer.has(key)) this.#rotate(at, false);
    this.#newer.set(key, value);
  }

  #rotate(at: number, both: boolean): void {
    this.#older = both ? new Map() : this.#newer;
    this.#newer = new Map();
    this.#newerSince = at;
  }
}

export class MemoryRateLimiter implements RateLimiter {
  // A count more than a minute old belongs to an earlier window, so forgetting it changes nothing.
  readonly #windows: RecentKeys<{ window: number; count: number }>;

  /** `maxKeys`: see MEMORY_LIMITER_MAX_KEYS. */
  constructor({ maxKeys = MEMORY_LIMITER_MAX_KEYS }: { maxKeys?: number } = {}) {
    this.#windows = new RecentKeys(maxKeys, 60_000);
  }

  /** How many keys it remembers now (never more than `maxKeys`). */
  get size(): number {
    return this.#windows.size;
  }

  async consume(key: string, limit: number, now: Date): Promise<RateDecision> {
    const at = now.getTime();
    const window = Math.floor(at / 60_000);
    const resetS = (window + 1) * 60;
    let entry = this.#windows.get(key, at);
    if (!entry || entry.window !== window) {
      entry = { window, count: 0 };
      this.#windows.set(key, entry, at);
    }
    if (entry.count >= limit) return { allowed: false, limit, remaining: 0, resetS };
    entry.count++;
    return { allowed: true, limit, remaining: limit - entry.count, resetS };
  }

  async refund(key: string, now: Date): Promise<void> {
    const entry = this.#windows.get(key, now.getTime());
    if (entry && entry.window === Math.floor(now.getTime() / 60_000) && entry.count > 0) entry.count--;
  }
}

/**
 * Allows at most `limit` requests per key in any rolling window of `windowMs` (a sliding log:
 * the times of the requests it let through). A refused request is not logged, so it does not push
 * the window on. `retryAfterMs` says when the oldest logged request ages out.
 */
export interface RollingLimiter {
  consume(
    key: string,
    now: Date,
  ): Promise<{ allowed: boolean; limit: number; remaining: number; retryAfterMs: number }>;
}

export class MemoryRollingLimiter implements RollingLimiter {
  // Each key's log holds at most `limit` times, oldest first; a key unused for a window has only
  // times that aged out, so forgetting it changes nothing.
  readonly #log: RecentKeys<number[]>;
  readonly #limit: number;
  readonly #windowMs: number;

  /** `maxKeys`: see MEMORY_LIMITER_MAX_KEYS. */
  constructor(limit: number, windowMs: number, { maxKeys = MEMORY_LIMITER_MAX_KEYS }: { maxKeys?: number } = {}) {
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${limit}`);
    if (!(windowMs > 0)) throw new TypeError(`windowMs must be positive, got ${windowMs}`);
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#log = new RecentKeys(maxKeys, windowMs);
  }

  /** How many keys it remembers now (never more than `maxKeys`). */
  get size(): number {
    return this.#log.size;
  }

  async consume(
    key: string,
    now: Date,
  ): Promise<{ allowed: boolean; limit: number; remaining: number; retryAfterMs: number }> {
    const at = now.getTime();
    let times = this.#log.get(key, at);
    if (!times) this.#log.set(key, (times = []), at);
    while (times.length > 0 && times[0]! <= at - this.#windowMs) times.shift();
    if (times.length >= this.#limit) {
      return { allowed: false, limit: this.#limit, remaining: 0, retryAfterMs: times[0]! + this.#windowMs - at };
    }
    // In time order even if the clock stepped back, so the first time is always the oldest.
    let index = times.length;
    while (index > 0 && times[index - 1]! > at) index--;
    times.splice(index, 0, at);
    return { allowed: true, limit: this.#limit, remaining: this.#limit - times.length, retryAfterMs: 0 };
  }
}

/**
 * Puts a fixed-window decision on the answer (`X-RateLimit-Limit`, `-Remaining`, `-Reset`) and,
 * when the request is over the limit, refuses it with 429 and `Retry-After` before anything runs.
 */
export function enforceRateDecision(
  ctx: { set(name: string, value: string): void },
  decision: RateDecision,
  at: Date,
  who = 'This key',
): void {
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  ctx.set('X-RateLimit-Reset', String(decision.resetS));
  if (decision.allowed) return;
  const retryAfter = Math.max(1, decision.resetS - Math.floor(at.getTime() / 1000));
  ctx.set('Retry-After', String(retryAfter));
  throw new ParleyError(
    'rate_limited',
    `${who} may make ${decision.limit} requests a minute. Try again in ${retryAfter} s.`,
  );
}
