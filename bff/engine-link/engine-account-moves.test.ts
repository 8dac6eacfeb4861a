import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetMessage } from '../../shared/index.ts';
import { PLATFORM_TOKEN, desk } from '../../test/helpdesk-client.ts';
import { DRIVERS, engineConversationOf, logger, request, startStack, type TestStack } from '../../test/stack.ts';
import { bffSecrets, newTenant, platform } from '../../test/tenants.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { insertAccount } from '../helpdesk/store/accounts.ts';
import { addSiteKey, createInbox, writeSetting } from '../store/inboxes.ts';
import { moveToOwnEngineAccount, type EngineAccountMoveDeps } from './engine-account-moves.ts';
import { findEngineAccount } from './engine-accounts-store.ts';
import { EngineOperator } from './engine-operator.ts';

/**
 * A helpdesk account made before accounts had engine accounts of their own (the stack's shop
 * account is one: it has no engine_accounts row, as every account had none before migration 024)
 * is moved to an engine account of its own with its conversations; another such account and an
 * inbox of no account stay with the installation's engine account. Over real HTTP, on each store.
 */
describe.each(DRIVERS)('moving an account to an engine account of its own, on $name', (driver) => {
  let stack: TestStack;
  let deps: EngineAccountMoveDeps;
  const engine = (path: string, token: string) => request(`${stack.engineUrl}${path}`, { token });

  /** A visitor of the inbox of `siteKey` who wrote once and got the AI's answer. */
  const customerWrites = async (siteKey: string, text: string) => {
    const { token } = await newVisitor(stack.url, siteKey);
    const { id } = await openWidgetConversation(stack.url, token);
    expect((await sendWidgetMessage(stack.url, token, id, text, `${id}-1`)).status).toBe(201);
    return { token, id, engineId: await engineConversationOf(stack, id) };
  };
  const authorsOf = async (token: string, id: string) =>
    (
      (await request(`${stack.url}/v1/widget/conversations/${id}/messages`, { token })).body.messages as WidgetMessage[]
    ).map((message) => message.author);

  /** An inbox with a sandbox site key, of a new account made as accounts were before they had engine accounts (or of none). */
  const legacyInbox = async (account: boolean) => {
    const inbox = await createInbox(stack.bffSql, { name: account ? 'Old shop' : 'No account' });
    const key = await addSiteKey(stack.bffSql, inbox.id, 'sandbox');
    if (account) {
      const made = await insertAccount(stack.bffSql, { name: 'Old shop' }, null, new Date());
      await stack.bffSql.query('UPDATE inboxes SET account_id = $2 WHERE id = $1', [inbox.id, made.id]);
    }
    return key.key;
  };

  let shop: Awaited<ReturnType<typeof customerWrites>>;
  let oldShop: Awaited<ReturnType<typeof customerWrites>>;
  let noAccount: Awaited<ReturnType<typeof customerWrites>>;

  beforeAll(async () => {
    stack = await startStack(driver, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    deps = {
      sql: stack.bffSql,
      secrets: bffSecrets(),
      engines: stack.bff.engines,
      operator: new EngineOperator({ baseUrl: stack.engineUrl, token: stack.operatorToken! }),
      webhookUrl: `${stack.url}/v1/engine-webhooks`,
      logger,
      now: () => new Date(),
    };
    shop = await customerWrites(stack.siteKey, 'How do I return an item?');
    oldShop = await customerWrites(await legacyInbox(true), 'How do I return an item?');
    noAccount = await customerWrites(await legacyInbox(false), 'How do I return an item?');
  });
  afterAll(() => stack?.stop());

  it("moves the account's conversations to its own engine account, where its customer's conversation goes on with AI answers", async () => {
    expect(await findEngineAccount(stack.bffSql, deps.secrets, stack.accountId)).toBeUndefined();
    expect(await authorsOf(shop.token, shop.id)).toEqual(['customer', 'ai']);
    // A first try whose answer was lost (the BFF stopped before it kept the keys): the move goes on from it.
    const [installation] = [(await engine('/v1/me', stack.apiKey)).body.account_id as string];
    const reference = `bff-account-${stack.accountId}-lost-answer-try`;
    await writeSetting(stack.bffSql, `engine_account_move_${stack.accountId}`, reference);
    const lost = await deps.operator!.moveAccount(installation, {
      reference,
      name: 'Demo store',
      conversation_ids: [shop.engineId],
    });
    expect(lost.moved).toBe(1);

    const outcome = await moveToOwnEngineAccount(deps, stack.accountId);
    expect(outcome).toEqual({ outcome: 'moved', engineAccountId: lost.account_id, conversations: 0 });
    const own = (await findEngineAccount(stack.bffSql, deps.secrets, stack.accountId))!;
    expect(own.engineAccountId).toBe(lost.account_id);
    // The lost answer's keys were revoked; the kept ones open the conversation, the installation's no longer do.
    expect((await engine('/v1/me', lost.keys.test)).status).toBe(401);
    expect((await engine(`/v1/conversations/${shop.engineId}/transcript`, own.apiKeys.sandbox)).status).toBe(200);
    expect((await engine(`/v1/conversations/${shop.engineId}/transcript`, stack.apiKey)).status).toBe(404);
    // The shop keeps its answers: the installation's knowledge was copied.
    const knowledge = (key: string) => engine('/v1/knowledge?limit=50', key);
    expect(
      (await knowledge(own.apiKeys.sandbox)).body.documents.map((document: { title: string }) => document.title),
    ).toEqual((await knowledge(stack.apiKey)).body.documents.map((document: { title: string }) => document.title));

    // The customer writes again in the same conversation: the AI answers from the new engine account.
    expect((await sendWidgetMessage(stack.url, shop.token, shop.id, 'How do I return an item?', 'again')).status).toBe(
      201,
    );
    await expect.poll(() => authorsOf(shop.token, shop.id)).toEqual(['customer', 'ai', 'customer', 'ai']);

    // The other old account's and the no-account inbox's conversations stay with the installation's engine account.
    for (const other of [oldShop, noAccount]) {
      expect((await engine(`/v1/conversations/${other.engineId}/transcript`, stack.apiKey)).status).toBe(200);
      expect((await engine(`/v1/conversations/${other.engineId}/transcript`, own.apiKeys.sandbox)).status).toBe(404);
    }
    expect(
      (await sendWidgetMessage(stack.url, oldShop.token, oldShop.id, 'How do I return an item?', 'b')).status,
    ).toBe(201);
    await expect.poll(() => authorsOf(oldShop.token, oldShop.id)).toEqual(['customer', 'ai', 'customer', 'ai']);
  });

  it('changes nothing when the account is moved again', async () => {
    const before = (await findEngineAccount(stack.bffSql, deps.secrets, stack.accountId))!;
    const again = await moveToOwnEngineAccount(deps, stack.accountId);
    expect(again).toEqual({ outcome: 'already_moved', engineAccountId: before.engineAccountId });
    expect(await findEngineAccount(stack.bffSql, deps.secrets, stack.accountId)).toEqual(before);
    expect((await engine('/v1/me', before.apiKeys.live)).status).toBe(200);
  });

  it('refuses an account that is not there (not_found) and one that had its own engine account from the start (conflict)', async () => {
    await expect(moveToOwnEngineAccount(deps, 999_999)).rejects.toMatchObject({ code: 'not_found' });
    const tenant = await newTenant(stack, 'Shop T');
    await expect(moveToOwnEngineAccount(deps, tenant.accountId)).rejects.toMatchObject({ code: 'conflict' });
  });

  it("gives the moved account's administrators API keys, and suspends its engine account with it", async () => {
    const admin = (
      await platform(stack, '/users', { method: 'POST', body: { name: 'Shop admin', email: 'admin@shop.example' } })
    ).body as { id: number; access_token: string };
    await platform(stack, `/accounts/${stack.accountId}/account_users`, {
      method: 'POST',
      body: { user_id: admin.id, role: 'administrator' },
    });
    const made = await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/api_keys`, admin.access_token, {
      body: { environment: 'sandbox' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key = made.body.key as string;
    expect((await engine(`/v1/conversations/${shop.engineId}/transcript`, key)).status).toBe(200);

    const suspended = await platform(stack, `/accounts/${stack.accountId}`, {
      method: 'PATCH',
      body: { status: 'suspended' },
    });
    expect(suspended.status).toBe(200);
    const refused = await engine('/v1/me', key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('account_suspended');
    // The installation's keys, which serve the others, still work.
    expect((await engine('/v1/me', stack.apiKey)).status).toBe(200);
    await platform(stack, `/accounts/${stack.accountId}`, { method: 'PATCH', body: { status: 'active' } });
    expect((await engine('/v1/me', key)).status).toBe(200);
  });
});
