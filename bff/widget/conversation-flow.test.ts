import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { ERROR_STATUS, type WidgetMessage } from '../../shared/index.ts';
import { DEMO_SITE_KEY, DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { connectWidget, sendWidgetMessage } from '../../test/widget-client.ts';
import { addSiteKey, createInbox } from '../index.ts';

describe.each(DRIVERS)('BFF widget side on $name', (driver) => {
  let stack: TestStack;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startStack(driver);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
  });

  const newSession = async (siteKey = DEMO_SITE_KEY, body: object = {}, headers: Record<string, string> = {}) =>
    request(`${stack.url}/v1/widget-sessions`, { token: siteKey, body, headers });
  const visitor = async () => (await newSession()).body.token as string;
  const openConversation = async (token: string) =>
    (await request(`${stack.url}/v1/widget/conversations`, { token, body: {} })).body.id as string;
  const send = (token: string, conversationId: string, text: string, messageId: string) =>
    sendWidgetMessage(stack.url, token, conversationId, text, messageId);
  const messages = async (token: string, conversationId: string, after = 0) =>
    (await request(`${stack.url}/v1/widget/conversations/${conversationId}/messages?after=${after}`, { token })).body
      .messages as WidgetMessage[];

  async function connect(token: string): Promise<{ socket: Socket; received: WidgetMessage[] }> {
    const tab = await connectWidget(stack.url, token);
    sockets.push(tab.socket);
    return tab;
  }

  describe('sessions from a site key', () => {
    it('gives a visitor a wst_ token for an hour, never verified', async () => {
      const response = await newSession();
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        token: expect.stringMatching(/^wst_/),
        ttl_s: 3600,
        customer_ref: expect.stringMatching(/^vis_/),
        verified: false,
      });
      const lifetime = Date.parse(response.body.expires_at) - Date.now();
      expect(lifetime).toBeGreaterThan(3590_000);
      expect(lifetime).toBeLessThanOrEqual(3600_000);
    });

    it('renews the same visitor when the old token is sent along', async () => {
      const first = await newSession();
      const renewed = await newSession(DEMO_SITE_KEY, { token: first.body.token });
      expect(renewed.body.customer_ref).toBe(first.body.customer_ref);
      const forged = await newSession(DEMO_SITE_KEY, { token: `${first.body.token}x` });
      expect(forged.body.customer_ref).not.toBe(first.body.customer_ref);
    });

    it('refuses an unknown site key, a made-up API key, a session token and no key', async () => {
      const cases: [string, object][] = [
        ['pk_test_AAAAAAAAAAAAAAAAAAAAAAAA', {}],
        ['service_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { customer_ref: 'user-1' }],
        [await visitor(), {}],
        ['', {}],
      ];
      for (const [token, body] of cases) {
        const response = await newSession(token, body);
        expect(response.status).toBe(401);
        expect(response.body.error.code).toBe('unauthorized');
      }
    });

    it('takes a live site key only from a listed origin', async () => {
      const inbox = await createInbox(stack.bffSql, { name: 'Live shop' });
      const { key } = await addSiteKey(stack.bffSql, inbox.id, 'live', ['https://shop.example']);
      expect((await newSession(key, {}, { origin: 'https://shop.example' })).status).toBe(201);
      for (const origin of ['https://evil.example', 'https://shop.example:8443', 'http://shop.example']) {
        const refused = await newSession(key, {}, { origin });
        expect(refused.status).toBe(403);
        expect(refused.body.error.code).toBe('origin_not_allowed');
      }
      expect((await newSession(key)).status).toBe(403);
    });

    it('lets only a listed origin read the answer to a live key (CORS)', async () => {
      const inbox = await createInbox(stack.bffSql, { name: 'CORS shop' });
      const { key } = await addSiteKey(stack.bffSql, inbox.id, 'live', ['https://shop.example']);
      const listed = await newSession(key, {}, { origin: 'https://shop.example' });
      expect(listed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      const refused = await newSession(key, {}, { origin: 'https://evil.example' });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  it('carries a message to the engine and pushes the AI reply to every tab of the customer', async () => {
    const token = await visitor();
    const conversationId = await openConversation(token);
    const tabA = await connect(token);
    const tabB = await connect(token);

    const sent = await send(token, conversationId, 'How do I return an item?', 'm-1');
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      author: 'customer',
      message_id: 'm-1',
      text: 'How do I return an item?',
      conversation_id: conversationId,
    });

    for (const tab of [tabA, tabB]) {
      const received = await until(
        () => tab.received,
        (list) => list.length >= 2,
        'the reply on the socket',
      );
      expect(received.map((message) => message.author)).toEqual(['customer', 'ai']);
      expect(received[1]!.text).toContain('within 30 days');
    }
    const stored = await messages(token, conversationId);
    expect(stored.map((message) => message.author)).toEqual(['customer', 'ai']);
    expect(await messages(token, conversationId, stored[0]!.id)).toEqual([stored[1]]);
  });

  it('keeps one copy of a message sent twice with the same message_id, and answers it once', async () => {
    const token = await visitor();
    const conversationId = await openConversation(token);
    const first = await send(token, conversationId, 'Do you ship abroad?', 'same-id');
    const again = await send(token, conversationId, 'Do you ship abroad?', 'same-id');
    expect(again.status).toBe(200);
    // The same message; only its status may have moved on meanwhile (the relay forwards it at once).
    const { status: firstStatus, ...kept } = first.body as { status: string };
    const { status: againStatus, ...keptAgain } = again.body as { status: string };
    expect(keptAgain).toEqual(kept);
    expect(['sent', 'delivered', 'read']).toContain(againStatus);
    expect(firstStatus).toBe('sent');
    const stored = await until(
      () => messages(token, conversationId),
      (list) => list.length >= 2,
      'the reply',
    );
    expect(stored[1]!.text).toContain('ship');
    // A later message is forwarded after everything before it in its conversation: once it is answered,
    // a second forward of the first would have shown.
    expect((await send(token, conversationId, 'How do I return an item?', 'after-id')).status).toBe(201);
    const all = await until(
      () => messages(token, conversationId),
      (list) => list.length >= 4,
      'the later reply',
    );
    expect(all.map((message) => [message.author, message.message_id ?? null])).toEqual([
      ['customer', 'same-id'],
      ['ai', null],
      ['customer', 'after-id'],
      ['ai', null],
    ]);
  });

  it("answers another visitor's conversation with 404, as if it did not exist", async () => {
    const owner = await visitor();
    const conversationId = await openConversation(owner);
    const stranger = await visitor();
    for (const response of [
      await request(`${stack.url}/v1/widget/conversations/${conversationId}`, { token: stranger }),
      await request(`${stack.url}/v1/widget/conversations/${conversationId}/messages`, { token: stranger }),
      await send(stranger, conversationId, 'let me in', 'x-1'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect(await messages(owner, conversationId)).toEqual([]);
    const list = await request(`${stack.url}/v1/widget/conversations`, { token: stranger });
    expect(list.body.conversations).toEqual([]);
  });

  it('refuses a socket without a valid token', async () => {
    await expect(connect('wst_forged.token.here')).rejects.toThrow(/unauthorized/);
    await expect(connect('')).rejects.toThrow(/unauthorized/);
  });

  describe('bad input on widget routes gets a 4xx with a stable code and changes nothing', () => {
    let token: string;
    let conversationId: string;
    beforeAll(async () => {
      token = await visitor();
      conversationId = await openConversation(token);
    });
    const path = () => `/v1/widget/conversations/${conversationId}/messages`;
    const cases: {
      name: string;
      make: () => [string, Parameters<typeof request>[1]];
      code: keyof typeof ERROR_STATUS;
    }[] = [
      { name: 'broken JSON', make: () => [path(), { token, rawBody: '{"text"' }], code: 'invalid_json' },
      { name: 'no message_id', make: () => [path(), { token, body: { text: 'hi' } }], code: 'invalid_request' },
      {
        name: 'an unknown field',
        make: () => [path(), { token, body: { text: 'hi', message_id: 'a', author: 'ai' } }],
        code: 'invalid_request',
      },
      {
        name: 'text that is a number',
        make: () => [path(), { token, body: { text: 5, message_id: 'a' } }],
        code: 'invalid_request',
      },
      {
        name: 'a message_id with spaces',
        make: () => [path(), { token, body: { text: 'hi', message_id: 'a b' } }],
        code: 'invalid_request',
      },
      {
        name: 'text with the NUL character',
        make: () => [path(), { token, body: { text: 'hi\u0000there', message_id: 'nul' } }],
        code: 'invalid_request',
      },
      {
        name: 'a NUL character in the conversation id',
        make: () => ['/v1/widget/conversations/%00/messages', { token, body: { text: 'hi', message_id: 'a' } }],
        code: 'invalid_request',
      },
      {
        name: 'a cursor that is not a number',
        make: () => [`${path()}?after=abc`, { token }],
        code: 'invalid_request',
      },
      {
        name: 'a malformed conversation id',
        make: () => ['/v1/widget/conversations/not-a-uuid/messages', { token, body: { text: 'hi', message_id: 'a' } }],
        code: 'not_found',
      },
      {
        name: 'a site key instead of a token',
        make: () => [path(), { token: DEMO_SITE_KEY, body: { text: 'hi', message_id: 'a' } }],
        code: 'unauthorized',
      },
      {
        name: 'a forged token',
        make: () => [path(), { token: `${token.slice(0, -3)}abc`, body: { text: 'hi', message_id: 'a' } }],
        code: 'unauthorized',
      },
      { name: 'an unknown widget route', make: () => ['/v1/widget/everything', { token }], code: 'not_found' },
      {
        name: 'a widget file that does not exist',
        make: () => ['/widget/..%2F..%2Fpackage.json', {}],
        code: 'not_found',
      },
    ];
    it.each(cases)('$name → $code', async ({ make, code }) => {
      const [target, options] = make();
      const response = await request(stack.url + target, options);
      expect(response.status).toBe(ERROR_STATUS[code]);
      expect(response.body.error).toMatchObject({ code, message: expect.any(String) });
      expect(await messages(token, conversationId)).toEqual([]);
    });
  });

  it('answers a browser preflight from any page origin, and never with credentials', async () => {
    const response = await fetch(`${stack.url}/v1/widget-sessions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
