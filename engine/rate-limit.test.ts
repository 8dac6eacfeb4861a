import { createServer } from 'node:http';
import type { Environment } from '../shared/environment.ts';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSql } from '../shared/server/index.ts';
import { closeServer, DRIVERS, logger, request, startEngine, type TestEngine } from '../test/stack.ts';
import { createEngine } from './app.ts';
import {
  createAccount,
  DEFAULT_REQUESTS_PER_MINUTE,
  issueApiKey,
  MemoryRateLimiter,
  setAccountRateLimit,
} from './index.ts';
import { ADDRESS_REQUESTS_PER_MINUTE } from './rate-limit.ts';

/** Unix seconds of `iso`. */
const unixS = (iso: string) => Date.parse(iso) / 1000;

describe('MemoryRateLimiter', () => {
  it('allows exactly `limit` requests in a clock minute, counting Remaining down to 0, then refuses', async () => {
    const limiter = new MemoryRateLimiter();
    const at = new Date('2026-01-01T10:00:30Z');
    const decisions = [];
    for (let index = 0; index < 4; index++) decisions.push(await limiter.consume('key-a', 3, at));
    expect(decisions).toEqual([
      { allowed: true, limit: 3, remaining: 2, resetS: unixS('2026-01-01T10:01:00Z') },
      { allowed: true, limit: 3, remaining: 1, resetS: unixS('2026-01-01T10:01:00Z') },
      { allowed: true, limit: 3, remaining: 0, resetS: unixS('2026-01-01T10:01:00Z') },
      { allowed: false, limit: 3, remaining: 0, resetS: unixS('2026-01-01T10:01:00Z') },
    ]);
  });

  it('aligns windows to the clock minute: the last millisecond of a minute is still in it, the next starts afresh', async () => {
    const limiter = new MemoryRateLimiter();
    expect(await limiter.consume('key-a', 1, new Date('2026-01-01T10:00:00.000Z'))).toMatchObject({
      allowed: true,
      remaining: 0,
    });
    const lastMs = await limiter.consume('key-a', 1, new Date('2026-01-01T10:00:59.999Z'));
    expect(lastMs).toEqual({ allowed: false, limit: 1, remaining: 0, resetS: unixS('2026-01-01T10:01:00Z') });
    const nextMinute = await limiter.consume('key-a', 1, new Date('2026-01-01T10:01:00.000Z'));
    expect(nextMinute).toEqual({ allowed: true, limit: 1, remaining: 0, resetS: unixS('2026-01-01T10:02:00Z') });
  });

  it('does not carry a refused minute into a later one, even after a gap of several minutes', async () => {
    const limiter = new MemoryRateLimiter();
    const at = new Date('2026-01-01T10:00:10Z');
    await limiter.consume('key-a', 2, at);
    await limiter.consume('key-a', 2, at);
    expect((await limiter.consume('key-a', 2, at)).allowed).toBe(false);
    expect(await limiter.consume('key-a', 2, new Date('2026-01-01T10:07:10Z'))).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      resetS: unixS('2026-01-01T10:08:00Z'),
    });
  });

  it('counts each key on its own', async () => {
    const limiter = new MemoryRateLimiter();
    const at = new Date('2026-01-01T10:00:10Z');
    await limiter.consume('key-a', 1, at);
    expect((await limiter.consume('key-a', 1, at)).allowed).toBe(false);
    expect(await limiter.consume('key-b', 1, at)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('does not count refused requests, so a raised limit lets the key on at once', async () => {
    const limiter = new MemoryRateLimiter();
    const at = new Date('2026-01-01T10:00:10Z');
    await limiter.consume('key-a', 1, at);
    for (let index = 0; index < 5; index++) expect((await limiter.consume('key-a', 1, at)).allowed).toBe(false);
    // One request was counted, not six: with a limit of 2 there is exactly one more.
    expect(await limiter.consume('key-a', 2, at)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.consume('key-a', 2, at)).allowed).toBe(false);
  });

  it('refuses everything with a limit of 0', async () => {
    const limiter = new MemoryRateLimiter();
    expect(await limiter.consume('key-a', 0, new Date('2026-01-01T10:00:10Z'))).toMatchObject({
      allowed: false,
      limit: 0,
      remaining: 0,
    });
  });

  it('forgets the windows of a finished minute among many keys, and keeps every count of the current minute', async () => {
    const limiter = new MemoryRateLimiter();
    const old = new Date('2026-01-01T10:00:10Z');
    const later = new Date('2026-01-01T10:01:10Z');
    for (let index = 0; index <= 10_001; index++) await limiter.consume(`old-${index}`, 1, old);
    // A new minute leaves the old windows behind; this one is current and must be kept.
    expect(await limiter.consume('current', 1, later)).toMatchObject({ allowed: true, remaining: 0 });
    for (let index = 0; index <= 10_001; index++) await limiter.consume(`new-${index}`, 1, later);
    // Many more keys within the same minute: none of them may push 'current' out.
    expect((await limiter.consume('new-0', 1, later)).allowed).toBe(false);
    expect((await limiter.consume('current', 1, later)).allowed).toBe(false);
    expect(await limiter.consume('old-0', 1, later)).toMatchObject({ allowed: true, remaining: 0 });
  });
});

describe.each(DRIVERS)('rate limits over HTTP on $name', (driver) => {
  let engine: TestEngine;
  let now = new Date('2026-01-01T10:00:15.250Z');
  const call = (token: string, path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token, ...options });
  const feed = async (token: string) =>
    (await call(token, '/v1/events?limit=1000')).body.events as { id: string; type: string; conversation_id: string }[];
  const limitHeaders = (response: { headers: Headers }) => ({
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
  });
  /** A fresh account with one key of `environment`, at its default limits. */
  const freshKey = async (environment: Environment = 'sandbox') => {
    const accountId = await createAccount(engine.sql, 'Rate-limited shop');
    const { id, key } = await issueApiKey(engine.sql, accountId, environment);
    return { accountId, keyId: id, key };
  };

  beforeAll(async () => {
    engine = await startEngine(driver, () => now);
  });
  afterAll(() => engine?.stop());

  it('lets a sandbox key make 60 requests a minute, refuses the 61st with 429 and Retry-After, and lets it on again the next minute', async () => {
    now = new Date('2026-01-01T10:00:15.250Z');
    const { key } = await freshKey();
    const reset = String(unixS('2026-01-01T10:01:00Z'));
    for (let count = 1; count <= 59; count++) {
      const response = await call(key, '/v1/me');
      expect(response.status).toBe(200);
      expect(limitHeaders(response)).toEqual({ limit: '60', remaining: String(60 - count), reset });
    }
    const sixtieth = await call(key, '/v1/me');
    expect(sixtieth.status).toBe(200);
    expect(limitHeaders(sixtieth)).toEqual({ limit: '60', remaining: '0', reset });
    expect(sixtieth.headers.get('retry-after')).toBeNull();

    const sixtyFirst = await call(key, '/v1/me');
    expect(sixtyFirst.status).toBe(429);
    expect(sixtyFirst.body).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(limitHeaders(sixtyFirst)).toEqual({ limit: '60', remaining: '0', reset });
    // 10:00:15.250 leaves 44.75 s of the minute: Retry-After is the whole seconds to wait, 45.
    expect(sixtyFirst.headers.get('retry-after')).toBe('45');

    // Later in the same minute: still refused, and Retry-After counts down with the clock.
    now = new Date('2026-01-01T10:00:59.000Z');
    const lastSecond = await call(key, '/v1/me');
    expect(lastSecond.status).toBe(429);
    expect(lastSecond.headers.get('retry-after')).toBe('1');

    now = new Date('2026-01-01T10:01:00.000Z');
    const nextMinute = await call(key, '/v1/me');
    expect(nextMinute.status).toBe(200);
    expect(limitHeaders(nextMinute)).toEqual({
      limit: '60',
      remaining: '59',
      reset: String(unixS('2026-01-01T10:02:00Z')),
    });
    expect(nextMinute.headers.get('retry-after')).toBeNull();
  });

  it('puts X-RateLimit-Limit, -Remaining and -Reset on every answer of a keyed route, errors included', async () => {
    now = new Date('2026-01-01T11:30:20Z');
    const { accountId, key } = await freshKey();
    await setAccountRateLimit(engine.sql, accountId, 'sandbox', 4);
    const reset = String(unixS('2026-01-01T11:31:00Z'));

    const ok = await call(key, '/v1/me');
    expect(ok.status).toBe(200);
    expect(limitHeaders(ok)).toEqual({ limit: '4', remaining: '3', reset });

    const invalid = await call(key, '/v1/conversations', { body: {} });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_request');
    expect(limitHeaders(invalid)).toEqual({ limit: '4', remaining: '2', reset });

    const missing = await call(key, '/v1/conversations/cnv_unknown0000000000000/messages', { body: { text: 'hi' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect(limitHeaders(missing)).toEqual({ limit: '4', remaining: '1', reset });

    const created = await call(key, '/v1/conversations', { body: { customer_ref: 'headers' } });
    expect(created.status).toBe(201);
    expect(limitHeaders(created)).toEqual({ limit: '4', remaining: '0', reset });

    const refused = await call(key, '/v1/events');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(limitHeaders(refused)).toEqual({ limit: '4', remaining: '0', reset });
    expect(refused.headers.get('retry-after')).toBe('40');
  });

  it('changes nothing when it refuses a request: a POST /v1/conversations answered 429 adds no event and keeps no Idempotency-Key', async () => {
    now = new Date('2026-01-01T12:00:05Z');
    const { accountId, key } = await freshKey();
    await setAccountRateLimit(engine.sql, accountId, 'sandbox', 2);
    const before = await feed(key);
    const opened = await call(key, '/v1/conversations', { body: { customer_ref: 'first' } });
    expect(opened.status).toBe(201);

    const refused = await call(key, '/v1/conversations', {
      body: { customer_ref: 'refused' },
      headers: { 'idempotency-key': 'refused-open' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');

    now = new Date('2026-01-01T12:01:05Z');
    const after = await feed(key);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toMatchObject({ type: 'conversation.opened', conversation_id: opened.body.id });
    expect(after.filter((event) => event.type === 'conversation.opened')).toHaveLength(before.length + 1);

    // Had the refused request claimed its Idempotency-Key, another body with it would be a 422.
    const retried = await call(key, '/v1/conversations', {
      body: { customer_ref: 'another' },
      headers: { 'idempotency-key': 'refused-open' },
    });
    expect(retried.status).toBe(201);
    expect(retried.body.customer_ref).toBe('another');
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('gives live keys 300 requests a minute and sandbox keys 60 by default, as /v1/me shows', async () => {
    now = new Date('2026-01-01T13:00:00Z');
    expect(DEFAULT_REQUESTS_PER_MINUTE).toEqual({ live: 300, sandbox: 60 });
    const accountId = await createAccount(engine.sql, 'Two environments');
    const { key: sandbox } = await issueApiKey(engine.sql, accountId, 'sandbox');
    const { key: live } = await issueApiKey(engine.sql, accountId, 'live');

    const sandboxMe = await call(sandbox, '/v1/me');
    expect(sandboxMe.body).toMatchObject({ environment: 'sandbox', limits: { requests_per_minute: 60 } });
    expect(limitHeaders(sandboxMe).limit).toBe('60');

    const liveMe = await call(live, '/v1/me');
    expect(liveMe.body).toMatchObject({ environment: 'live', limits: { requests_per_minute: 300 } });
    expect(limitHeaders(liveMe)).toMatchObject({ limit: '300', remaining: '299' });
    for (let count = 2; count <= 300; count++) {
      const response = await call(live, '/v1/me');
      if (response.status !== 200) throw new Error(`live request ${count} answered ${response.status}`);
    }
    const refused = await call(live, '/v1/me');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(limitHeaders(refused)).toMatchObject({ limit: '300', remaining: '0' });
  });

  it("applies an account's own limit to /v1/me and to enforcement, per environment, and null restores the default", async () => {
    now = new Date('2026-01-01T14:00:00Z');
    const { accountId, key } = await freshKey();
    const { key: live } = await issueApiKey(engine.sql, accountId, 'live');
    await setAccountRateLimit(engine.sql, accountId, 'sandbox', 3);
    await setAccountRateLimit(engine.sql, accountId, 'live', 1000);

    const me = await call(key, '/v1/me');
    expect(me.body.limits).toEqual({ requests_per_minute: 3 });
    expect(limitHeaders(me)).toMatchObject({ limit: '3', remaining: '2' });
    expect((await call(key, '/v1/me')).status).toBe(200);
    expect((await call(key, '/v1/me')).status).toBe(200);
    const refused = await call(key, '/v1/me');
    expect(refused.status).toBe(429);
    expect(limitHeaders(refused)).toMatchObject({ limit: '3', remaining: '0' });

    const liveMe = await call(live, '/v1/me');
    expect(liveMe.body.limits).toEqual({ requests_per_minute: 1000 });
    expect(limitHeaders(liveMe)).toMatchObject({ limit: '1000', remaining: '999' });

    // Back to the default: the same minute's count (3) is now under the limit of 60 again.
    await setAccountRateLimit(engine.sql, accountId, 'sandbox', null);
    const restored = await call(key, '/v1/me');
    expect(restored.status).toBe(200);
    expect(restored.body.limits).toEqual({ requests_per_minute: 60 });
    expect(limitHeaders(restored)).toMatchObject({ limit: '60', remaining: '56' });
  });

  it('counts the keys of one account and environment against one budget: a second key gets what the first left', async () => {
    now = new Date('2026-01-01T15:00:30Z');
    const { accountId, key: first } = await freshKey();
    const { key: second } = await issueApiKey(engine.sql, accountId, 'sandbox');
    await setAccountRateLimit(engine.sql, accountId, 'sandbox', 3);

    expect(limitHeaders(await call(first, '/v1/me'))).toMatchObject({ limit: '3', remaining: '2' });
    expect(limitHeaders(await call(second, '/v1/me'))).toMatchObject({ limit: '3', remaining: '1' });
    expect(limitHeaders(await call(first, '/v1/me'))).toMatchObject({ limit: '3', remaining: '0' });
    for (const key of [second, first]) {
      const refused = await call(key, '/v1/me');
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(limitHeaders(refused)).toMatchObject({ limit: '3', remaining: '0' });
    }
    // A fresh key is no way round it either.
    const { key: third } = await issueApiKey(engine.sql, accountId, 'sandbox');
    expect((await call(third, '/v1/me')).status).toBe(429);
  });

  it('gives sandbox and live of one account a budget each: a spent sandbox leaves live alone', async () => {
    now = new Date('2026-01-01T15:30:30Z');
    const { accountId, key: sandbox } = await freshKey();
    const { key: live } = await issueApiKey(engine.sql, accountId, 'live');
    await setAccountRateLimit(engine.sql, accountId, 'sandbox', 1);
    await setAccountRateLimit(engine.sql, accountId, 'live', 2);

    expect((await call(sandbox, '/v1/me')).status).toBe(200);
    expect((await call(sandbox, '/v1/me')).status).toBe(429);
    const liveMe = await call(live, '/v1/me');
    expect(liveMe.status).toBe(200);
    expect(limitHeaders(liveMe)).toMatchObject({ limit: '2', remaining: '1' });
    expect((await call(live, '/v1/me')).status).toBe(200);
    expect((await call(live, '/v1/me')).status).toBe(429);
    // And a spent live leaves another account's sandbox alone.
    expect((await call((await freshKey()).key, '/v1/me')).status).toBe(200);
  });

  it(`counts requests without a valid API key per client address, ${ADDRESS_REQUESTS_PER_MINUTE} a minute, with the headers on each 401 and a 429 after`, async () => {
    now = new Date('2026-01-01T17:00:20Z');
    const reset = String(unixS('2026-01-01T17:01:00Z'));
    const tries: [string, string][] = [
      ['', '/v1/me'],
      ['service_test_forged', '/v1/webhook-endpoints'],
      ['not-even-a-key', '/v1/events'],
    ];
    for (let count = 1; count <= ADDRESS_REQUESTS_PER_MINUTE; count++) {
      const [token, path] = tries[count % tries.length]!;
      const response = await call(token, path);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('unauthorized');
      expect(limitHeaders(response)).toEqual({
        limit: String(ADDRESS_REQUESTS_PER_MINUTE),
        remaining: String(ADDRESS_REQUESTS_PER_MINUTE - count),
        reset,
      });
    }
    // Public routes count there too, and a made-up X-Forwarded-For is not believed (no proxy is trusted).
    for (const response of [
      await call('', '/v1/openapi.json'),
      await call('', '/v1/me', { headers: { 'x-forwarded-for': '198.51.100.7' } }),
    ]) {
      expect(response.status).toBe(429);
      expect(response.body.error.code).toBe('rate_limited');
      expect(limitHeaders(response)).toEqual({ limit: String(ADDRESS_REQUESTS_PER_MINUTE), remaining: '0', reset });
      expect(response.headers.get('retry-after')).toBe('40');
    }
    // A valid key is counted against its account, not the address.
    const { key } = await freshKey();
    expect(limitHeaders(await call(key, '/v1/me'))).toMatchObject({ limit: '60', remaining: '59' });

    now = new Date('2026-01-01T17:01:00Z');
    const nextMinute = await call('', '/v1/openapi.json');
    expect(nextMinute.status).toBe(200);
    expect(limitHeaders(nextMinute)).toMatchObject({
      limit: String(ADDRESS_REQUESTS_PER_MINUTE),
      remaining: String(ADDRESS_REQUESTS_PER_MINUTE - 1),
    });
  });

  it('puts X-RateLimit-* on the answer of every operation of the OpenAPI document, with and without a key, and on unknown routes, wrong methods and malformed paths', async () => {
    now = new Date('2026-01-01T18:00:00Z');
    const document = (await call('', '/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(document.paths).flatMap(([template, item]) =>
      Object.keys(item).map((method) => ({ method: method.toUpperCase(), template })),
    );
    expect(operations.length).toBeGreaterThan(20);
    const answers: { what: string; status: number; headers: Headers }[] = [];
    const conversation = (
      await call(engine.apiKey, '/v1/conversations', { body: { customer_ref: 'headers-everywhere' } })
    ).body.id as string;
    for (const { method, template } of operations) {
      for (const [who, token] of [
        ['with the key', engine.apiKey],
        ['without a key', ''],
      ] as const) {
        // With the key, a real conversation and well-formed ids of nothing; without one, the 401 comes first.
        for (const id of token
          ? [conversation, 'cnv_000000000000000000000000', 'whe_0000000000000000', 'whd_0000000000000000']
          : ['x']) {
          const path = template.replace(/\{[^}]+\}/g, id);
          const response = await call(token, path, {
            method,
            ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
          });
          answers.push({ what: `${method} ${path} ${who}`, status: response.status, headers: response.headers });
          if (!template.includes('{')) break;
        }
      }
    }
    for (const [method, path] of [
      ['GET', '/v1/no-such-route'],
      ['GET', '/nothing-here'],
      ['DELETE', '/v1/events'],
      ['PUT', '/v1/conversations'],
      ['GET', '/v1/%E0%A4%A'],
    ]) {
      for (const token of [engine.apiKey, '']) {
        const response = await call(token, path!, { method: method! });
        answers.push({
          what: `${method} ${path} ${token ? 'with the key' : 'without a key'}`,
          status: response.status,
          headers: response.headers,
        });
      }
    }
    const statuses = new Set(answers.map((answer) => answer.status));
    for (const status of [200, 400, 401, 404, 405]) expect(statuses, `some answer was ${status}`).toContain(status);
    const missing = answers.filter(({ headers }) =>
      ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].some(
        (name) => !/^\d+$/.test(headers.get(name) ?? ''),
      ),
    );
    expect(missing.map(({ what, status }) => `${what} → ${status}`)).toEqual([]);
  });

  it("keeps one account's limit to itself: lowering it leaves another account's keys alone", async () => {
    now = new Date('2026-01-01T16:00:00Z');
    const { key } = await freshKey();
    await setAccountRateLimit(engine.sql, (await call(key, '/v1/me')).body.account_id, 'sandbox', 1);
    expect((await call(key, '/v1/me')).status).toBe(429);
    const mine = await call(engine.apiKey, '/v1/me');
    expect(mine.status).toBe(200);
    expect(mine.body.limits).toEqual({ requests_per_minute: 100_000 });
  });
});

describe('the per-address limit behind a proxy', () => {
  it('counts each client the trusted proxy names on its own, whatever the client wrote further left in X-Forwarded-For', async () => {
    const sql = await openSql({ databaseUrl: undefined, dataDir: 'memory://', schema: 'engine' });
    const engine = await createEngine({ sql, logger, now: () => new Date('2026-01-01T09:00:10Z'), trustProxyHops: 1 });
    const server = createServer(engine.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/me`;
      const remaining = async (forwardedFor: string) =>
        (await request(url, { headers: { 'x-forwarded-for': forwardedFor } })).headers.get('x-ratelimit-remaining');
      const full = ADDRESS_REQUESTS_PER_MINUTE;
      expect(await remaining('203.0.113.10')).toBe(String(full - 1));
      expect(await remaining('203.0.113.10')).toBe(String(full - 2));
      expect(await remaining('203.0.113.20')).toBe(String(full - 1));
      expect(await remaining('198.51.100.99, 203.0.113.10')).toBe(String(full - 3));
      // An IPv6 client is its /64.
      expect(await remaining('2001:db8:1:2::1')).toBe(String(full - 1));
      expect(await remaining('2001:db8:1:2:ffff::9')).toBe(String(full - 2));
    } finally {
      await closeServer(server);
      await sql.close();
    }
  });
});
