import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/index.ts';
import { MemoryRollingLimiter } from '../../shared/server/index.ts';
import { DEMO_SITE_KEY, DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { addSiteKey, createInbox, type BffDeps } from '../index.ts';

/**
 * The site-key limit (SPEC "Limits", DESIGN "Credentials"): at most 20 site-key requests per client
 * address in any rolling 60 minutes. The BFF runs on a clock the tests move by hand. Each test
 * starts on a day of its own, so the requests of earlier tests have long aged out of the window.
 */

const PGLITE = DRIVERS[0]!;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Response = Awaited<ReturnType<typeof request>>;

const today = new Date();
const firstDay = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
let day = 0;
let now = new Date(firstDay);
const clock = () => now;

/** Sets the BFF's clock to a time of the current test's day. */
function setClock(hours: number, minutes: number, seconds = 0, ms = 0): void {
  now = new Date(firstDay + day * DAY + hours * HOUR + minutes * MINUTE + seconds * SECOND + ms);
}

const siteKeyRequest = (
  stack: TestStack,
  headers: Record<string, string> = {},
  siteKey = DEMO_SITE_KEY,
  body: object = {},
): Promise<Response> => request(`${stack.url}/v1/widget-sessions`, { token: siteKey, body, headers });

function expectAllowed(response: Response, remaining: number): void {
  expect(response.status).toBe(201);
  expect(response.body.token).toMatch(/^wst_/);
  expect(response.headers.get('x-ratelimit-limit')).toBe('20');
  expect(response.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
}

function expectLimited(response: Response, retryAfterS?: number): void {
  expect(response.status).toBe(429);
  expect(response.body.error).toMatchObject({ code: 'rate_limited', message: expect.any(String) });
  expect(response.body.token).toBeUndefined();
  expect(response.headers.get('x-ratelimit-limit')).toBe('20');
  expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
  const retryAfter = response.headers.get('retry-after');
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  if (retryAfterS !== undefined) expect(Number(retryAfter)).toBe(retryAfterS);
}

/** Spends `count` site-key requests at the current time, checking the budget goes down one by one. */
async function spend(
  stack: TestStack,
  count: number,
  remainingBefore = 20,
  headers: Record<string, string> = {},
): Promise<Response[]> {
  const responses: Response[] = [];
  for (let i = 0; i < count; i++) {
    const response = await siteKeyRequest(stack, headers);
    expectAllowed(response, remainingBefore - i - 1);
    responses.push(response);
  }
  return responses;
}

const randomAddress = () =>
  `${1 + Math.floor(Math.random() * 223)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

describe('the site-key limit: 20 requests per address in any rolling hour', () => {
  /** No trusted proxies: the peer is the client. */
  let direct: TestStack;
  /** One trusted proxy in front: the right-most X-Forwarded-For entry is the client. */
  let proxied: TestStack;

  beforeAll(async () => {
    [direct, proxied] = await Promise.all([
      startStack(PGLITE, {}, { siteKeyLimiter: new MemoryRollingLimiter(20, 3_600_000), now: clock }),
      startStack(
        PGLITE,
        {},
        { siteKeyLimiter: new MemoryRollingLimiter(20, 3_600_000), now: clock, trustProxyHops: 1 },
      ),
    ]);
  });
  afterAll(async () => {
    await Promise.all([direct?.stop(), proxied?.stop()]);
  });
  beforeEach(() => {
    day++;
    setClock(0, 0);
  });

  it('refuses the 21st site-key request within an hour with 429 rate_limited, Retry-After until the oldest ages out, and X-RateLimit-* on every answer', async () => {
    for (let i = 0; i < 20; i++) {
      setClock(10, i);
      expectAllowed(await siteKeyRequest(direct), 19 - i);
    }
    setClock(10, 20);
    // The oldest request (10:00) ages out at 11:00: 40 minutes from now.
    expectLimited(await siteKeyRequest(direct), 40 * 60);
    setClock(10, 30, 0, 500);
    expectLimited(await siteKeyRequest(direct), 30 * 60); // 29 min 59.5 s, rounded up
    setClock(10, 59, 59);
    expectLimited(await siteKeyRequest(direct), 1);
    setClock(11, 0, 0, 1);
    expectAllowed(await siteKeyRequest(direct), 0);
  });

  it('is a rolling window, not a clock hour: 20 requests at 10:59 still block at 11:01, until 11:59', async () => {
    setClock(10, 59);
    await spend(direct, 20);
    // A fixed hourly window would start afresh at 11:00.
    setClock(11, 1);
    expectLimited(await siteKeyRequest(direct), 58 * 60);
    setClock(11, 30);
    expectLimited(await siteKeyRequest(direct), 29 * 60);
    setClock(11, 58, 59, 999);
    expectLimited(await siteKeyRequest(direct), 1);
    // 11:59:00.001: the 10:59 requests are now older than 60 minutes.
    setClock(11, 59, 0, 1);
    await spend(direct, 20);
    expectLimited(await siteKeyRequest(direct), 3600);
  });

  it('counts site-key requests that fail too (an unknown key, a live key from a wrong origin), so guessing keys is as slow', async () => {
    const inbox = await createInbox(direct.bffSql, { name: 'Live shop' });
    const { key: liveKey } = await addSiteKey(direct.bffSql, inbox.id, 'live', ['https://shop.example']);
    setClock(9, 0);
    for (let i = 0; i < 10; i++) {
      const unknown = await siteKeyRequest(direct, {}, `pk_test_${randomToken(24)}`);
      expect(unknown.status).toBe(401);
      expect(unknown.body.error.code).toBe('unauthorized');
      expect(unknown.headers.get('x-ratelimit-remaining')).toBe(String(19 - i));
    }
    for (let i = 0; i < 10; i++) {
      const wrongOrigin = await siteKeyRequest(direct, { origin: 'https://evil.example' }, liveKey);
      expect(wrongOrigin.status).toBe(403);
      expect(wrongOrigin.body.error.code).toBe('origin_not_allowed');
      expect(wrongOrigin.headers.get('x-ratelimit-remaining')).toBe(String(9 - i));
    }
    expectLimited(await siteKeyRequest(direct), 3600);
    expectLimited(await siteKeyRequest(direct, { origin: 'https://shop.example' }, liveKey), 3600);
  });

  it('ignores a spoofed X-Forwarded-For when no proxy is trusted: every request counts against the peer', async () => {
    setClock(12, 0);
    for (let i = 0; i < 20; i++) {
      const forwardedFor = i % 2 === 0 ? randomAddress() : `${randomAddress()}, ${randomAddress()}`;
      expectAllowed(await siteKeyRequest(direct, { 'x-forwarded-for': forwardedFor }), 19 - i);
    }
    expectLimited(await siteKeyRequest(direct, { 'x-forwarded-for': randomAddress() }), 3600);
    expectLimited(await siteKeyRequest(direct, { 'x-forwarded-for': `${randomAddress()}, ${randomAddress()}` }), 3600);
    expectLimited(await siteKeyRequest(direct), 3600);
  });

  it('behind one trusted proxy takes the right-most X-Forwarded-For entry as the client: separate budgets, and a fake entry on the left escapes nothing', async () => {
    setClock(12, 0);
    const client = randomAddress();
    const other = randomAddress();
    await spend(proxied, 20, 20, { 'x-forwarded-for': client });
    expectLimited(await siteKeyRequest(proxied, { 'x-forwarded-for': client }), 3600);

    // Another right-most address has a budget of its own...
    expectAllowed(await siteKeyRequest(proxied, { 'x-forwarded-for': other }), 19);
    // ...and so does a request that came through no proxy at all (the peer).
    expectAllowed(await siteKeyRequest(proxied), 19);

    // Whatever the client writes on the left, the proxy appends the real address on the right.
    for (const spoofed of [randomAddress(), '127.0.0.1', other, `${randomAddress()}, ${randomAddress()}`]) {
      expectLimited(await siteKeyRequest(proxied, { 'x-forwarded-for': `${spoofed}, ${client}` }), 3600);
    }
    expectAllowed(await siteKeyRequest(proxied, { 'x-forwarded-for': other }), 18);
  });

  it('does not count requests made with a wst_ session token or an API key', async () => {
    setClock(14, 0);
    const sessions = await spend(direct, 19);
    const token = sessions.at(-1)!.body.token as string;
    const opened = await request(`${direct.url}/v1/widget/conversations`, { token, body: {} });
    expect(opened.status).toBe(201);
    const conversationId = opened.body.id as string;
    const widgetCalls: [string, Parameters<typeof request>[1]][] = [
      ['/v1/widget/config', { token }],
      ['/v1/widget/conversations', { token }],
      [`/v1/widget/conversations/${conversationId}`, { token }],
      [`/v1/widget/conversations/${conversationId}/typing`, { token, body: { typing: true } }],
      [`/v1/widget/conversations/${conversationId}/read`, { token, body: { last_read_id: 0 } }],
    ];
    for (let i = 0; i < 29; i++) {
      const [path, options] = widgetCalls[i % widgetCalls.length]!;
      const response = await request(direct.url + path, options);
      expect(response.status).toBeLessThan(300);
      // These answers carry the widget's own per-minute budget, not the site-key one.
      expect(response.headers.get('x-ratelimit-limit')).toBe('120');
    }
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await request(`${direct.url}/v1/widget-sessions`, {
            token: direct.apiKey,
            body: { customer_ref: `cust-${i}` },
          })
        ).status,
      ).toBe(201);
    }
    expect(
      (await request(`${direct.url}/v1/widget-sessions/current`, { method: 'DELETE', token: sessions[0]!.body.token }))
        .status,
    ).toBe(204);

    expectAllowed(await siteKeyRequest(direct), 0);
    expectLimited(await siteKeyRequest(direct));
  });

  it('does not count polling for new messages, against the site-key limit or the widget limit', async () => {
    setClock(15, 0);
    const [first] = await spend(direct, 19);
    const token = first!.body.token as string;
    const opened = await request(`${direct.url}/v1/widget/conversations`, { token, body: {} });
    expect(opened.status).toBe(201);
    expect(opened.headers.get('x-ratelimit-remaining')).toBe('119');
    for (let i = 0; i < 150; i++) {
      const polled = await request(`${direct.url}/v1/widget/conversations/${opened.body.id}/messages?after=0`, {
        token,
      });
      expect(polled.status).toBe(200);
      expect(polled.body.messages).toEqual([]);
    }
    const after = await request(`${direct.url}/v1/widget/config`, { token });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('118');

    expectAllowed(await siteKeyRequest(direct), 0);
    expectLimited(await siteKeyRequest(direct));
  });

  it('does not count refused requests: once limited, each request that ages out lets exactly one more through', async () => {
    for (let i = 0; i < 20; i++) {
      setClock(10, i);
      expectAllowed(await siteKeyRequest(direct), 19 - i);
    }
    setClock(10, 30);
    for (let i = 0; i < 10; i++) expectLimited(await siteKeyRequest(direct), 30 * 60);

    // 10:00 has aged out: one request goes through, the next waits for 10:01 to age out.
    setClock(11, 0, 0, 1);
    expectAllowed(await siteKeyRequest(direct), 0);
    expectLimited(await siteKeyRequest(direct), 60);
    setClock(11, 1, 0, 1);
    expectAllowed(await siteKeyRequest(direct), 0);
    expectLimited(await siteKeyRequest(direct), 60);
  });
});

describe('the site-key limit as the BFF sets it up itself', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // startStack lifts the limit for other tests; an explicit undefined leaves the BFF its own default.
    stack = await startStack(PGLITE, {}, { siteKeyLimiter: undefined } as unknown as Partial<BffDeps>);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('is 20 requests per address per hour', async () => {
    await spend(stack, 20);
    const refused = await siteKeyRequest(stack);
    expectLimited(refused);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
  });
});
