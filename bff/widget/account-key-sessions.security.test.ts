import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { engineConversationOf, request, startStack, type TestStack } from '../../test/stack.ts';
import { conversationIds, expectError, newSession } from '../../test/sessions-fixture.ts';
import { newTenant, platform, type Tenant } from '../../test/tenants.ts';
import { openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { ApiKey, Inbox, PlatformAccount, User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * Verified customers of an account with an engine account of its own: the account's site server
 * mints their sessions (`POST /v1/widget-sessions`) with an API key its administrators got from the
 * Application API. The session is for that account's inbox (`inbox_id`, or its first) and never
 * another account's; its conversations go to the engine under the account's own engine account.
 * The installation's key (AI_API_KEY) keeps minting for the default inbox.
 */
describe("verified sessions minted with an account's own API key", () => {
  let stack: TestStack;
  let shop: Tenant;
  let neighbour: Tenant;
  let shopKey: string;
  let neighbourKey: string;

  const apiKey = async (tenant: Tenant, environment: 'sandbox' | 'live') => {
    const made = await desk(`${stack.url}/api/v1/accounts/${tenant.accountId}/api_keys`, tenant.admin.access_token, {
      body: { environment },
    });
    expect(made.status).toBe(201);
    return ApiKey.parse(made.body).key!;
  };
  const inboxOf = async (token: string, conversationId: string) => {
    const [row] = await stack.bffSql.query<{ inbox_id: string }>('SELECT inbox_id FROM conversations WHERE uuid = $1', [
      conversationId,
    ]);
    expect(row, `conversation ${conversationId} of ${token.slice(0, 12)}…`).toBeDefined();
    return row!.inbox_id;
  };
  const inboxIdOf = async (tenant: Pick<Tenant, 'inbox'>) => {
    const [row] = await stack.bffSql.query<{ id: string }>('SELECT id FROM inboxes WHERE display_id = $1', [
      tenant.inbox.id,
    ]);
    return row!.id;
  };

  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    shop = await newTenant(stack, 'Session Shop');
    neighbour = await newTenant(stack, 'Session Neighbour');
    shopKey = await apiKey(shop, 'sandbox');
    neighbourKey = await apiKey(neighbour, 'sandbox');
  });
  afterAll(() => stack?.stop());

  it("mints a session for the account's first inbox, whose conversation reaches the engine under the account's own engine account", async () => {
    const minted = await newSession(stack.url, shopKey, { customer_ref: 'cust-4711', name: 'Bea' });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ customer_ref: 'cust-4711', verified: true });
    const conversation = await openWidgetConversation(stack.url, minted.body.token);
    expect(await inboxOf(minted.body.token, conversation.id)).toBe(await inboxIdOf(shop));
    expect(
      (await sendWidgetMessage(stack.url, minted.body.token, conversation.id, 'Where is order 4711?', 'm-1')).status,
    ).toBe(201);
    const engineId = await engineConversationOf(stack, conversation.id);
    const transcript = await request(`${stack.engineUrl}/v1/conversations/${engineId}/transcript`, {
      token: shop.engine.sandbox,
    });
    expect(transcript.status).toBe(200);
    expect(JSON.stringify(transcript.body)).toContain('Where is order 4711?');
    // Neither the installation's key nor the neighbour's own reads it.
    expect(
      (await request(`${stack.engineUrl}/v1/conversations/${engineId}/transcript`, { token: stack.apiKey })).status,
    ).toBe(404);
    expect(
      (await request(`${stack.engineUrl}/v1/conversations/${engineId}/transcript`, { token: neighbourKey })).status,
    ).toBe(404);
  });

  it("mints for the account's inbox that inbox_id names, and refuses another account's inbox with 422, minting nothing", async () => {
    const second = Inbox.parse(
      (
        await desk(`${stack.url}/api/v1/accounts/${shop.accountId}/inboxes`, shop.admin.access_token, {
          body: { name: 'Second shop chat' },
        })
      ).body,
    );
    const minted = await newSession(stack.url, shopKey, { customer_ref: 'cust-second', inbox_id: second.id });
    expect(minted.status).toBe(201);
    const conversation = await openWidgetConversation(stack.url, minted.body.token);
    const [row] = await stack.bffSql.query<{ display_id: number }>(
      'SELECT i.display_id FROM conversations c JOIN inboxes i ON i.id = c.inbox_id WHERE c.uuid = $1',
      [conversation.id],
    );
    expect(Number(row!.display_id)).toBe(second.id);

    const [demoInbox] = await stack.bffSql.query<{ display_id: number }>(
      'SELECT display_id FROM inboxes WHERE identifier = $1',
      [stack.inboxIdentifier],
    );
    for (const inboxId of [neighbour.inbox.id, Number(demoInbox!.display_id), 2_000_000_000]) {
      const refused = await newSession(stack.url, shopKey, { customer_ref: 'cust-elsewhere', inbox_id: inboxId });
      expectError(refused, 422, 'unprocessable');
    }
    // The neighbour's key cannot name the shop's inbox either.
    expectError(
      await newSession(stack.url, neighbourKey, { customer_ref: 'cust-elsewhere', inbox_id: shop.inbox.id }),
      422,
      'unprocessable',
    );
  });

  it("keeps two accounts' customers of the same reference apart", async () => {
    const atShop = (await newSession(stack.url, shopKey, { customer_ref: 'cust-same' })).body.token as string;
    const atNeighbour = (await newSession(stack.url, neighbourKey, { customer_ref: 'cust-same' })).body.token as string;
    const opened = await openWidgetConversation(stack.url, atShop);
    expect(await conversationIds(stack.url, atShop)).toEqual([opened.id]);
    expect(await conversationIds(stack.url, atNeighbour)).toEqual([]);
    expect(
      (await request(`${stack.url}/v1/widget/conversations/${opened.id}/messages`, { token: atNeighbour })).status,
    ).toBe(404);
  });

  it("lets a key revoke only sessions of its own account's inboxes", async () => {
    const target = (await newSession(stack.url, shopKey, { customer_ref: `cust-${randomToken(6)}` })).body
      .token as string;
    const works = async () => (await request(`${stack.url}/v1/widget/conversations`, { token: target })).status === 200;
    expect(await works()).toBe(true);
    for (const key of [neighbourKey, stack.apiKey]) {
      expect(
        (await request(`${stack.url}/v1/widget-sessions/revoke`, { token: key, body: { token: target } })).status,
      ).toBe(204);
      expect(await works()).toBe(true);
    }
    expect(
      (await request(`${stack.url}/v1/widget-sessions/revoke`, { token: shopKey, body: { token: target } })).status,
    ).toBe(204);
    expect(await works()).toBe(false);
  });

  it("lets a sandbox key revoke no live customer's session, however the inbox is shared", async () => {
    expect(stack.liveApiKey).toBeDefined();
    const target = (await newSession(stack.url, stack.liveApiKey!, { customer_ref: `live-${randomToken(6)}` })).body
      .token as string;
    const works = async () => (await request(`${stack.url}/v1/widget/conversations`, { token: target })).status === 200;
    expect(await works()).toBe(true);
    expect(
      (await request(`${stack.url}/v1/widget-sessions/revoke`, { token: stack.apiKey, body: { token: target } }))
        .status,
    ).toBe(204);
    expect(await works()).toBe(true);
    expect(
      (await request(`${stack.url}/v1/widget-sessions/revoke`, { token: stack.liveApiKey!, body: { token: target } }))
        .status,
    ).toBe(204);
    expect(await works()).toBe(false);
  });

  it("keeps minting the installation's verified sessions for the default inbox, and refuses it an account's own inbox", async () => {
    const minted = await newSession(stack.url, stack.apiKey, { customer_ref: 'cust-demo' });
    expect(minted.status).toBe(201);
    const conversation = await openWidgetConversation(stack.url, minted.body.token);
    const [row] = await stack.bffSql.query<{ identifier: string }>(
      'SELECT i.identifier FROM conversations c JOIN inboxes i ON i.id = c.inbox_id WHERE c.uuid = $1',
      [conversation.id],
    );
    expect(row!.identifier).toBe(stack.inboxIdentifier);
    expectError(
      await newSession(stack.url, stack.apiKey, { customer_ref: 'cust-demo', inbox_id: shop.inbox.id }),
      422,
      'unprocessable',
    );
  });

  it('answers bad bodies with 400, an account without an inbox with 422, and a suspended account with 403', async () => {
    for (const body of [
      { customer_ref: 'c', inbox_id: 0 },
      { customer_ref: 'c', inbox_id: -1 },
      { customer_ref: 'c', inbox_id: 1.5 },
      { customer_ref: 'c', inbox_id: '1' },
      { customer_ref: 'c', inbox_id: 2 ** 40 },
      { inbox_id: 1 },
    ]) {
      expectError(await newSession(stack.url, shopKey, body), 400, 'invalid_request');
    }
    expect(
      (await request(`${stack.url}/v1/widget-sessions`, { token: shopKey, rawBody: '{"customer_ref":' })).status,
    ).toBe(400);

    const bare = PlatformAccount.parse(
      (await platform(stack, '/accounts', { method: 'POST', body: { name: 'No Inbox Yet' } })).body,
    );
    const owner = User.parse(
      (await platform(stack, '/users', { method: 'POST', body: { name: 'Nia', email: 'nia@no-inbox.example' } })).body,
    );
    await platform(stack, `/accounts/${bare.id}/account_users`, {
      method: 'POST',
      body: { user_id: owner.id, role: 'administrator' },
    });
    const bareKey = ApiKey.parse(
      (
        await desk(`${stack.url}/api/v1/accounts/${bare.id}/api_keys`, owner.access_token!, {
          body: { environment: 'live' },
        })
      ).body,
    ).key!;
    const refused = await newSession(stack.url, bareKey, { customer_ref: 'cust-1' });
    expectError(refused, 422, 'unprocessable');
    expect(refused.body.error.message).toMatch(/no inbox/);

    expect(
      (await platform(stack, `/accounts/${neighbour.accountId}`, { method: 'PATCH', body: { status: 'suspended' } }))
        .status,
    ).toBe(200);
    expectError(await newSession(stack.url, neighbourKey, { customer_ref: 'cust-1' }), 403, 'account_suspended');
    expect(
      (await platform(stack, `/accounts/${neighbour.accountId}`, { method: 'PATCH', body: { status: 'active' } }))
        .status,
    ).toBe(200);
    expect((await newSession(stack.url, neighbourKey, { customer_ref: 'cust-1' })).status).toBe(201);
  });
});
