import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mentions } from '../test/every-row.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.ts';
import { FORGET_NOTICE_KEPT_MS, purgeForgetNotices } from './customer-erasure.ts';
import { defineAction } from './index.ts';

const LOOKUP_ORDER = {
  name: 'lookup_order',
  description: 'Look up the status of an order',
  triggers: [['where', 'order']],
  inputs: [
    {
      name: 'order_number',
      description: 'The order number',
      pattern: '(?:#|\\b)(\\d{4,12})\\b',
      required: true,
      ask: 'What is your order number?',
    },
  ],
  reply: 'Order {order_number} is {status}.',
};

describe.each(DRIVERS)('the customers of the engine on $name', (driver) => {
  let engine: TestEngine;
  let otherAccountKey: string;
  let receiver: WebhookReceiver;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const customer = (ref: string, token = engine.apiKey) =>
    request(`${engine.url}/v1/customers/${encodeURIComponent(ref)}`, { token });
  const open = async (ref: string, token = engine.apiKey) => {
    const response = await request(`${engine.url}/v1/conversations`, { token, body: { customer_ref: ref } });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };
  const say = async (id: string, text: string, extra: object = {}, token = engine.apiKey) => {
    const response = await request(`${engine.url}/v1/conversations/${id}/messages`, {
      token,
      body: { text, ...extra },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.events as { type: string; data: Record<string, unknown> }[];
  };
  const feed = async () =>
    (await api('/v1/events?limit=1000')).body.events as {
      id: string;
      type: string;
      conversation_id: string | null;
      data: Record<string, unknown>;
    }[];

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    engine = await startEngine(driver, undefined, { webhooks: { allowedPrivateOrigins: [receiver.origin] } });
    await defineAction(engine.sql, engine.accountId, LOOKUP_ORDER);
    otherAccountKey = (await engine.issueKey({ otherAccount: true })).key;
    expect((await api('/v1/webhook-endpoints', { body: { url: receiver.url } })).status).toBe(201);
  });
  afterAll(async () => {
    await engine?.stop();
    await receiver?.close();
  });

  describe('GET /v1/customers/{customer_ref}', () => {
    it('shows the conversations newest first, what the AI remembers in each, the inputs given, and when the customer was first and last seen', async () => {
      const first = await open('cust-memory');
      await say(first, 'How do I return an item?', { locale: 'de-AT' });
      await say(first, 'Where is my order 48213?');
      const second = await open('cust-memory');
      await say(second, 'Where is my order?');

      const response = await customer('cust-memory');
      expect(response.status).toBe(200);
      const view = response.body;
      expect(view).toMatchObject({
        customer_ref: 'cust-memory',
        conversation_count: 2,
        memory: { locale: 'de-AT', inputs: { order_number: '48213' } },
      });
      expect(view.conversations.map((conversation: { id: string }) => conversation.id)).toEqual([second, first]);
      expect(view.conversations[0]).toMatchObject({
        state: 'ai',
        closed_at: null,
        turns: 2,
        memory: { awaiting_action: { action: 'lookup_order', inputs: {} }, locale: null },
      });
      expect(view.conversations[1].memory).toMatchObject({ locale: 'de-AT', awaiting_action: null });
      expect(Date.parse(view.first_seen_at)).toBeLessThanOrEqual(Date.parse(view.last_seen_at));
      expect(view.first_seen_at).toBe(view.conversations[1].created_at);
    });

    it('finds a reference with reserved characters when it is percent-encoded', async () => {
      const ref = 'shop/42?who=ana@example.com#x';
      await open(ref);
      const response = await customer(ref);
      expect(response.status).toBe(200);
      expect(response.body.customer_ref).toBe(ref);
    });

    it("answers 404 for a reference without conversations, and for another environment's or account's customer", async () => {
      await open('cust-sandbox-only');
      for (const [ref, token] of [
        ['nobody-here', engine.apiKey],
        ['cust-sandbox-only', engine.liveApiKey],
        ['cust-sandbox-only', otherAccountKey],
      ] as const) {
        const response = await customer(ref, token);
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('not_found');
      }
    });

    it('refuses a reference that is not one (too long, a space) with 400', async () => {
      for (const ref of ['x'.repeat(201), 'two words']) expect((await customer(ref)).status).toBe(400);
    });

    it('refuses a request without a valid API key', async () => {
      await open('cust-keyed');
      for (const token of [undefined, 'service_test_' + 'x'.repeat(32), 'not-a-key']) {
        const response = await request(`${engine.url}/v1/customers/cust-keyed`, token === undefined ? {} : { token });
        expect(response.status).toBe(401);
        expect(response.body.error.code).toBe('unauthorized');
      }
    });
  });

  describe('POST /v1/customers/{customer_ref}/merge', () => {
    const merge = (into: string, body: unknown, token = engine.apiKey) =>
      request(`${engine.url}/v1/customers/${encodeURIComponent(into)}/merge`, { token, body });

    it("moves the other reference's conversations and memory onto the customer; the other names no one afterwards", async () => {
      const signedIn = await open('cust-signed-in');
      const visitor = await open('vis_merge_visitor');
      await say(visitor, 'Where is my order 77120?');
      const response = await merge('cust-signed-in', { from: 'vis_merge_visitor' });
      expect(response.status).toBe(200);
      expect(response.body.conversations.map((conversation: { id: string }) => conversation.id).sort()).toEqual(
        [signedIn, visitor].sort(),
      );
      expect(response.body.memory.inputs).toEqual({ order_number: '77120' });
      expect((await customer('vis_merge_visitor')).status).toBe(404);
      expect((await api(`/v1/conversations/${visitor}/transcript`)).body.customer_ref).toBe('cust-signed-in');
    });

    it("refuses to merge another environment's or another account's customer, and changes nothing", async () => {
      await open('cust-merge-target');
      const liveConversation = await open('cust-live-merge', engine.liveApiKey);
      await open('cust-other-account', otherAccountKey);
      for (const from of ['cust-live-merge', 'cust-other-account', 'nobody-at-all']) {
        const response = await merge('cust-merge-target', { from });
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('not_found');
      }
      expect((await customer('cust-merge-target')).body.conversation_count).toBe(1);
      expect((await customer('cust-live-merge', engine.liveApiKey)).body.conversations[0].id).toBe(liveConversation);
      expect((await customer('cust-other-account', otherAccountKey)).body.conversation_count).toBe(1);
      // From the other account's side, our customer cannot be taken either.
      expect((await merge('cust-other-account', { from: 'cust-merge-target' }, otherAccountKey)).status).toBe(404);
      expect((await customer('cust-merge-target')).body.conversation_count).toBe(1);
    });

    it('refuses a merge with itself, without from, or with another field, with 400 and changes nothing', async () => {
      await open('cust-merge-bad');
      for (const body of [{ from: 'cust-merge-bad' }, {}, { from: 'vis_x', extra: true }, { from: 'with space' }]) {
        const response = await merge('cust-merge-bad', body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body.error.code).toBe('invalid_request');
      }
      expect((await customer('cust-merge-bad')).body.conversation_count).toBe(1);
    });

    it('refuses a request without a valid API key, and changes nothing', async () => {
      await open('cust-merge-keyed');
      await open('vis_merge_keyed');
      for (const token of [undefined, 'service_test_' + 'y'.repeat(32)]) {
        const response = await request(`${engine.url}/v1/customers/cust-merge-keyed/merge`, {
          ...(token ? { token } : {}),
          body: { from: 'vis_merge_keyed' },
        });
        expect(response.status).toBe(401);
      }
      expect((await customer('vis_merge_keyed')).status).toBe(200);
    });
  });

  describe('POST /v1/customers/{customer_ref}/forget', () => {
    const forget = (ref: string, token = engine.apiKey, headers: Record<string, string> = {}) =>
      request(`${engine.url}/v1/customers/${encodeURIComponent(ref)}/forget`, { method: 'POST', token, headers });

    it("erases the customer's words, memory, action inputs and events, keeps counts, and tells receivers with customer.forgotten", async () => {
      const ref = 'maja.forget@example.com';
      const words = [
        'Zanzibar teapot',
        '55102',
        'call me on 0171-5550199',
        'Maja wants a call',
        'Hello Maja, Sam here',
      ];
      const id = await open(ref);
      await say(id, 'Where is my order? It is the Zanzibar teapot, number 55102.');
      await say(id, 'Please call me on 0171-5550199');
      await api(`/v1/conversations/${id}/handover`, { body: { reason: 'Maja wants a call' } });
      await api(`/v1/conversations/${id}/human-messages`, {
        body: { text: 'Hello Maja, Sam here', author_name: 'Sam' },
      });
      // Another customer's words stay.
      const bystander = await open('cust-bystander');
      await say(bystander, 'Where is my order Quokka 99001?');
      await engine.engine.webhooks.drain();
      const needles = [ref, encodeURIComponent(ref), ...words];
      // The scan does see them where they are kept.
      expect(await mentions(engine.sql, needles)).toEqual(
        expect.arrayContaining([
          'action_requests: 55102',
          `conversations: ${ref}`,
          `events: ${ref}`,
          'events: Maja wants a call',
          'turns: Zanzibar teapot',
          'webhook_deliveries: Hello Maja, Sam here',
        ]),
      );

      const response = await forget(ref, engine.apiKey, { 'idempotency-key': 'forget-1' });
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({
        forgotten: true,
        conversations: 1,
        action_requests: 1,
        media: 0,
        event_id: expect.stringMatching(/^evt_/),
      });
      expect(response.body.turns).toBeGreaterThanOrEqual(6);
      expect(response.body.events).toBeGreaterThanOrEqual(5);
      expect(JSON.stringify(response.body)).not.toContain(ref);

      expect((await customer(ref)).status).toBe(404);
      const transcript = (await api(`/v1/conversations/${id}/transcript`)).body;
      expect(transcript.state).toBe('closed');
      expect(transcript.customer_ref).toMatch(/^forgotten_[0-9a-f]{32}$/);
      expect(transcript.turns.length).toBe(response.body.turns);
      expect(transcript.turns.every((turn: { text: string }) => turn.text === '')).toBe(true);
      expect((await api(`/v1/conversations/${id}/messages`, { body: { text: 'Anyone?' } })).status).toBe(409);

      const events = await feed();
      const own = events.filter((event) => event.conversation_id === id);
      expect(own.length).toBe(response.body.events);
      expect(own.every((event) => event.data['redacted'] === true)).toBe(true);
      const notice = events.find((event) => event.id === response.body.event_id)!;
      expect(notice).toMatchObject({
        type: 'customer.forgotten',
        conversation_id: null,
        data: { customer_ref: ref, conversation_ids: [id] },
      });

      // Receivers hear of it; the deliveries of the customer's events carry only the redacted events.
      await engine.engine.webhooks.drain();
      expect(receiver.received.some(({ body }) => JSON.parse(body).id === notice.id)).toBe(true);
      // Until the notice time is over, the reference is only in that event and its delivery.
      expect(await mentions(engine.sql, needles)).toEqual([`events: ${ref}`, `webhook_deliveries: ${ref}`]);
      expect(
        await purgeForgetNotices(engine.sql, new Date(Date.now() + FORGET_NOTICE_KEPT_MS + 60_000)),
      ).toBeGreaterThanOrEqual(1);
      expect(await mentions(engine.sql, needles)).toEqual([]);
      const purged = (await feed()).find((event) => event.id === notice.id)!;
      expect(purged.data).toEqual({ redacted: true, conversations: 1 });

      // What others said stays.
      expect(await mentions(engine.sql, ['Quokka 99001'])).toContain('turns: Quokka 99001');
    });

    it('forgets a reference it does not know: 202 with nothing counted, and the event is still sent (a receiver may hold what never reached the engine)', async () => {
      const response = await forget('never-seen-here');
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({
        forgotten: true,
        conversations: 0,
        turns: 0,
        action_requests: 0,
        media: 0,
      });
      const notice = (await feed()).find((event) => event.id === response.body.event_id);
      expect(notice).toMatchObject({
        type: 'customer.forgotten',
        data: { customer_ref: 'never-seen-here', conversation_ids: [] },
      });
    });

    it('keeps no answer naming the customer for an Idempotency-Key: a retry forgets again, and finds nothing more', async () => {
      const ref = 'cust-retry-forget';
      await request(`${engine.url}/v1/conversations`, {
        token: engine.apiKey,
        body: { customer_ref: ref },
        headers: { 'idempotency-key': 'open-retry-forget' },
      });
      const first = await forget(ref, engine.apiKey, { 'idempotency-key': 'forget-retry' });
      const again = await forget(ref, engine.apiKey, { 'idempotency-key': 'forget-retry' });
      expect([first.status, again.status]).toEqual([202, 202]);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect([first.body.conversations, again.body.conversations]).toEqual([1, 0]);
      const [kept] = await engine.sql.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM idempotency_keys WHERE strpos(route || coalesce(body, ''), $1) > 0",
        [ref],
      );
      expect(kept!.count).toBe(0);
    });

    it("forgets only the key's own environment and account", async () => {
      const ref = 'cust-forget-scoped';
      const live = await open(ref, engine.liveApiKey);
      await say(live, 'Do you ship abroad?', {}, engine.liveApiKey);
      await open(ref, otherAccountKey);
      expect((await forget(ref)).body.conversations).toBe(0);
      expect((await forget(ref, otherAccountKey)).body.conversations).toBe(1);
      const kept = (await customer(ref, engine.liveApiKey)).body;
      expect(kept.conversation_count).toBe(1);
      expect(
        (await request(`${engine.url}/v1/conversations/${live}/transcript`, { token: engine.liveApiKey })).body.turns[0]
          .text,
      ).toBe('Do you ship abroad?');
    });

    it('refuses a bad reference with 400 and a request without a valid API key with 401, forgetting nothing', async () => {
      await open('cust-forget-keyed');
      expect((await forget('x'.repeat(201))).status).toBe(400);
      for (const token of [undefined, 'service_live_' + 'z'.repeat(32)]) {
        const response = await request(`${engine.url}/v1/customers/cust-forget-keyed/forget`, {
          method: 'POST',
          ...(token ? { token } : {}),
        });
        expect(response.status).toBe(401);
      }
      expect((await customer('cust-forget-keyed')).status).toBe(200);
    });
  });
});
