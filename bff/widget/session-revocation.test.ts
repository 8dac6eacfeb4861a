import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/index.ts';
import { DEMO_API_KEY, DEMO_SITE_KEY, DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { connectWidget, newVisitor } from '../../test/widget-client.ts';
import {
  newSession,
  listConversations,
  openConversation,
  conversationIds,
  expectError,
  handshake,
} from '../../test/sessions-fixture.ts';

/** Revoking widget session tokens: the deny-list, on both drivers, over HTTP and Socket.IO. */

describe.each(DRIVERS)('revoking session tokens (deny-list) on $name', (driver) => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack(driver);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const visitor = () => newVisitor(stack.url);
  const works = async (token: string) => (await listConversations(stack.url, token)).status === 200;

  it('ends the visitor as a whole with DELETE /v1/widget-sessions/current: this token and every other of theirs, on HTTP and the socket', async () => {
    const first = await visitor();
    const opened = await openConversation(stack.url, first.token);
    expect(opened.status).toBe(201);
    const second = await newSession(stack.url, DEMO_SITE_KEY, { token: first.token });
    expect(second.body.customer_ref).toBe(first.customer_ref);
    expect(await handshake(stack.url, first.token)).toBe('connected');
    // Both tabs' sockets are open when the visitor is ended.
    const sockets = await Promise.all([first.token, second.body.token].map((token) => connectWidget(stack.url, token)));
    const closed = sockets.map(({ socket }) => new Promise<string>((resolve) => socket.once('disconnect', resolve)));

    const ended = await request(`${stack.url}/v1/widget-sessions/current`, { method: 'DELETE', token: first.token });
    expect(ended.status).toBe(204);

    // The revoked token's socket is closed by the server at once; the other token no longer connects.
    expect(await closed[0]).toBe('io server disconnect');
    sockets[1]!.socket.close();
    for (const token of [first.token, second.body.token]) {
      expectError(await listConversations(stack.url, token), 401, 'unauthorized');
      expectError(await openConversation(stack.url, token), 401, 'unauthorized');
      expectError(await request(`${stack.url}/v1/widget/config`, { token }), 401, 'unauthorized');
      expect(await handshake(stack.url, token)).toBe('unauthorized');
    }
    expectError(
      await request(`${stack.url}/v1/widget-sessions/current`, { method: 'DELETE', token: first.token }),
      401,
      'unauthorized',
    );
    // Neither renews the visitor.
    const renewed = await newSession(stack.url, DEMO_SITE_KEY, { token: second.body.token });
    expect(renewed.body.customer_ref).not.toBe(first.customer_ref);
  });

  it('ends a sandbox verified customer as a whole too: their other tokens stop working, a message sent with one included, and nothing is kept', async () => {
    const customerRef = `cust-end-${randomToken(6)}`;
    const [first, second] = [
      await newSession(stack.url, DEMO_API_KEY, { customer_ref: customerRef }),
      await newSession(stack.url, DEMO_API_KEY, { customer_ref: customerRef }),
    ];
    expect([first.status, second.status]).toEqual([201, 201]);
    const opened = await openConversation(stack.url, second.body.token);
    expect(opened.status).toBe(201);
    expect(
      (await request(`${stack.url}/v1/widget-sessions/current`, { method: 'DELETE', token: first.body.token })).status,
    ).toBe(204);

    expectError(await listConversations(stack.url, second.body.token), 401, 'unauthorized');
    const sent = await request(`${stack.url}/v1/widget/conversations/${opened.body.id}/messages`, {
      token: second.body.token,
      body: { text: 'Still there?', message_id: 'after-end' },
    });
    expectError(sent, 401, 'unauthorized');
    const kept = await stack.bffSql.query("SELECT 1 FROM messages WHERE message_id = 'after-end'");
    expect(kept).toEqual([]);
    // A token the API key gives right afterwards, within the same second, is a new start for that customer.
    const again = await newSession(stack.url, DEMO_API_KEY, { customer_ref: customerRef });
    expect((await listConversations(stack.url, again.body.token)).status).toBe(200);
  });

  it('does not renew a revoked token into the same visitor: the site key gives a new one', async () => {
    const first = await visitor();
    expect((await openConversation(stack.url, first.token)).status).toBe(201);
    expect(
      (await request(`${stack.url}/v1/widget-sessions/current`, { method: 'DELETE', token: first.token })).status,
    ).toBe(204);
    const renewed = await newSession(stack.url, DEMO_SITE_KEY, { token: first.token });
    expect(renewed.status).toBe(201);
    expect(renewed.body.customer_ref).toMatch(/^vis_/);
    expect(renewed.body.customer_ref).not.toBe(first.customer_ref);
    expect(await conversationIds(stack.url, renewed.body.token)).toEqual([]);
  });

  it("revokes a customer's token with POST /v1/widget-sessions/revoke and the API key, and with nothing else", async () => {
    const customerRef = `cust-${randomToken(8)}`;
    const target = (await newSession(stack.url, stack.apiKey, { customer_ref: customerRef })).body.token as string;
    const sibling = (await newSession(stack.url, stack.apiKey, { customer_ref: customerRef })).body.token as string;
    expect(await works(target)).toBe(true);

    const someVisitor = await visitor();
    for (const credential of [DEMO_SITE_KEY, someVisitor.token, target, `service_test_${randomToken(32)}`]) {
      expectError(
        await request(`${stack.url}/v1/widget-sessions/revoke`, { token: credential, body: { token: target } }),
        401,
        'unauthorized',
      );
      expect(await works(target)).toBe(true);
    }

    const revoked = await request(`${stack.url}/v1/widget-sessions/revoke`, {
      token: stack.apiKey,
      body: { token: target },
    });
    expect(revoked.status).toBe(204);
    expectError(await listConversations(stack.url, target), 401, 'unauthorized');
    expect(await handshake(stack.url, target)).toBe('unauthorized');
    expect(await works(sibling)).toBe(true);
    expect(await works(someVisitor.token)).toBe(true);
  });
});
