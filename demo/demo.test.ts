import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../shared/index.ts';
import { request, startStack, type TestStack } from '../test/stack.ts';

describe('the demo with a live site key', () => {
  const liveKey = `pk_live_${randomToken(24)}`;
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_LIVE_SITE_KEY: liveKey });
  });
  afterAll(() => stack?.stop());

  const session = (origin?: string) => request(`${stack.url}/v1/widget-sessions`, { token: liveKey, body: {}, headers: origin ? { origin } : {} });

  it("allows the live key from the demo's own origin by default, under both of its host names", async () => {
    expect((await session(stack.url)).status).toBe(201);
    expect((await session(stack.url.replace('127.0.0.1', 'localhost'))).status).toBe(201);
  });

  it('refuses the live key from any other origin, and without one', async () => {
    for (const origin of ['https://evil.example', stack.url.replace(/:\d+$/, ':1'), undefined]) {
      const response = await session(origin);
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('origin_not_allowed');
    }
  });

  it('serves the storefront with the live key at /?key=live and the sandbox key at /', async () => {
    expect((await request(`${stack.url}/?key=live`)).body).toContain(`data-site-key="${liveKey}"`);
    expect((await request(`${stack.url}/`)).body).toContain(`data-site-key="${stack.siteKey}"`);
  });
});

describe('the demo inbox of the Client API', () => {
  it('uses DEMO_INBOX_IDENTIFIER as the inbox identifier', async () => {
    const identifier = `demo_${randomToken(20)}`;
    const stack = await startStack(undefined, { DEMO_INBOX_IDENTIFIER: identifier });
    try {
      expect(stack.inboxIdentifier).toBe(identifier);
      const inbox = await request(`${stack.url}/public/api/v1/inboxes/${identifier}`);
      expect(inbox.body).toMatchObject({ identifier, name: 'Demo store' });
    } finally {
      await stack.stop();
    }
  });
});
