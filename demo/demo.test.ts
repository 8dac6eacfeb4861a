import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../shared/index.ts';
import { openSecretBox } from '../shared/server/index.ts';
import { readSetting } from '../bff/index.ts';
import { engineConversationOf, logger, request } from '../test/stack.ts';
import { until } from '../test/until.ts';
import { readDemoConfig } from './config.ts';
import { runDemo, type RunningDemo } from './run-demo.ts';
import { DEMO_SHOP } from './shop.ts';

/** The demo as `npm start` runs it, on free ports and in memory. */
const startDemo = (env: Record<string, string> = {}): Promise<RunningDemo> =>
  runDemo(readDemoConfig({ PORT: '0', ENGINE_PORT: '0', DATA_DIR: 'memory://', ...env }), logger);

describe('the demo with a live site key', () => {
  const liveKey = `pk_live_${randomToken(24)}`;
  let demo: RunningDemo;

  beforeAll(async () => {
    demo = await startDemo({ DEMO_LIVE_SITE_KEY: liveKey });
  });
  afterAll(() => demo?.close());

  const session = (origin?: string) =>
    request(`${demo.url}/v1/widget-sessions`, { token: liveKey, body: {}, headers: origin ? { origin } : {} });

  it("allows the live key from the demo's own origin by default, under both of its host names", async () => {
    expect((await session(demo.url)).status).toBe(201);
    expect((await session(demo.url.replace('127.0.0.1', 'localhost'))).status).toBe(201);
  });

  it('refuses the live key from any other origin, and without one', async () => {
    for (const origin of ['https://evil.example', demo.url.replace(/:\d+$/, ':1'), undefined]) {
      const response = await session(origin);
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('origin_not_allowed');
    }
  });

  it('serves the storefront with the live key at /?key=live and the sandbox key at /', async () => {
    expect((await request(`${demo.url}/?key=live`)).body).toContain(`data-site-key="${liveKey}"`);
    expect((await request(`${demo.url}/`)).body).toContain(`data-site-key="${demo.siteKey}"`);
  });
});

describe('the demo inbox of the Client API', () => {
  it('uses DEMO_INBOX_IDENTIFIER as the inbox identifier', async () => {
    const identifier = `demo_${randomToken(20)}`;
    const demo = await startDemo({ DEMO_INBOX_IDENTIFIER: identifier });
    try {
      expect(demo.inboxIdentifier).toBe(identifier);
      const inbox = await request(`${demo.url}/public/api/v1/inboxes/${identifier}`);
      expect(inbox.body).toMatchObject({ identifier, name: DEMO_SHOP.name });
    } finally {
      await demo.close();
    }
  });
});

describe('the demo engine pushing events to the BFF', () => {
  let demo: RunningDemo;

  beforeAll(async () => {
    // The feed is read only at start here, so whatever arrives later came by webhook.
    demo = await startDemo({ FEED_POLL_MS: '600000' });
  });
  afterAll(() => demo?.close());

  const engineApi = (path: string, body?: unknown) =>
    request(`${demo.engineUrl}${path}`, { token: demo.apiKey, ...(body === undefined ? {} : { body }) });

  it("registers the BFF's /v1/engine-webhooks as the engine's one webhook endpoint, which answers a ping", async () => {
    const { endpoints } = (await engineApi('/v1/webhook-endpoints')).body as {
      endpoints: { id: string; url: string; enabled: boolean }[];
    };
    expect(endpoints).toEqual([expect.objectContaining({ url: `${demo.url}/v1/engine-webhooks`, enabled: true })]);
    const ping = await engineApi(`/v1/webhook-endpoints/${endpoints[0]!.id}/ping`, {});
    expect(ping.body).toMatchObject({ status: 'delivered', attempts: [{ status: 200 }] });
  });

  it("brings a person's answer, made at the engine, to the customer by webhook", async () => {
    const session = (await request(`${demo.url}/v1/widget-sessions`, { token: demo.siteKey, body: {} })).body as {
      token: string;
    };
    const widget = (path: string, body?: unknown) =>
      request(`${demo.url}/v1/widget${path}`, { token: session.token, ...(body === undefined ? {} : { body }) });
    const { id } = (await widget('/conversations', {})).body as { id: string };
    expect(
      (await widget(`/conversations/${id}/messages`, { text: 'I want to talk to a person', message_id: 'hook-1' }))
        .status,
    ).toBe(201);
    await demo.bff.relay.settled();
    const engineId = await engineConversationOf(demo, id);
    expect(
      (await engineApi(`/v1/conversations/${engineId}/human-messages`, { text: 'Hi, Sam here.', author_name: 'Sam' }))
        .status,
    ).toBe(200);
    const texts = await until(
      async () =>
        ((await widget(`/conversations/${id}/messages`)).body.messages as { text: string }[]).map(
          (message) => message.text,
        ),
      (list) => list.includes('Hi, Sam here.'),
      "Sam's message, delivered by webhook",
    );
    expect(texts).toContain('Hi, Sam here.');
  });
});

describe("the demo engine's operator token", () => {
  it('is made on the first start, shared by the engine and the BFF, and kept sealed in the BFF’s store', async () => {
    const demo = await startDemo();
    try {
      const kept = await readSetting(demo.bffSql, 'engine_operator_token');
      expect(kept).toMatch(/^sealed:v1:/);
      // The store's secrets, as this process opens them (DATA_DIR is memory://).
      expect(openSecretBox(undefined, 'memory://').open(kept!)).toBe(demo.operatorToken);
      // It opens the engine's operator routes: a new helpdesk account gets an engine account of its own.
      const made = await request(`${demo.engineUrl}/operator/v1/accounts`, {
        token: demo.operatorToken!,
        body: { name: 'Another shop' },
      });
      expect(made.status).toBe(201);
    } finally {
      await demo.close();
    }
  });
});
