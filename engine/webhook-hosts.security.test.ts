import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startEngine, type TestEngine } from '../test/stack.ts';

/**
 * Issue 33: the engine's webhooks and action URLs follow the shared host rule
 * (shared/server/webhooks/endpoint-rules.ts), and the operator's private exception
 * (`WEBHOOK_ALLOWED_PRIVATE_ORIGINS` with a path) lets tenants reach that path only, not every
 * route of the BFF's address.
 */
describe('webhook and action URL hosts at the engine', () => {
  let engine: TestEngine;
  const bffHooks = 'http://127.0.0.1:9/v1/engine-webhooks';
  const stored = async () =>
    JSON.stringify(await engine.sql.query('SELECT url FROM webhook_endpoints UNION ALL SELECT url FROM actions'));

  beforeAll(async () => {
    engine = await startEngine(undefined, undefined, { webhooks: { allowedPrivateOrigins: [bffHooks] } });
  });
  afterAll(() => engine?.stop());

  it.each([
    'http://localhost./hook',
    'http://ip6-localhost/hook',
    'http://intranet/hook',
    'http://10.0.0.1.nip.io/hook',
    'http://127.0.0.1:9/api/v1/accounts/1/webhooks',
    'http://127.0.0.1:9/v1/engine-webhooks-admin',
  ])('refuses the webhook %s with 400 and keeps nothing', async (url) => {
    const before = await stored();
    const response = await request(`${engine.url}/v1/webhook-endpoints`, { token: engine.apiKey, body: { url } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    expect(await stored()).toBe(before);
  });

  it("refuses an action URL outside the operator's listed path, and takes one under it", async () => {
    const put = (url: string) =>
      request(`${engine.url}/v1/actions/ship_it`, {
        method: 'PUT',
        token: engine.liveApiKey,
        body: { description: 'Ship it', url },
      });
    for (const url of ['http://127.0.0.1:9/store/admin', 'https://ip6-localhost/x', 'https://a.lvh.me/x']) {
      const before = await stored();
      expect((await put(url)).status, url).toBe(400);
      expect(await stored()).toBe(before);
    }
    expect((await put(`${bffHooks}/actions`)).status).toBe(201);
    const webhook = await request(`${engine.url}/v1/webhook-endpoints`, {
      token: engine.apiKey,
      body: { url: `${bffHooks}/2` },
    });
    expect(webhook.status).toBe(201);
  });
});
