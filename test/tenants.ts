import { expect } from 'vitest';
import { openSecretBox } from '../shared/server/index.ts';
import { Inbox, PlatformAccount, SiteKey, User } from '../shared/schemas/helpdesk/index.ts';
import { engineWebhooksOf, findEngineAccount, type EngineWebhook } from '../bff/engine-link/engine-accounts-store.ts';
import { desk, PLATFORM_TOKEN } from './helpdesk-client.ts';
import { engineConversationOf, request, type TestStack } from './stack.ts';

/**
 * What the tests of per-account engine accounts share (issue 26): a helpdesk account made through
 * the Platform API as an operator makes one, with an administrator, an inbox with a sandbox site key
 * and the Client API, and its own engine account's keys as the BFF keeps them. The stack must be
 * started with DEMO_PLATFORM_TOKEN = PLATFORM_TOKEN and DATA_DIR memory:// (the BFF's secrets are
 * then sealed with this process's key, which `openSecretBox` gives the test too).
 */
export interface Tenant {
  accountId: number;
  admin: User & { access_token: string };
  inbox: Inbox & { inbox_identifier: string };
  siteKey: string;
  /** The account's own engine account: its id and keys, as the BFF keeps them (sealed). */
  engine: { accountId: string; sandbox: string; live: string };
}

export const platform = (
  stack: Pick<TestStack, 'url'>,
  path: string,
  options: { method?: string; body?: unknown } = {},
) => desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, options);

/** The BFF's store's secrets, as this test process opens them. */
export const bffSecrets = () => openSecretBox(undefined, 'memory://');

/** A new helpdesk account, made through the Platform API, with a person, an inbox and a site key. */
export async function newTenant(stack: Pick<TestStack, 'url' | 'bffSql'>, name: string): Promise<Tenant> {
  const made = await platform(stack, '/accounts', { method: 'POST', body: { name } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const account = PlatformAccount.parse(made.body);
  const slug = name.toLowerCase().replace(/[^a-z]+/g, '-');
  const admin = User.parse(
    (
      await platform(stack, '/users', {
        method: 'POST',
        body: { name: `${name} admin`, email: `admin@${slug}.example` },
      })
    ).body,
  );
  await platform(stack, `/accounts/${account.id}/account_users`, {
    method: 'POST',
    body: { user_id: admin.id, role: 'administrator' },
  });
  const app = (path: string, body: unknown) =>
    desk(`${stack.url}/api/v1/accounts/${account.id}${path}`, admin.access_token, { body });
  const inbox = Inbox.parse((await app('/inboxes', { name: `${name} chat` })).body);
  const siteKey = SiteKey.parse((await app(`/inboxes/${inbox.id}/site_keys`, { environment: 'sandbox' })).body);
  const stored = await findEngineAccount(stack.bffSql, bffSecrets(), account.id);
  if (!stored) throw new Error(`account ${account.id} was made without an engine account of its own`);
  return {
    accountId: account.id,
    admin: admin as Tenant['admin'],
    inbox: inbox as Tenant['inbox'],
    siteKey: siteKey.key!,
    engine: { accountId: stored.engineAccountId, sandbox: stored.apiKeys.sandbox, live: stored.apiKeys.live },
  };
}

/** The account's engine webhook endpoints, as the BFF keeps them. */
export const tenantWebhooks = (
  stack: Pick<TestStack, 'bffSql'>,
  tenant: Pick<Tenant, 'accountId'>,
): Promise<EngineWebhook[]> => engineWebhooksOf(stack.bffSql, bffSecrets(), tenant.accountId);

/** A live customer of the inbox (a Client API contact) who wrote once; gives their BFF conversation and its engine id. */
export async function clientCustomerWrites(stack: TestStack, identifier: string, text: string) {
  const base = `${stack.url}/public/api/v1/inboxes/${identifier}`;
  const contact = await request(`${base}/contacts`, { body: { name: 'Bea Customer' } });
  expect(contact.status).toBe(200);
  const conversation = await request(`${base}/contacts/${contact.body.source_id}/conversations`, { body: {} });
  expect(conversation.status).toBe(200);
  const sent = await request(
    `${base}/contacts/${contact.body.source_id}/conversations/${conversation.body.id}/messages`,
    { body: { content: text } },
  );
  expect(sent.status).toBe(200);
  const engineId = await engineConversationOf(stack, conversation.body.uuid);
  const [row] = await stack.bffSql.query<{ id: number; customer_ref: string }>(
    'SELECT id, customer_ref FROM conversations WHERE uuid = $1',
    [conversation.body.uuid],
  );
  return {
    sourceId: contact.body.source_id as string,
    pubsubToken: contact.body.pubsub_token as string,
    uuid: conversation.body.uuid as string,
    rowId: Number(row!.id),
    customerRef: row!.customer_ref,
    engineId,
  };
}

/** The texts of a BFF conversation's messages, oldest first. */
export async function textsOf(stack: Pick<TestStack, 'bffSql'>, conversationRowId: number): Promise<string[]> {
  const rows = await stack.bffSql.query<{ text: string }>(
    'SELECT text FROM messages WHERE conversation_id = $1 ORDER BY id',
    [conversationRowId],
  );
  return rows.map((row) => row.text);
}
