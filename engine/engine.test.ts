import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../shared/index.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { createAccount, issueApiKey, revokeApiKey } from './index.ts';

describe.each(DRIVERS)('engine on $name', (driver) => {
  let engine: TestEngine;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const allEvents = async () =>
    (await api('/v1/events?limit=1000')).body.events as { id: string; type: string; conversation_id: string }[];
  const open = async (customer_ref = 'customer-1') =>
    (await api('/v1/conversations', { body: { customer_ref } })).body as { id: string };

  beforeAll(async () => {
    engine = await startEngine(driver);
  });
  afterAll(() => engine?.stop());

  it('opens a conversation for a customer and records conversation.opened', async () => {
    const response = await api('/v1/conversations', { body: { customer_ref: 'customer-42' } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^cnv_/),
      customer_ref: 'customer-42',
      state: 'ai',
    });
    const opened = (await allEvents()).filter((event) => event.conversation_id === response.body.id);
    expect(opened).toEqual([
      expect.objectContaining({ type: 'conversation.opened', id: expect.stringMatching(/^evt_/) }),
    ]);
  });

  it('answers a question from the knowledge base with a reply event', async () => {
    const { id } = await open();
    const response = await api(`/v1/conversations/${id}/messages`, { body: { text: 'How do I return an item?' } });
    expect(response.status).toBe(200);
    const [reply] = response.body.events;
    expect(reply).toMatchObject({
      type: 'conversation.reply',
      conversation_id: id,
      id: expect.stringMatching(/^evt_/),
    });
    expect(reply.data).toMatchObject({ type: 'reply', format: 'chat', reply_id: expect.stringMatching(/^rpl_/) });
    expect(reply.data.text).toContain('within 30 days');
    expect(new Date(reply.created_at).toISOString()).toBe(reply.created_at);
  });

  it('says plainly when the knowledge base has no answer', async () => {
    const { id } = await open();
    const response = await api(`/v1/conversations/${id}/messages`, {
      body: { text: 'What is the airspeed of a swallow?' },
    });
    expect(response.body.events[0].data.text).toMatch(/not sure/);
  });

  it('replays the first answer when a message_id is sent again, adding nothing', async () => {
    const { id } = await open();
    const first = await api(`/v1/conversations/${id}/messages`, {
      body: { text: 'Do you ship abroad?', message_id: 'msg-1' },
    });
    const before = await allEvents();
    const again = await api(`/v1/conversations/${id}/messages`, {
      body: { text: 'Do you ship abroad?', message_id: 'msg-1' },
    });
    expect(again.status).toBe(200);
    expect(again.body.events).toEqual(first.body.events);
    expect(await allEvents()).toEqual(before);
  });

  it('replays an Idempotency-Key answer as the same bytes', async () => {
    const key = `bytes-${Date.now()}`;
    const post = () =>
      fetch(`${engine.url}/v1/conversations`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${engine.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({ customer_ref: 'bytes' }),
      });
    const first = await post();
    const again = await post();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await again.text()).toBe(await first.text());
  });

  describe('the event feed', () => {
    it('pages by cursor in order, with next and has_more, and filters by type', async () => {
      const { id } = await open('feed-customer');
      for (const text of [
        'How long does delivery take?',
        'Which payment methods do you accept?',
        'Resetting your password',
      ]) {
        await api(`/v1/conversations/${id}/messages`, { body: { text } });
      }
      const everything = await allEvents();
      const mine = everything.filter((event) => event.conversation_id === id);
      expect(mine.map((event) => event.type)).toEqual([
        'conversation.opened',
        'conversation.reply',
        'conversation.reply',
        'conversation.reply',
      ]);

      const collected: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await api(`/v1/events?limit=2${after ? `&after=${after}` : ''}`);
        expect(page.status).toBe(200);
        expect(page.body.events.length).toBeLessThanOrEqual(2);
        collected.push(...page.body.events.map((event: { id: string }) => event.id));
        if (!page.body.has_more) {
          expect(page.body.next).toBe(collected.at(-1));
          break;
        }
        after = page.body.next;
      }
      expect(collected).toEqual(everything.map((event) => event.id));

      const replies = await api('/v1/events?limit=1000&types=conversation.reply');
      expect(replies.body.events.length).toBeGreaterThanOrEqual(3);
      expect(new Set(replies.body.events.map((event: { type: string }) => event.type))).toEqual(
        new Set(['conversation.reply']),
      );
    });

    it('keeps the cursor in place when there is nothing new', async () => {
      const everything = await allEvents();
      const last = everything.at(-1)!.id;
      const page = await api(`/v1/events?after=${last}`);
      expect(page.body).toEqual({ events: [], next: last, has_more: false });
    });

    it('gives a cursor on an empty feed that picks up the first event when it comes', async () => {
      const { key } = await issueApiKey(engine.sql, await createAccount(engine.sql, 'Quiet shop'), 'sandbox');
      const poll = (query: string) => request(`${engine.url}/v1/events${query}`, { token: key });
      const empty = await poll('');
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({
        events: [],
        next: expect.stringMatching(/^evt_[0-9A-Za-z]{16,64}$/),
        has_more: false,
      });
      // Polling again with it, still nothing: the same cursor back.
      expect((await poll(`?after=${empty.body.next}`)).body).toEqual(empty.body);

      const opened = await request(`${engine.url}/v1/conversations`, {
        token: key,
        body: { customer_ref: 'first-ever' },
      });
      const first = await poll(`?after=${empty.body.next}`);
      expect(first.body).toEqual({
        events: [expect.objectContaining({ type: 'conversation.opened', conversation_id: opened.body.id })],
        next: first.body.events[0].id,
        has_more: false,
      });
      expect((await poll(`?after=${first.body.next}`)).body).toEqual({
        events: [],
        next: first.body.next,
        has_more: false,
      });
    });

    it("moves a filtered poll's cursor past the events its types leave out, and still gives the next one of those types", async () => {
      const { key } = await issueApiKey(engine.sql, await createAccount(engine.sql, 'Filtered shop'), 'sandbox');
      const poll = (query: string) =>
        request(`${engine.url}/v1/events?types=conversation.closed${query}`, { token: key });
      const { body: conversation } = await request(`${engine.url}/v1/conversations`, {
        token: key,
        body: { customer_ref: 'filtered' },
      });
      const [opened] = (await request(`${engine.url}/v1/events`, { token: key })).body.events;
      const none = await poll('');
      expect(none.body).toEqual({ events: [], next: opened.id, has_more: false });

      await request(`${engine.url}/v1/conversations/${conversation.id}/close`, {
        token: key,
        body: { resolved: true },
      });
      const closed = await poll(`&after=${none.body.next}`);
      expect(closed.body.events).toEqual([
        expect.objectContaining({ type: 'conversation.closed', conversation_id: conversation.id }),
      ]);
      // The close also scored the conversation: the cursor moves past that too.
      const newest = (await request(`${engine.url}/v1/events?after=${opened.id}`, { token: key })).body.events.at(-1);
      expect(closed.body).toMatchObject({ next: newest.id, has_more: false });
    });

    it('never skips or repeats an event while messages are written during the read', async () => {
      const conversations = await Promise.all(Array.from({ length: 4 }, (_, index) => open(`racer-${index}`)));
      const seen: string[] = [];
      let after = (await allEvents()).at(-1)?.id;
      let writing = true;
      const writers = Promise.all(
        conversations.map(async ({ id }, index) => {
          for (let round = 0; round < 6; round++) {
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
            await api(`/v1/conversations/${id}/messages`, { body: { text: `Tracking a parcel ${index}-${round}` } });
          }
        }),
      ).finally(() => {
        writing = false;
      });
      const reader = (async () => {
        for (;;) {
          const stillWriting = writing;
          const page = await api(
            `/v1/events?limit=${1 + Math.floor(Math.random() * 3)}${after ? `&after=${after}` : ''}`,
          );
          seen.push(...page.body.events.map((event: { id: string }) => event.id));
          after = page.body.next ?? after;
          if (!stillWriting && !page.body.has_more) return;
        }
      })();
      await Promise.all([writers, reader]);
      const written = (await allEvents()).filter(
        (event) => conversations.some(({ id }) => id === event.conversation_id) && event.type === 'conversation.reply',
      );
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => written.some((event) => event.id === id))).toEqual(written.map((event) => event.id));
      expect(written).toHaveLength(24);
    });
  });

  it("shows the key in use and its account's own limit at /v1/me", async () => {
    const response = await api('/v1/me');
    // startEngine raises the test account's sandbox limit to 100,000 a minute.
    expect(response.body).toMatchObject({
      account_id: engine.accountId,
      environment: 'sandbox',
      key: { prefix: engine.apiKey.slice(0, 17) },
      limits: { requests_per_minute: 100_000 },
    });
  });

  describe('bad input gets a 4xx with a stable code and changes nothing', () => {
    const cases: {
      name: string;
      path: string;
      options: Parameters<typeof request>[1];
      code: keyof typeof ERROR_STATUS;
    }[] = [
      {
        name: 'broken JSON',
        path: '/v1/conversations',
        options: { rawBody: '{"customer_ref":' },
        code: 'invalid_json',
      },
      { name: 'a missing field', path: '/v1/conversations', options: { body: {} }, code: 'invalid_request' },
      {
        name: 'a wrongly typed field',
        path: '/v1/conversations',
        options: { body: { customer_ref: 42 } },
        code: 'invalid_request',
      },
      {
        name: 'an unknown field',
        path: '/v1/conversations',
        options: { body: { customer_ref: 'a', admin: true } },
        code: 'invalid_request',
      },
      { name: 'a JSON array', path: '/v1/conversations', options: { rawBody: '[]' }, code: 'invalid_request' },
      {
        name: 'a body that is not JSON',
        path: '/v1/conversations',
        options: { rawBody: 'customer_ref=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        code: 'unsupported_media_type',
      },
      {
        name: 'a huge body',
        path: '/v1/conversations',
        options: { body: { customer_ref: 'x'.repeat(200_000) } },
        code: 'payload_too_large',
      },
      {
        name: 'an unknown conversation',
        path: '/v1/conversations/cnv_doesnotexist000000000/messages',
        options: { body: { text: 'hi' } },
        code: 'not_found',
      },
      {
        name: 'an empty message',
        path: '/v1/conversations/cnv_x/messages',
        options: { body: { text: '   ' } },
        code: 'invalid_request',
      },
      {
        name: 'a message over 150,000 characters',
        path: '/v1/conversations/cnv_x/messages',
        options: { body: { text: 'a'.repeat(150_001) } },
        code: 'invalid_request',
      },
      { name: 'a feed limit over 1000', path: '/v1/events?limit=1001', options: {}, code: 'invalid_request' },
      { name: 'a feed limit of zero', path: '/v1/events?limit=0', options: {}, code: 'invalid_request' },
      { name: 'a feed limit that is not a number', path: '/v1/events?limit=ten', options: {}, code: 'invalid_request' },
      {
        name: 'an unknown feed cursor',
        path: '/v1/events?after=evt_unknown0000000000000',
        options: {},
        code: 'invalid_request',
      },
      { name: 'an unknown query parameter', path: '/v1/events?offset=10', options: {}, code: 'invalid_request' },
      {
        name: 'no credential',
        path: '/v1/conversations',
        options: { body: { customer_ref: 'a' }, token: '' },
        code: 'unauthorized',
      },
      {
        name: 'a made-up key',
        path: '/v1/conversations',
        options: { body: { customer_ref: 'a' }, token: 'service_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
        code: 'unauthorized',
      },
      {
        name: 'a site key',
        path: '/v1/conversations',
        options: { body: { customer_ref: 'a' }, token: 'pk_test_AAAAAAAAAAAAAAAAAAAA' },
        code: 'unauthorized',
      },
      { name: 'an unknown route', path: '/v1/nothing-here', options: {}, code: 'not_found' },
      {
        name: 'a route in other letter case',
        path: '/V1/Conversations',
        options: { body: { customer_ref: 'a' } },
        code: 'not_found',
      },
      {
        name: 'a route with a trailing slash',
        path: '/v1/conversations/',
        options: { body: { customer_ref: 'a' } },
        code: 'not_found',
      },
      {
        name: 'a method the route does not take',
        path: '/v1/events',
        options: { method: 'DELETE' },
        code: 'method_not_allowed',
      },
    ];
    it.each(cases)('$name → $code', async ({ path, options, code }) => {
      const before = await allEvents();
      const response = await api(path, options);
      expect(response.status).toBe(ERROR_STATUS[code]);
      expect(response.body).toEqual({
        error: {
          code,
          message: expect.any(String),
          ...(code === 'invalid_request' && response.body.error.details ? { details: expect.anything() } : {}),
        },
      });
      expect(await allEvents()).toEqual(before);
    });
  });

  it("refuses another account's conversation as if it did not exist", async () => {
    const { id } = await open();
    const otherAccount = await createAccount(engine.sql, 'Other shop');
    const { key } = await issueApiKey(engine.sql, otherAccount, 'sandbox');
    const response = await request(`${engine.url}/v1/conversations/${id}/messages`, {
      token: key,
      body: { text: 'hi' },
    });
    expect(response.status).toBe(404);
    expect((await request(`${engine.url}/v1/events`, { token: key })).body.events).toEqual([]);
  });

  it('keeps live and sandbox data apart', async () => {
    const { id } = await open();
    const { key } = await issueApiKey(engine.sql, engine.accountId, 'live');
    expect(key).toMatch(/^service_live_/);
    expect(
      (await request(`${engine.url}/v1/conversations/${id}/messages`, { token: key, body: { text: 'hi' } })).status,
    ).toBe(404);
    expect((await request(`${engine.url}/v1/events`, { token: key })).body.events).toEqual([]);
    // A new account's live key has the live default limit (the test account's own is raised).
    const { key: fresh } = await issueApiKey(engine.sql, await createAccount(engine.sql, 'Fresh shop'), 'live');
    expect((await request(`${engine.url}/v1/me`, { token: fresh })).body.limits.requests_per_minute).toBe(300);
  });

  it('refuses a revoked key on the very next request', async () => {
    const { id: keyId, key } = await issueApiKey(engine.sql, engine.accountId, 'sandbox');
    expect((await request(`${engine.url}/v1/me`, { token: key })).status).toBe(200);
    await revokeApiKey(engine.sql, keyId);
    const response = await request(`${engine.url}/v1/me`, { token: key });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthorized');
  });
});
