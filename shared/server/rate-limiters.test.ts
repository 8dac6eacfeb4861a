import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../ids.ts';
import { MemoryRateLimiter, MemoryRollingLimiter, type RateLimiter, type RollingLimiter } from './rate-limiter.ts';
import { openRedis, RedisRateLimiter, RedisRollingLimiter, type Redis } from './redis.ts';

/**
 * The limiters' rules, held by the in-memory ones (one node) and the Redis ones (many nodes) alike,
 * against the machine's real Redis (REDIS_TEST_URL, default 127.0.0.1:6379).
 */
const REDIS_URL = process.env['REDIS_TEST_URL'] ?? 'redis://127.0.0.1:6379';
let redis: Redis;
const prefix = `test:${randomToken(10)}:`;

beforeAll(async () => {
  redis = await openRedis(REDIS_URL, () => undefined);
});
afterAll(async () => {
  if (!redis) return;
  for await (const key of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) await redis.del(key);
  await redis.quit();
});

const at = (iso: string) => new Date(iso);

describe.each([
  ['in memory', () => new MemoryRateLimiter() as RateLimiter],
  ['in Redis', () => new RedisRateLimiter(redis, `${prefix}fixed:${randomToken(6)}:`) as RateLimiter],
])('the fixed-window limiter %s', (_name, make) => {
  it('allows exactly `limit` requests in a clock minute, counting Remaining down to 0, then refuses until the next minute', async () => {
    const limiter = make();
    const decisions = [];
    for (let index = 0; index < 4; index++) decisions.push(await limiter.consume('key', 3, at('2026-11-22T10:00:10Z')));
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[3]!.resetS).toBe(Date.parse('2026-11-22T10:01:00Z') / 1000);
    expect((await limiter.consume('key', 3, at('2026-11-22T10:00:59.999Z'))).allowed).toBe(false);
    expect(await limiter.consume('key', 3, at('2026-11-22T10:01:00Z'))).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('counts each key on its own, does not count refused requests, and refuses everything with a limit of 0', async () => {
    const limiter = make();
    const minute = at('2026-11-22T11:00:00Z');
    expect((await limiter.consume('a', 1, minute)).allowed).toBe(true);
    expect((await limiter.consume('a', 1, minute)).allowed).toBe(false);
    expect((await limiter.consume('b', 1, minute)).allowed).toBe(true);
    // A raised limit lets the key on at once: the refused request was not counted.
    expect(await limiter.consume('a', 2, minute)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.consume('c', 0, minute)).allowed).toBe(false);
  });

  it('takes a request back within its minute, never below none, and leaves a minute that has ended as it was', async () => {
    const limiter = make();
    const minute = at('2026-11-22T12:00:05Z');
    expect((await limiter.consume('r', 2, minute)).allowed).toBe(true);
    expect((await limiter.consume('r', 2, minute)).allowed).toBe(true);
    expect((await limiter.consume('r', 2, minute)).allowed).toBe(false);
    await limiter.refund('r', minute);
    expect(await limiter.consume('r', 2, minute)).toMatchObject({ allowed: true, remaining: 0 });
    // Given back more often than taken: the count stops at none, so the limit still holds.
    for (let time = 0; time < 4; time++) await limiter.refund('r', minute);
    expect((await limiter.consume('r', 2, minute)).allowed).toBe(true);
    expect((await limiter.consume('r', 2, minute)).allowed).toBe(true);
    expect((await limiter.consume('r', 2, minute)).allowed).toBe(false);
    // A refund in the next minute does not reach back into this one, nor give the new one extra.
    await limiter.refund('r', at('2026-11-22T12:01:01Z'));
    expect((await limiter.consume('r', 2, minute)).allowed).toBe(false);
    expect((await limiter.consume('r', 2, at('2026-11-22T12:01:02Z'))).remaining).toBe(1);
  });
});

describe.each([
  ['in memory', () => new MemoryRollingLimiter(3, 3_600_000) as RollingLimiter],
  [
    'in Redis',
    () => new RedisRollingLimiter(redis, `${prefix}rolling:${randomToken(6)}:`, 3, 3_600_000) as RollingLimiter,
  ],
])('the rolling limiter %s', (_name, make) => {
  it('allows `limit` requests in any rolling hour and says when the oldest ages out', async () => {
    const limiter = make();
    expect((await limiter.consume('addr', at('2026-11-22T10:10:00Z'))).allowed).toBe(true);
    expect((await limiter.consume('addr', at('2026-11-22T10:59:00Z'))).allowed).toBe(true);
    expect(await limiter.consume('addr', at('2026-11-22T10:59:00Z'))).toMatchObject({ allowed: true, remaining: 0 });
    // Past the clock hour, but not past the rolling one.
    const refused = await limiter.consume('addr', at('2026-11-22T11:01:00Z'));
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 9 * 60_000 });
    expect((await limiter.consume('other', at('2026-11-22T11:01:00Z'))).allowed).toBe(true);
    // The oldest ages out: exactly one more goes through (the refused one was not logged).
    expect((await limiter.consume('addr', at('2026-11-22T11:10:00.001Z'))).allowed).toBe(true);
    expect((await limiter.consume('addr', at('2026-11-22T11:10:00.002Z'))).allowed).toBe(false);
  });

  it('counts two requests in the same millisecond twice', async () => {
    const limiter = make();
    const moment = at('2026-11-22T12:00:00Z');
    const decisions = await Promise.all([1, 2, 3, 4].map(() => limiter.consume('same-ms', moment)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(3);
  });
});

describe('the Redis limiters across nodes', () => {
  it('share one fixed-window count between nodes: of 50 requests at once on two nodes, exactly the limit pass', async () => {
    const shared = `${prefix}nodes-fixed:`;
    const nodes = [new RedisRateLimiter(redis, shared), new RedisRateLimiter(redis, shared)];
    const minute = at('2026-11-22T13:00:00Z');
    const decisions = await Promise.all(
      Array.from({ length: 50 }, (_, index) => nodes[index % 2]!.consume('site', 20, minute)),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(20);
  });

  it('share one rolling log between nodes: the 21st request within the hour is refused whichever node takes it', async () => {
    const shared = `${prefix}nodes-rolling:`;
    const nodes = [
      new RedisRollingLimiter(redis, shared, 20, 3_600_000),
      new RedisRollingLimiter(redis, shared, 20, 3_600_000),
    ];
    const decisions = await Promise.all(
      Array.from({ length: 30 }, (_, index) => nodes[index % 2]!.consume('203.0.113.9', at('2026-11-22T13:30:00Z'))),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(20);
  });

  it('refuses a limiter with a nonsensical limit or window', () => {
    expect(() => new RedisRollingLimiter(redis, prefix, 0, 1000)).toThrow(TypeError);
    expect(() => new RedisRollingLimiter(redis, prefix, 5, 0)).toThrow(TypeError);
  });
});
