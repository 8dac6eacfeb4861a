import { createClient } from 'redis';
import type { RateDecision, RateLimiter, RollingLimiter } from './rate-limiter.ts';

/**
 * Redis for several nodes (DESIGN "Many machines"): the rate limits every node must share, and the
 * Socket.IO adapter's streams. Each limit is one Lua script, so a count is read and moved in one
 * step however many nodes ask at once. Times come from the caller's clock, as with the in-memory
 * limiters, so both behave alike (and tests can move the clock).
 */
export type Redis = ReturnType<typeof createClient>;

/** Connects to `url`; errors after the first connection are logged by the caller's `onError`. */
export async function openRedis(url: string, onError: (error: Error) => void): Promise<Redis> {
  const client = createClient({ url });
  client.on('error', onError);
  await client.connect();
  return client;
}

// KEYS[1] the window's counter; ARGV: limit, time to live (ms). Refused requests are not counted.
const FIXED_WINDOW = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {0, count} end
count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {1, count}`;

/** Fixed one-minute windows aligned to the clock minute, shared by every node (see MemoryRateLimiter). */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async consume(key: string, limit: number, now: Date): Promise<RateDecision> {
    const window = Math.floor(now.getTime() / 60_000);
    const resetS = (window + 1) * 60;
    const [allowed, count] = (await this.#redis.eval(FIXED_WINDOW, { keys: [`${this.#prefix}${key}:${window}`], arguments: [String(limit), '120000'] })) as [number, number];
    return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - count), resetS };
  }
}

// KEYS[1] the log (a sorted set of request times); ARGV: now (ms), window (ms), limit, a unique member.
const SLIDING_LOG = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, count, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, count + 1, 0}`;

/** At most `limit` requests per key in any rolling window, shared by every node (see MemoryRollingLimiter). */
export class RedisRollingLimiter implements RollingLimiter {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #limit: number;
  readonly #windowMs: number;
  #sequence = 0;

  constructor(redis: Redis, prefix: string, limit: number, windowMs: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${limit}`);
    if (!(windowMs > 0)) throw new TypeError(`windowMs must be positive, got ${windowMs}`);
    this.#redis = redis;
    this.#prefix = prefix;
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  async consume(key: string, now: Date): Promise<{ allowed: boolean; limit: number; remaining: number; retryAfterMs: number }> {
    const at = now.getTime();
    // Members are unique per request, so two requests in one millisecond count twice.
    const member = `${at}:${process.pid}:${++this.#sequence}:${Math.random().toString(36).slice(2, 8)}`;
    const [allowed, count, retryAfterMs] = (await this.#redis.eval(SLIDING_LOG, {
      keys: [`${this.#prefix}${key}`],
      arguments: [String(at), String(this.#windowMs), String(this.#limit), member],
    })) as [number, number, number];
    return { allowed: allowed === 1, limit: this.#limit, remaining: Math.max(0, this.#limit - count), retryAfterMs };
  }
}
