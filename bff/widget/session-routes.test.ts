import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_NAMESPACE } from '../../shared/index.ts';
import { MemoryRollingLimiter } from '../../shared/server/index.ts';
import { DEMO_SITE_KEY, request, startStack, type TestStack } from '../../test/stack.ts';
import { API_KEY_SESSIONS_PER_ADDRESS } from './session-routes.ts';

/**
 * Issue 33: `POST /v1/widget-sessions` sent no X-RateLimit-* with an API key and no X-RateLimit-Reset
 * with a site key. Every answer now says the limit, what is left and when the window lets one more in.
 */
describe('the rate-limit headers of POST /v1/widget-sessions', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack(undefined, {}, { siteKeyLimiter: new MemoryRollingLimiter(3, 3_600_000) });
  });
  afterAll(() => stack?.stop());

  const mint = (token: string, body: object = {}) => request(`${stack.url}/v1/widget-sessions`, { token, body });
  const headersOf = (headers: Headers) => ({
    limit: Number(headers.get('x-ratelimit-limit')),
    remaining: Number(headers.get('x-ratelimit-remaining')),
    reset: Number(headers.get('x-ratelimit-reset')),
  });

  it('sends all three with a site key (the rolling hour: reset when its oldest request ages out), and Retry-After when refused', async () => {
    const before = Date.now() / 1000;
    const first = await mint(DEMO_SITE_KEY);
    expect(first.status).toBe(201);
    expect(headersOf(first.headers)).toEqual({ limit: 3, remaining: 2, reset: expect.any(Number) });
    const reset = headersOf(first.headers).reset;
    expect(reset).toBeGreaterThanOrEqual(Math.floor(before + 3600));
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000 + 3600));
    await mint(DEMO_SITE_KEY);
    await mint(DEMO_SITE_KEY);
    const refused = await mint(DEMO_SITE_KEY);
    expect(refused.status).toBe(429);
    expect(headersOf(refused.headers)).toEqual({ limit: 3, remaining: 0, reset });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3590);
  });

  it('sends all three with an API key, on a minted session and on a refused key', async () => {
    const minted = await mint(stack.apiKey, { customer_ref: 'cust-headers' });
    expect(minted.status).toBe(201);
    const counted = headersOf(minted.headers);
    expect(counted.limit).toBe(API_KEY_SESSIONS_PER_ADDRESS);
    expect(counted.remaining).toBe(API_KEY_SESSIONS_PER_ADDRESS - 1);
    expect(counted.reset).toBe(Math.floor(Date.now() / 60_000) * 60 + 60);
    const wrong = await mint(`service_test_${'x'.repeat(40)}`, { customer_ref: 'cust-headers' });
    expect(wrong.status).toBe(401);
    expect(headersOf(wrong.headers)).toMatchObject({
      limit: API_KEY_SESSIONS_PER_ADDRESS,
      remaining: counted.remaining - 1,
    });
  });

  it("closes the open sockets of every token of a visitor whose session ends (DELETE …/current), not only the ending token's", async () => {
    const first = await mint(stack.apiKey, { customer_ref: 'cust-two-tabs' });
    const second = await mint(stack.apiKey, { customer_ref: 'cust-two-tabs' });
    const bystander = await mint(stack.apiKey, { customer_ref: 'cust-bystander' });
    const open = async (token: string) => {
      const socket = io(`${stack.url}${WIDGET_NAMESPACE}`, {
        auth: { token },
        transports: ['websocket'],
        reconnection: false,
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
      return { socket, closed };
    };
    const [a, b, c] = await Promise.all([first, second, bystander].map((minted) => open(minted.body.token as string)));
    const ended = await request(`${stack.url}/v1/widget-sessions/current`, {
      method: 'DELETE',
      token: first.body.token as string,
    });
    expect(ended.status).toBe(204);
    await Promise.all([a!.closed, b!.closed]);
    expect(c!.socket.connected).toBe(true);
    c!.socket.close();
  });
});
