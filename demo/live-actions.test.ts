import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../shared/index.ts';
import { closeServer, request, startEngine, type TestEngine } from '../test/stack.ts';
import { until } from '../test/until.ts';
import { createAccount, defineAction, issueApiKey, setAccountRateLimit } from '../engine/index.ts';
import { DEMO_ACTIONS } from './actions.ts';
import { ensureDemoLiveActions } from './seed.ts';
import { DEMO_ACTION_PATH, storefrontRouter } from './storefront.ts';

/**
 * The demo's live customers get answers (issue 33): the demo's actions, for live customers, are
 * posted to the demo store's own signed action endpoint, so "Where is my order 1001?" from a live
 * contact is answered by the store instead of waiting for a person. The store here is the demo's
 * storefront router on a server of its own, and the engine the real one, which may call it (its
 * address is an allowed private origin, as the demo's own BFF address is).
 */
describe("the demo store's live actions", () => {
  let engine: TestEngine;
  let store: Server;
  let storeUrl: string;
  let liveKey: string;
  const secrets = new Map<string, string>();

  const ask = async (customer: string, text: string) => {
    const opened = await request(`${engine.url}/v1/conversations`, {
      token: liveKey,
      body: { customer_ref: customer },
    });
    const sent = await request(`${engine.url}/v1/conversations/${opened.body.id}/messages`, {
      token: liveKey,
      body: { text },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return {
      id: opened.body.id as string,
      events: sent.body.events as { type: string; data: Record<string, unknown> }[],
    };
  };
  const replyTo = async (conversationId: string) => {
    const reply = await until(
      async () =>
        (
          (await request(`${engine.url}/v1/events?types=conversation.reply&limit=1000`, { token: liveKey })).body
            .events as { conversation_id: string; data: { text: string } }[]
        ).find((event) => event.conversation_id === conversationId),
      (found) => found !== undefined,
      "the store's answer, told by the AI",
    );
    return reply!.data.text;
  };

  beforeAll(async () => {
    const app = new Koa();
    // The secrets are filled in below, once the engine has made them, as the demo fills them at start.
    app.use(storefrontRouter('pk_test_demo', undefined, secrets).routes());
    store = createServer(app.callback());
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    storeUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
    engine = await startEngine(undefined, undefined, { webhooks: { allowedPrivateOrigins: [storeUrl] } });
    // The demo's account as the seed makes it: its actions, with no URL yet.
    const accountId = await createAccount(engine.sql, 'Demo store');
    await setAccountRateLimit(engine.sql, accountId, 'live', 100_000);
    for (const action of DEMO_ACTIONS) await defineAction(engine.sql, accountId, action);
    liveKey = (await issueApiKey(engine.sql, accountId, 'live')).key;
    for (const [name, secret] of await ensureDemoLiveActions(engine.url, liveKey, storeUrl)) secrets.set(name, secret);
  });
  afterAll(async () => {
    await engine?.stop();
    if (store) await closeServer(store);
  });

  it('answers a live customer\'s "Where is my order 1001?" from the store, through its signed endpoint', async () => {
    const { id, events } = await ask('cus_live_1001', 'Where is my order 1001?');
    expect(events.find((event) => event.type === 'conversation.action_request')?.data).toMatchObject({
      action: 'lookup_order',
      inputs: { order_number: '1001' },
      handled_by: 'url',
    });
    expect(await replyTo(id)).toBe('Order 1001 is on its way. It travels with DHL and should arrive on Thursday.');
  });

  it('tells a live customer in plain words when the store has no such order', async () => {
    const { id } = await ask('cus_live_4040', 'Where is my order 4040?');
    expect(await replyTo(id)).toContain('the store has no order 4040');
  });

  it('points every demo action at the store, and refuses a request that is not signed with the action secret', async () => {
    const actions = (await request(`${engine.url}/v1/actions`, { token: liveKey })).body.actions as {
      name: string;
      url: string;
    }[];
    expect(Object.fromEntries(actions.map((action) => [action.name, action.url]))).toEqual({
      lookup_order: `${storeUrl}${DEMO_ACTION_PATH}/lookup_order`,
      cancel_order: `${storeUrl}${DEMO_ACTION_PATH}/cancel_order`,
    });
    const body = JSON.stringify({
      type: 'conversation.action_request',
      data: { action: 'lookup_order', inputs: { order_number: '1001' } },
    });
    const now = Math.floor(Date.now() / 1000);
    const post = (path: string, secret: string, text = body, timestamp = now) =>
      signWebhook(secret, timestamp, text).then((signature) =>
        request(`${storeUrl}${path}`, {
          rawBody: text,
          headers: { 'x-service-timestamp': String(timestamp), 'x-service-signature': signature },
        }),
      );
    const lookup = `${DEMO_ACTION_PATH}/lookup_order`;
    expect((await post(lookup, secrets.get('lookup_order')!)).body).toEqual({
      status: 'on its way',
      carrier: 'DHL',
      estimated_delivery: 'on Thursday',
    });
    for (const [refused, status] of [
      [await post(lookup, 'whsec_guessed'), 401],
      [await post(lookup, secrets.get('cancel_order')!), 401],
      [await post(lookup, secrets.get('lookup_order')!, body, now - 3600), 401],
      [await request(`${storeUrl}${lookup}`, { rawBody: body }), 401],
      [await post(`${DEMO_ACTION_PATH}/refund_everything`, secrets.get('lookup_order')!), 404],
      [await post(`${DEMO_ACTION_PATH}/cancel_order`, secrets.get('cancel_order')!), 400],
      [await post(lookup, secrets.get('lookup_order')!, '{"type":'), 400],
    ] as const) {
      expect(refused.status).toBe(status);
      expect(JSON.stringify(refused.body)).not.toContain('DHL');
    }
  });

  it('gives each action a new secret at every start: the previous one no longer signs', async () => {
    const before = new Map(secrets);
    const again = await ensureDemoLiveActions(engine.url, liveKey, storeUrl);
    for (const [name, secret] of again) {
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(before.get(name));
      secrets.set(name, secret);
    }
    const { id } = await ask('cus_live_1002', 'Where is my order 1002?');
    expect(await replyTo(id)).toBe('Order 1002 is being packed. It travels with UPS and should arrive next Monday.');
  });
});
