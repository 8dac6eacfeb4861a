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
 * A key at its limit is never forgotten before its window lets it send again (issue 33: 100,000
 * fresh addresses used to push out, and so release, every address that was refused). Only keys
 * under their limit are forgotten, least recently used first, and such a key starting afresh can
 * at most double what it could send anyway. When keys at their limit fill the whole cap (an
 * attacker with 100,000 addresses, each sending its full limit inside one window), a new key is
 * not remembered until some of them age out: it fails open, never closed, because refusing keys
 * the limiter has no room for would let whoever holds enough addresses lock every new visitor
 * out, and no cap at all lets them exhaust the memory of the process.
 */
export const MEMORY_LIMITER_MAX_KEYS = 100_000;

/** Two generations of keys, swapped in O(1): a key in use moves into the newer one, the older one is dropped whole. */
class Generations<V> {
  newer = new Map<string, V>();
  older = new Map<string, V>();
  newerSince = Number.NEGATIVE_INFINITY;

  get size(): number {
    return this.newer.size + this.older.size;
  }

  /** Drops the older generation (both when `both`), and starts a new one at `at`. */
  rotate(at: number, both: boolean): void {
    this.older = both ? new Map() : this.newer;
    this.newer = new Map();
    this.newerSince = at;
  }

  /** Rotates when the newer generation is `lifetimeMs` old: what is dropped was last used more than `lifetimeMs` ago. */
  age(at: number, lifetimeMs: number): void {
    if (at - this.newerSince >= lifetimeMs) this.rotate(at, at - this.newerSince >= 2 * lifetimeMs);
  }

  /** Takes the key's value out of both generations. */
  take(key: string): V | undefined {
    const value = this.newer.get(key) ?? this.older.get(key);
    this.newer.delete(key);
    this.older.delete(key);
    return value;
  }
}

/**
 * The keys a limiter remembers, every step O(1), nothing ever walking the keys. (A Map kept in
 * order of use, trimmed from its oldest end, looks simpler, but V8 leaves a hole at the start of
 * the map for each key deleted there, and finding the oldest key walks them: issue 12.)
 *
 * Keys under their limit live in `#recent`: when its newer generation holds half the room left,
 * the older one is dropped. A key at its limit is moved to `#held` (`hold`), whose generations
 * only age: a key held at time t is dropped only after t + `lifetimeMs`, when its window (which
 * ends at most `lifetimeMs` after t) has let it send again. Keys held take room from `#recent`.
 */
class RecentKeys<V> {
  readonly #recent = new Generations<V>();
  readonly #held = new Generations<V>();
  readonly #maxKeys: number;
  readonly #lifetimeMs: number;

  constructor(maxKeys: number, lifetimeMs: number) {
    if (!Number.isInteger(maxKeys) || maxKeys < 2)
      throw new TypeError(`maxKeys must be an integer of at least 2, got ${maxKeys}`);
    this.#maxKeys = maxKeys;
    this.#lifetimeMs = lifetimeMs;
  }

  get size(): number {
    return this.#recent.size + this.#held.size;
  }

  /** The key's value, which is now the most recently used (and no longer held); undefined when it is not remembered. */
  get(key: string, at: number): V | undefined {
    this.#recent.age(at, this.#lifetimeMs);
    this.#held.age(at, this.#lifetimeMs);
    const value = this.#recent.take(key) ?? this.#held.take(key);
    if (value !== undefined) this.set(key, value, at);
    return value;
  }

  /** Remembers the key's value under its limit; false when keys at their limit fill the whole cap (see MEMORY_LIMITER_MAX_KEYS). */
  set(key: string, value: V, at: number): boolean {
    const recent = this.#recent;
    if (!recent.newer.has(key)) {
      const room = this.#maxKeys - this.#held.size;
      if (recent.newer.size >= Math.floor(room / 2) || this.size >= this.#maxKeys) recent.rotate(at, false);
      if (this.size >= this.#maxKeys) recent.rotate(at, true);
      if (this.size >= this.#maxKeys) return false;
    }
    recent.newer.set(key, value);
    return true;
  }

  /** Keeps the key, now at its limit, until its window is over (it must have been `get` or `set` at `at`). */
  hold(key: string, at: number): void {
    const value = this.#recent.take(key);
    if (value === undefined) return;
    this.#held.age(at, this.#lifetimeMs);
    this.#held.newer.set(key, value);
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
    if (entry.count >= limit) {
      this.#windows.hold(key, at);
      return { allowed: false, limit, remaining: 0, resetS };
    }
    entry.count++;
    if (entry.count >= limit) this.#windows.hold(key, at);
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
  consume(key: string, now: Date): Promise<RollingDecision>;
}

/** A rolling-window decision; `resetMs`: how long until the oldest logged request ages out (`X-RateLimit-Reset`). */
export interface RollingDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterMs: number;
  resetMs: number;
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

  async consume(key: string, now: Date): Promise<RollingDecision> {
    const at = now.getTime();
    let times = this.#log.get(key, at);
    if (!times) this.#log.set(key, (times = []), at);
    while (times.length > 0 && times[0]! <= at - this.#windowMs) times.shift();
    if (times.length >= this.#limit) {
      this.#log.hold(key, at);
      const retryAfterMs = times[0]! + this.#windowMs - at;
      return { allowed: false, limit: this.#limit, remaining: 0, retryAfterMs, resetMs: retryAfterMs };
    }
    // In time order even if the clock stepped back, so the first time is always the oldest.
    let index = times.length;
    while (index > 0 && times[index - 1]! > at) index--;
    times.splice(index, 0, at);
    if (times.length >= this.#limit) this.#log.hold(key, at);
    const resetMs = times[0]! + this.#windowMs - at;
    return { allowed: true, limit: this.#limit, remaining: this.#limit - times.length, retryAfterMs: 0, resetMs };
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
  /** What a refusal carries in `error.details`. */
  details?: unknown,
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
    details,
  );
}
