import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../shared/index.ts';
import { engineConversationOf, request, startStack, type TestStack } from '../test/stack.ts';
import { until } from '../test/until.ts';

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

describe('the demo engine pushing events to the BFF', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // The feed is read only at start here, so whatever arrives later came by webhook.
    stack = await startStack(undefined, { FEED_POLL_MS: '600000' });
  });
  afterAll(() => stack?.stop());

  const engineApi = (path: string, body?: unknown) => request(`${stack.engineUrl}${path}`, { token: stack.apiKey, ...(body === undefined ? {} : { body }) });

  it("registers the BFF's /v1/engine-webhooks as the engine's one webhook endpoint, which answers a ping", async () => {
    const { endpoints } = (await engineApi('/v1/webhook-endpoints')).body as { endpoints: { id: string; url: string; enabled: boolean }[] };
    expect(endpoints).toEqual([expect.objectContaining({ url: `${stack.url}/v1/engine-webhooks`, enabled: true })]);
    const ping = await engineApi(`/v1/webhook-endpoints/${endpoints[0]!.id}/ping`, {});
    expect(ping.body).toMatchObject({ status: 'delivered', attempts: [{ status: 200 }] });
  });

  it("brings a person's answer, made at the engine, to the customer by webhook", async () => {
    const session = (await request(`${stack.url}/v1/widget-sessions`, { token: stack.siteKey, body: {} })).body as { token: string };
    const widget = (path: string, body?: unknown) => request(`${stack.url}/v1/widget${path}`, { token: session.token, ...(body === undefined ? {} : { body }) });
    const { id } = (await widget('/conversations', {})).body as { id: string };
    expect((await widget(`/conversations/${id}/messages`, { text: 'I want to talk to a person', message_id: 'hook-1' })).status).toBe(201);
    await stack.bff.relay.settled();
    const engineId = await engineConversationOf(stack, id);
    expect((await engineApi(`/v1/conversations/${engineId}/human-messages`, { text: 'Hi, Sam here.', author_name: 'Sam' })).status).toBe(200);
    const texts = await until(
      async () => ((await widget(`/conversations/${id}/messages`)).body.messages as { text: string }[]).map((message) => message.text),
      (list) => list.includes('Hi, Sam here.'),
      "Sam's message, delivered by webhook",
    );
    expect(texts).toContain('Hi, Sam here.');
  });
});
