import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/index.ts';
import { parseSessionKeys, SessionTokens } from '../../shared/server/index.ts';
import { DEMO_SITE_KEY, request, startEngine, startStack, type TestEngine, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { connectWidget } from '../../test/widget-client.ts';
import { SOCKETS_PER_SESSION } from './socket.ts';
import { expectError, handshake, newSession, openConversation } from '../../test/sessions-fixture.ts';
import { VISITOR_LIFETIME_S } from './sessions.ts';

const SESSION_KEYS = `k1:${Buffer.alloc(32, 9).toString('base64url')}`;

/**
 * A token speaks for one customer of one of this BFF's inboxes, minted by a key of this BFF's own
 * account; it ends with its expiry or revocation on every open socket; a visitor identity does not
 * renew for ever. Two tenants share one engine and one session key set here, as a careless
 * installation would.
 */
describe('what a widget session token is bound to', () => {
  let engine: TestEngine;
  let stack: TestStack;
  const tokens = new SessionTokens(parseSessionKeys(SESSION_KEYS));

  beforeAll(async () => {
    engine = await startEngine(undefined, undefined, { tokens });
    stack = await startStack(undefined, { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys, SESSION_KEYS });
  });
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
  });

  it("refuses a token another tenant's key minted at the shared engine, and takes one of its own account's", async () => {
    const victim = `cust-${randomToken(6)}`;
    // The shop's own server opens a conversation for its customer.
    const own = await request(`${engine.url}/v1/widget-sessions`, {
      token: engine.apiKey,
      body: { customer_ref: victim },
    });
    expect(own.status).toBe(201);
    const opened = await openConversation(stack.url, own.body.token);
    expect(opened.status).toBe(201);

    // Another tenant of the same engine mints a token for the same customer_ref with its own key.
    const { key } = await engine.issueKey({ otherAccount: true });
    const foreign = await request(`${engine.url}/v1/widget-sessions`, { token: key, body: { customer_ref: victim } });
    expect(foreign.status).toBe(201);
    expectError(
      await request(`${stack.url}/v1/widget/conversations`, { token: foreign.body.token }),
      401,
      'unauthorized',
    );
    expectError(
      await request(`${stack.url}/v1/widget/conversations/${opened.body.id}/messages`, { token: foreign.body.token }),
      401,
      'unauthorized',
    );
    expect(await handshake(stack.url, foreign.body.token)).toBe('unauthorized');
  });

  it("keeps a sandbox key's verified customers apart from the live ones of the same reference", async () => {
    const live = await newSession(stack.url, engine.liveApiKey, { customer_ref: 'cust-shared' });
    expect(live.status).toBe(201);
    const opened = await openConversation(stack.url, live.body.token);
    expect(opened.status).toBe(201);
    // The sandbox key of the same account, for the same reference: none of the live customer's conversations.
    const sandbox = await newSession(stack.url, engine.apiKey, { customer_ref: 'cust-shared' });
    expect(sandbox.status).toBe(201);
    expect(
      (await request(`${stack.url}/v1/widget/conversations`, { token: sandbox.body.token })).body.conversations,
    ).toEqual([]);
    expectError(
      await request(`${stack.url}/v1/widget/conversations/${opened.body.id}`, { token: sandbox.body.token }),
      404,
      'not_found',
    );
    expect(
      (await request(`${stack.url}/v1/widget/config`, { token: sandbox.body.token })).body.customer.customer_ref,
    ).toBe('cust-shared');
  });

  it.each(['vis_AAAAAAAAAAAAAAAAAAAAAA', 'ctc_1', 'test:cust-1'])(
    'refuses a verified customer named %s: that name is one Parley gives',
    async (customerRef) => {
      expectError(await newSession(stack.url, engine.apiKey, { customer_ref: customerRef }), 400, 'invalid_request');
      expect(
        (
          await request(`${engine.url}/v1/widget-sessions`, {
            token: engine.apiKey,
            body: { customer_ref: customerRef },
          })
        ).status,
      ).toBe(400);
    },
  );

  it('refuses a token for an inbox this BFF does not have, and one that names neither inbox nor account', async () => {
    const elsewhere = await tokens.issue(
      { customerRef: 'vis_somebody', inboxId: 'inb_of_another_bff', verified: false, environment: 'sandbox' },
      600,
    );
    expectError(await request(`${stack.url}/v1/widget/config`, { token: elsewhere.token }), 401, 'unauthorized');
    expect(await handshake(stack.url, elsewhere.token)).toBe('unauthorized');
    const nameless = await tokens.issue({ customerRef: 'cust-1', verified: true, environment: 'sandbox' }, 600);
    expectError(await request(`${stack.url}/v1/widget/config`, { token: nameless.token }), 401, 'unauthorized');
  });

  it('does not renew a visitor whose identity is older than the visitor lifetime: they become a new visitor', async () => {
    const first = await newSession(stack.url, DEMO_SITE_KEY, {});
    const { inboxId, customerRef } = await tokens.verify(first.body.token);
    const young = await tokens.issue(
      {
        customerRef,
        inboxId,
        verified: false,
        environment: 'sandbox',
        identitySince: new Date(Date.now() - (VISITOR_LIFETIME_S - 3600) * 1000),
      },
      600,
    );
    expect((await newSession(stack.url, DEMO_SITE_KEY, { token: young.token })).body.customer_ref).toBe(customerRef);
    const old = await tokens.issue(
      {
        customerRef,
        inboxId,
        verified: false,
        environment: 'sandbox',
        identitySince: new Date(Date.now() - (VISITOR_LIFETIME_S + 60) * 1000),
      },
      600,
    );
    const renewed = await newSession(stack.url, DEMO_SITE_KEY, { token: old.token });
    expect(renewed.status).toBe(201);
    expect(renewed.body.customer_ref).not.toBe(customerRef);
    // The new identity starts now, and is carried by its renewals.
    expect((await tokens.verify(renewed.body.token)).identitySince.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('closes a socket when its token expires', async () => {
    // Three seconds (whole seconds, so at least two): time for the handshake on a loaded machine.
    const first = await newSession(stack.url, DEMO_SITE_KEY, {});
    const claims = await tokens.verify(first.body.token);
    const brief = await tokens.issue(
      { customerRef: claims.customerRef, inboxId: claims.inboxId, verified: false, environment: 'sandbox' },
      3,
    );
    const { socket } = await connectWidget(stack.url, brief.token);
    const reason = await new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect(reason).toBe('io server disconnect');
    expect(Date.now()).toBeGreaterThanOrEqual(brief.expiresAt.getTime() - 50);
  });

  it('caps the open sockets of one session, and serves no one on the main namespace', async () => {
    const { body } = await newSession(stack.url, DEMO_SITE_KEY, {});
    const tabs = await Promise.all(
      Array.from({ length: SOCKETS_PER_SESSION }, () => connectWidget(stack.url, body.token)),
    );
    expect(await handshake(stack.url, body.token)).toBe('rate_limited');
    tabs[0]!.socket.close();
    // The server frees the place when it sees the disconnect, which on a busy machine may take a while.
    expect(
      await until(
        () => handshake(stack.url, body.token),
        (result) => result === 'connected',
        'a place freed by the closed tab',
      ),
    ).toBe('connected');
    for (const tab of tabs) tab.socket.close();

    const main = io(stack.url, { transports: ['websocket'], reconnection: false, auth: { token: body.token } });
    const refused = await new Promise<string>((resolve) => {
      main.once('connect', () => resolve('connected'));
      main.once('connect_error', (error) => resolve(error.message));
    });
    main.close();
    expect(refused).toMatch(/^unauthorized/);
  });
});
