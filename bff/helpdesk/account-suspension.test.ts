import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_NAMESPACE } from '../client-api/realtime.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { request, startEngine, startStack, type TestEngine, type TestStack } from '../../test/stack.ts';
import { connectWidget, newVisitor, openWidgetConversation } from '../../test/widget-client.ts';
import {
  bffSecrets,
  clientCustomerWrites,
  newTenant,
  platform,
  tenantWebhooks,
  type Tenant,
} from '../../test/tenants.ts';
import { findEngineAccount } from '../engine-link/engine-accounts-store.ts';

/**
 * Issue 26: the operator's suspension and deletion of an account (Platform API PATCH status,
 * DELETE) reach everything of it at once: its people's tokens, its Client API and its contacts'
 * sockets, its site keys, the session tokens and open widget sockets of its customers, and its own
 * engine account's keys. Resuming lets them all back in; deleting removes the engine account.
 */
describe('suspending and deleting an account reaches its people, customers and engine account', () => {
  let stack: TestStack;
  let shop: Tenant;

  const engine = (path: string, token: string) => request(`${stack.engineUrl}${path}`, { token });
  const setStatus = (status: 'active' | 'suspended') =>
    platform(stack, `/accounts/${shop.accountId}`, { method: 'PATCH', body: { status } });

  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    shop = await newTenant(stack, 'Suspended Shop');
  });
  afterAll(() => stack?.stop());

  it('refuses a suspended account at once with 403 account_suspended, closes its open sockets, and lets everything back in when it is resumed', async () => {
    const visitor = await newVisitor(stack.url, shop.siteKey);
    const conversation = await openWidgetConversation(stack.url, visitor.token);
    const widget = await connectWidget(stack.url, visitor.token);
    const customer = await clientCustomerWrites(stack, shop.inbox.inbox_identifier, 'Hello from a contact.');
    const contactSocket = io(stack.url + CLIENT_NAMESPACE, {
      auth: { pubsub_token: customer.pubsubToken },
      transports: ['websocket'],
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      contactSocket.once('connect', () => resolve());
      contactSocket.once('connect_error', reject);
    });
    const widgetClosed = new Promise<void>((resolve) => widget.socket.once('disconnect', () => resolve()));
    const contactClosed = new Promise<void>((resolve) => contactSocket.once('disconnect', () => resolve()));

    const person = () => desk(`${stack.url}/api/v1/accounts/${shop.accountId}`, shop.admin.access_token);
    const clientApi = () => request(`${stack.url}/public/api/v1/inboxes/${shop.inbox.inbox_identifier}`);
    const siteKey = () => request(`${stack.url}/v1/widget-sessions`, { token: shop.siteKey, body: {} });
    const sessionToken = () =>
      request(`${stack.url}/v1/widget/conversations/${conversation.id}/messages`, { token: visitor.token });
    const sendAsCustomer = () =>
      request(`${stack.url}/v1/widget/conversations/${conversation.id}/messages`, {
        token: visitor.token,
        body: { text: 'Still there?', message_id: `m-${Date.now()}` },
      });
    const engineKey = () => engine('/v1/me', shop.engine.sandbox);
    for (const call of [person, clientApi, siteKey, sessionToken, engineKey])
      expect((await call()).status, call.name).toBeLessThan(300);

    expect((await setStatus('suspended')).body.status).toBe('suspended');
    await widgetClosed;
    await contactClosed;
    const refusals = {
      person: await person(),
      clientApi: await clientApi(),
      siteKey: await siteKey(),
      sessionToken: await sessionToken(),
      send: await sendAsCustomer(),
      engineKey: await engineKey(),
    };
    for (const [what, response] of Object.entries(refusals)) {
      expect(response.status, what).toBe(403);
      const code = response.body.error?.code ?? response.body.errors?.[0]?.code;
      expect(code, what).toBe('account_suspended');
    }
    // The console's socket and a widget's new socket are refused at the handshake.
    const refusedWidget = await connectWidget(stack.url, visitor.token).then(
      () => 'connected',
      (error: Error & { data?: { code?: string } }) => error.data?.code,
    );
    expect(refusedWidget).toBe('account_suspended');
    const consoleSocket = io(`${stack.url}/desk`, {
      auth: { token: shop.admin.access_token, account_id: shop.accountId },
      transports: ['websocket'],
      reconnection: false,
    });
    const consoleRefusal = await new Promise<string | undefined>((resolve) => {
      consoleSocket.once('connect', () => resolve('connected'));
      consoleSocket.once('connect_error', (error: Error & { data?: { code?: string } }) => resolve(error.data?.code));
    });
    consoleSocket.close();
    expect(consoleRefusal).toBe('account_suspended');
    // Nothing the customer sent while suspended was kept.
    expect(await stack.bffSql.query("SELECT 1 FROM messages WHERE text = 'Still there?'")).toHaveLength(0);

    expect((await setStatus('active')).body.status).toBe('active');
    for (const call of [person, clientApi, siteKey, sessionToken, engineKey, sendAsCustomer])
      expect((await call()).status, call.name).toBeLessThan(300);
    const back = await connectWidget(stack.url, visitor.token);
    back.socket.close();
  });

  it('makes an account suspended from the start: its engine keys are refused until it is resumed, and its webhooks are made then', async () => {
    const made = await platform(stack, '/accounts', {
      method: 'POST',
      body: { name: 'Paused from the start', status: 'suspended' },
    });
    expect(made.status).toBe(200);
    const accountId = made.body.id as number;
    const [stored] = await stack.bffSql.query<{ webhooks: string | null }>(
      'SELECT webhooks FROM engine_accounts WHERE account_id = $1',
      [accountId],
    );
    expect(stored!.webhooks).toBeNull();
    const keys = (await findEngineAccount(stack.bffSql, bffSecrets(), accountId))!.apiKeys;
    expect((await engine('/v1/me', keys.live)).body.error.code).toBe('account_suspended');
    expect(
      (await platform(stack, `/accounts/${accountId}`, { method: 'PATCH', body: { status: 'active' } })).status,
    ).toBe(200);
    expect((await engine('/v1/me', keys.live)).status).toBe(200);
    expect(await tenantWebhooks(stack, { accountId })).toHaveLength(2);
  });

  it("deletes the account's engine account with it: its keys answer 401 and what the engine held of it is gone", async () => {
    const other = await newTenant(stack, 'Closing Shop');
    const customer = await clientCustomerWrites(stack, other.inbox.inbox_identifier, 'Please close my account.');
    expect((await engine(`/v1/conversations/${customer.engineId}/transcript`, other.engine.live)).status).toBe(200);

    expect((await platform(stack, `/accounts/${other.accountId}`, { method: 'DELETE' })).status).toBe(200);
    for (const key of [other.engine.sandbox, other.engine.live]) {
      const refused = await engine('/v1/me', key);
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('unauthorized');
    }
    expect(
      await stack.bffSql.query('SELECT 1 FROM engine_accounts WHERE account_id = $1', [other.accountId]),
    ).toHaveLength(0);
    // Its inbox's keys and identifiers went with it; the suspended-then-resumed shop is untouched.
    expect((await request(`${stack.url}/public/api/v1/inboxes/${other.inbox.inbox_identifier}`)).status).toBe(404);
    expect((await engine('/v1/me', shop.engine.live)).status).toBe(200);
  });
});

describe('making accounts with the engine elsewhere (AI_API_URL)', () => {
  let engine: TestEngine;
  let stack: TestStack | undefined;

  beforeAll(async () => {
    engine = await startEngine();
  });
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
  });

  it('answers 503 not_configured without AI_OPERATOR_TOKEN, and makes nothing', async () => {
    stack = await startStack(
      undefined,
      { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys, DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN },
      { feedPollMs: 0 },
    );
    const refused = await platform(stack, '/accounts', { method: 'POST', body: { name: 'No engine account' } });
    expect(refused.status).toBe(503);
    expect(refused.body.errors[0].code).toBe('not_configured');
    expect(refused.body.description).toMatch(/AI_OPERATOR_TOKEN/);
    expect(await stack.bffSql.query("SELECT 1 FROM accounts WHERE name = 'No engine account'")).toHaveLength(0);
    await stack.stop();
    stack = undefined;
  });

  it('makes each account an engine account of its own with AI_OPERATOR_TOKEN', async () => {
    stack = await startStack(
      undefined,
      {
        AI_API_URL: engine.url,
        AI_API_KEY: engine.apiKeys,
        AI_OPERATOR_TOKEN: engine.operatorToken,
        DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN,
      },
      { feedPollMs: 0 },
    );
    const shop = await newTenant(stack, 'Remote Shop');
    const me = await request(`${engine.url}/v1/me`, { token: shop.engine.live });
    expect(me.status).toBe(200);
    expect(me.body.account_id).toBe(shop.engine.accountId);
    expect(me.body.account_id).not.toBe(engine.accountId);
  });
});
