import { createClient } from 'redis';
import type { RateDecision, RateLimiter, RollingDecision, RollingLimiter } from './rate-limiter.ts';

/**
 * Redis for several nodes (DESIGN "Many machines"): the rate limits every node must share, and the
 * Socket.IO adapter's streams. Each limit is one Lua script, so a count is read and moved in one
 * step however many nodes ask at once. Times come from the caller's clock, as with the in-memory
 * limiters, so both behave alike (and tests can move the clock). While Redis is down the limiters
 * let requests through (fail open) rather than fail them.
 */
export type Redis = ReturnType<typeof createClient>;

/**
 * Connects to `url`; errors after the first connection go to `onError`, and the client reconnects
 * in the background. While Redis is away its commands fail at once instead of queueing, so no
 * request waits on it.
 */
export async function openRedis(url: string, onError: (error: Error) => void): Promise<Redis> {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000) },
  });
  client.on('error', onError);
  await client.connect();
  return client;
}

/**
 * The client to give Socket.IO's Redis streams adapter. Its publishing must fail fast, because the
 * adapter delivers to this node's own sockets only after publishing settles (a queued publish would
 * hold every push until Redis is back). Its stream readers, the clients it duplicates, must wait
 * instead: a reader retries at once on failure and would spin while Redis is away.
 */
export function forStreamsAdapter(client: Redis): Redis {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'duplicate') return () => target.duplicate({ disableOfflineQueue: false });
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Closes a client: politely when connected, at once when Redis is away (QUIT would wait for it forever). */
export async function closeRedis(client: Redis): Promise<void> {
  if (!client.isOpen) return;
  if (client.isReady) await client.quit();
  else await client.disconnect();
}

/**
 * Runs a limiter's script; when Redis cannot answer, the request is let through (and `onError`
 * hears of it): a Redis outage must not take the chat down, and the limits are back as soon as it is.
 */
async function runScript(
  redis: Redis,
  script: string,
  keys: string[],
  args: string[],
  onError: (error: Error) => void,
): Promise<number[] | undefined> {
  try {
    return (await redis.eval(script, { keys, arguments: args })) as number[];
  } catch (error) {
    onError(error as Error);
    return undefined;
  }
}

// KEYS[1] the window's counter; ARGV: limit, time to live (ms). Refused requests are not counted.
const FIXED_WINDOW = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {0, count} end
count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {1, count}`;

// KEYS[1] the window's counter. Never below zero, and never brought back once it expired.
const GIVE_BACK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 1`;

/** Fixed one-minute windows aligned to the clock minute, shared by every node (see MemoryRateLimiter). */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #onError: (error: Error) => void;

  constructor(redis: Redis, prefix: string, onError: (error: Error) => void = () => undefined) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#onError = onError;
  }

  async consume(key: string, limit: number, now: Date): Promise<RateDecision> {
    const window = Math.floor(now.getTime() / 60_000);
    const resetS = (window + 1) * 60;
    const result = await runScript(
      this.#redis,
      FIXED_WINDOW,
      [`${this.#prefix}${key}:${window}`],
      [String(limit), '120000'],
      this.#onError,
    );
    if (!result) return { allowed: true, limit, remaining: limit, resetS };
    const [allowed, count] = result as [number, number];
    return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - count), resetS };
  }

  async refund(key: string, now: Date): Promise<void> {
    await runScript(
      this.#redis,
      GIVE_BACK,
      [`${this.#prefix}${key}:${Math.floor(now.getTime() / 60_000)}`],
      [],
      this.#onError,
    );
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
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {1, count + 1, 0, tonumber(first[2]) + window - now}`;

/** At most `limit` requests per key in any rolling window, shared by every node (see MemoryRollingLimiter). */
export class RedisRollingLimiter implements RollingLimiter {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #onError: (error: Error) => void;
  #sequence = 0;

  constructor(
    redis: Redis,
    prefix: string,
    limit: number,
    windowMs: number,
    onError: (error: Error) => void = () => undefined,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${limit}`);
    if (!(windowMs > 0)) throw new TypeError(`windowMs must be positive, got ${windowMs}`);
    this.#redis = redis;
    this.#prefix = prefix;
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#onError = onError;
  }

  async consume(key: string, now: Date): Promise<RollingDecision> {
    const at = now.getTime();
    // Members are unique per request, so two requests in one millisecond count twice.
    const member = `${at}:${process.pid}:${++this.#sequence}:${Math.random().toString(36).slice(2, 8)}`;
    const result = await runScript(
      this.#redis,
      SLIDING_LOG,
      [`${this.#prefix}${key}`],
      [String(at), String(this.#windowMs), String(this.#limit), member],
      this.#onError,
    );
    if (!result) return { allowed: true, limit: this.#limit, remaining: this.#limit, retryAfterMs: 0, resetMs: 0 };
    const [allowed, count, retryAfterMs, resetMs] = result as [number, number, number, number | undefined];
    const remaining = Math.max(0, this.#limit - count);
    return { allowed: allowed === 1, limit: this.#limit, remaining, retryAfterMs, resetMs: resetMs ?? retryAfterMs };
  }
}
