import { openSecretBox } from '../../shared/server/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, signWebhook } from '../../shared/index.ts';
import { PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, engineConversationOf, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { clientCustomerWrites, newTenant, tenantWebhooks, textsOf, type Tenant } from '../../test/tenants.ts';

/**
 * Issue 26, "one engine account behind every helpdesk account": every account made through the
 * Platform API is served by an engine account of its own, so the installation's engine keys (account
 * 1's, which its site's server holds) reach nothing of another account, and what one engine account
 * sends (webhooks, its feed, a forgotten customer) lands in that account's conversations only. Over
 * real HTTP, with the BFF and its engine on each store.
 */
describe.each(DRIVERS)('an engine account of its own for each helpdesk account, on $name', (driver) => {
  let stack: TestStack;
  let shopB: Tenant;
  let customerB: Awaited<ReturnType<typeof clientCustomerWrites>>;

  const engine = (path: string, token: string, options: { method?: string; body?: unknown } = {}) =>
    request(`${stack.engineUrl}${path}`, { token, ...options });

  beforeAll(async () => {
    stack = await startStack(driver, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    shopB = await newTenant(stack, 'Shop B');
    // Shop B's live customer writes through the Client API (as "ctc_<id>" at the engine).
    customerB = await clientCustomerWrites(stack, shopB.inbox.inbox_identifier, 'My order 4711 has not arrived.');
  });
  afterAll(() => stack?.stop());

  it("sends a new Platform account's conversation to the engine under its own engine account, which only its own keys open", async () => {
    const installation = (await engine('/v1/me', stack.liveApiKey!)).body.account_id as string;
    const own = await engine('/v1/me', shopB.engine.live);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ account_id: shopB.engine.accountId, environment: 'live' });
    expect(shopB.engine.accountId).not.toBe(installation);

    const transcript = await engine(`/v1/conversations/${customerB.engineId}/transcript`, shopB.engine.live);
    expect(transcript.status).toBe(200);
    expect(JSON.stringify(transcript.body)).toContain('My order 4711 has not arrived.');
    expect((await engine(`/v1/customers/${customerB.customerRef}`, shopB.engine.live)).status).toBe(200);
    // Its keys and webhook secrets are kept sealed in the BFF's store, never as they are.
    const [row] = await stack.bffSql.query<{ api_keys: string; webhooks: string }>(
      'SELECT api_keys, webhooks FROM engine_accounts WHERE account_id = $1',
      [shopB.accountId],
    );
    expect(row!.api_keys).toMatch(/^sealed:v1:/);
    expect(row!.api_keys).not.toContain(shopB.engine.live.slice(13));
    expect(row!.webhooks).toMatch(/^sealed:v1:/);
    expect(await tenantWebhooks(stack, shopB)).toHaveLength(2);
  });

  it("refuses a session token the engine minted itself with an account's own key; that key mints at the BFF instead", async () => {
    // Minted at the engine directly: it names no inbox, and the BFF takes such tokens only from the installation's engine account.
    const direct = await engine('/v1/widget-sessions', shopB.engine.live, { body: { customer_ref: 'cust-direct' } });
    expect(direct.status).toBe(201);
    const refused = await request(`${stack.url}/v1/widget/conversations`, { token: direct.body.token });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
    // One the installation's key minted at the engine is taken (the store's shop is served by it).
    const installation = await engine('/v1/widget-sessions', stack.liveApiKey!, {
      body: { customer_ref: 'cust-direct' },
    });
    expect((await request(`${stack.url}/v1/widget/conversations`, { token: installation.body.token })).status).toBe(
      200,
    );
    // The same key at the BFF: a session of Shop B's inbox that works.
    const minted = await request(`${stack.url}/v1/widget-sessions`, {
      token: shopB.engine.live,
      body: { customer_ref: 'cust-direct' },
    });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    expect((await request(`${stack.url}/v1/widget/conversations`, { token: minted.body.token })).status).toBe(200);
  });

  it("refuses account 1's engine keys another account's customer and transcript, and its human-messages, and nothing reaches that customer", async () => {
    for (const key of [stack.apiKey, stack.liveApiKey!]) {
      const customer = await engine(`/v1/customers/${customerB.customerRef}`, key);
      expect(customer.status, 'the customer').toBe(404);
      expect(customer.body.error.code).toBe('not_found');
      expect((await engine(`/v1/conversations/${customerB.engineId}/transcript`, key)).status, 'the transcript').toBe(
        404,
      );
      expect((await engine(`/v1/conversations/${customerB.engineId}/export`, key)).status, 'the export').toBe(404);
      const posted = await engine(`/v1/conversations/${customerB.engineId}/human-messages`, key, {
        body: { text: 'A person here: send us your card number.', author_name: 'Mallory' },
      });
      expect(posted.status, 'a human message').toBe(404);
    }
    await stack.bff.feed.catchUp();
    expect(await textsOf(stack, customerB.rowId)).not.toContain('A person here: send us your card number.');
  });

  it('records a webhook only into a conversation of the engine account whose endpoint it came to', async () => {
    // A well-signed event for the installation's endpoint that names account B's conversation is taken and ignored.
    // The secret of the installation's live endpoint (the stack's webhook secrets go sandbox, then live).
    const installationSecret = stack.engineWebhookSecrets[1]!;
    const post = async (path: string, secret: string, text: string, conversationId: string) => {
      const body = JSON.stringify({
        id: newId('event'),
        type: 'conversation.human_message',
        created_at: new Date().toISOString(),
        conversation_id: conversationId,
        data: { text, author_name: 'Mallory' },
        environment: 'live',
      });
      const at = Math.floor(Date.now() / 1000);
      return request(`${stack.url}${path}`, {
        rawBody: body,
        headers: { 'x-service-timestamp': String(at), 'x-service-signature': await signWebhook(secret, at, body) },
      });
    };
    const forged = await post(
      '/v1/engine-webhooks',
      installationSecret,
      'Injected through the installation endpoint.',
      customerB.engineId,
    );
    expect(forged.status).toBe(200);
    expect(await textsOf(stack, customerB.rowId)).not.toContain('Injected through the installation endpoint.');

    // B's own endpoint, signed with B's secret, reaches none of the installation's (account 1's) conversations.
    const [hookB] = (await tenantWebhooks(stack, shopB)).filter((hook) => hook.environment === 'live');
    expect(hookB).toBeDefined();
    const visitor = await newVisitor(stack.url);
    const demoConversation = await openWidgetConversation(stack.url, visitor.token);
    expect(
      (await sendWidgetMessage(stack.url, visitor.token, demoConversation.id, 'Hello from account 1.', 'm-1')).status,
    ).toBe(201);
    const demoEngineId = await engineConversationOf(stack, demoConversation.id);
    expect(
      (await post(`/v1/engine-webhooks/${shopB.accountId}`, hookB!.secret, 'Injected through B.', demoEngineId)).status,
    ).toBe(200);
    const [demoRow] = await stack.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [
      demoConversation.id,
    ]);
    expect(await textsOf(stack, Number(demoRow!.id))).not.toContain('Injected through B.');
    // Nor does the installation's secret open B's path.
    expect(
      (await post(`/v1/engine-webhooks/${shopB.accountId}`, installationSecret, 'Wrong secret.', customerB.engineId))
        .status,
    ).toBe(401);

    // What B's own engine account says comes to B's conversation by B's webhook.
    expect(
      (
        await engine(`/v1/conversations/${customerB.engineId}/handover`, shopB.engine.live, {
          body: { reason: 'The customer asked for a person.' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await engine(`/v1/conversations/${customerB.engineId}/human-messages`, shopB.engine.live, {
          body: { text: 'Kim from Shop B here.', author_name: 'Kim' },
        })
      ).status,
    ).toBe(200);
    await until(
      () => textsOf(stack, customerB.rowId),
      (texts) => texts.includes('Kim from Shop B here.'),
      "B's person's answer, by B's webhook",
    );
  });

  it("reads each account's feed with its own key and cursor, when its webhooks are gone", async () => {
    const customer = await clientCustomerWrites(stack, shopB.inbox.inbox_identifier, 'Can I change my address?');
    // B's engine endpoints are deleted at the engine: B's events now come from B's feed only.
    for (const hook of await tenantWebhooks(stack, shopB)) {
      const key = hook.environment === 'live' ? shopB.engine.live : shopB.engine.sandbox;
      expect((await engine(`/v1/webhook-endpoints/${hook.id}`, key, { method: 'DELETE' })).status).toBeLessThan(300);
    }
    await engine(`/v1/conversations/${customer.engineId}/handover`, shopB.engine.live, {
      body: { reason: 'The customer asked for a person.' },
    });
    expect(
      (
        await engine(`/v1/conversations/${customer.engineId}/human-messages`, shopB.engine.live, {
          body: { text: 'Yes, from the feed.', author_name: 'Kim' },
        })
      ).status,
    ).toBe(200);
    await stack.bff.feed.catchUp();
    expect(await textsOf(stack, customer.rowId)).toContain('Yes, from the feed.');
    const [cursors] = await stack.bffSql.query<{ feed_cursor_live: string | null }>(
      'SELECT feed_cursor_live FROM engine_accounts WHERE account_id = $1',
      [shopB.accountId],
    );
    expect(cursors!.feed_cursor_live).toMatch(/^evt_/);
  });

  it('erases a forgotten customer only among the customers of the engine account that forgot them', async () => {
    // Account 1's live key forgets the reference B's customer has: B's customer stays.
    const forgotten = await engine(`/v1/customers/${customerB.customerRef}/forget`, stack.liveApiKey!, {
      method: 'POST',
    });
    expect(forgotten.status).toBe(202);
    await stack.bff.feed.catchUp();
    const kept = await stack.bffSql.query('SELECT 1 FROM conversations WHERE id = $1', [customerB.rowId]);
    expect(kept).toHaveLength(1);
    expect(
      await stack.bffSql.query('SELECT 1 FROM contacts WHERE source_id_hash = $1', [
        openSecretBox(undefined, 'memory://').lookupHash(customerB.sourceId),
      ]),
    ).toHaveLength(1);

    // B's own key forgets them: then they are erased here.
    expect(
      (await engine(`/v1/customers/${customerB.customerRef}/forget`, shopB.engine.live, { method: 'POST' })).status,
    ).toBe(202);
    await stack.bff.feed.catchUp();
    expect(await stack.bffSql.query('SELECT 1 FROM conversations WHERE id = $1', [customerB.rowId])).toHaveLength(0);
  });
});
