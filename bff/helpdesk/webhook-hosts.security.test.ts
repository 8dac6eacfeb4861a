import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { startStack, type TestStack } from '../../test/stack.ts';
import { User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * Issue 33: the helpdesk's webhooks follow the engine's host rule (shared/server/webhooks/
 * endpoint-rules.ts): a name that names this machine, has one label, or is a wildcard DNS name is
 * refused with 422 and nothing is kept; and the operator's private exception reaches only the path
 * it lists, not any route of that address.
 */
describe("the helpdesk's webhook hosts", () => {
  let stack: TestStack;
  let admin: User;
  const operatorHook = 'http://127.0.0.1:9/operator-hooks';
  const app = (path: string, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, admin.access_token, options);
  const kept = async () =>
    (await stack.bffSql.query<{ count: number }>('SELECT count(*)::int AS count FROM webhook_endpoints'))[0]!.count;

  beforeAll(async () => {
    stack = await startStack(
      undefined,
      { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN },
      {
        deskWebhooks: { pollMs: 0, allowedPrivateOrigins: [operatorHook] },
      },
    );
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@hosts.example' })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
  });
  afterAll(() => stack?.stop());

  it.each([
    'https://localhost./hook',
    'https://ip6-localhost/hook',
    'https://ip6-loopback/hook',
    'https://intranet/hook',
    'https://10.0.0.1.nip.io/hook',
    'https://127-0-0-1.sslip.io/hook',
    'http://127.0.0.1:9/api/v1/accounts/1/webhooks',
    'http://127.0.0.1:9/operator-hooks-admin',
  ])('refuses %s with 422 and keeps nothing', async (url) => {
    const before = await kept();
    const response = await app('/webhooks', { body: { url } });
    expect(response.status).toBe(422);
    expect(await kept()).toBe(before);
  });

  it("takes the operator's listed path", async () => {
    const response = await app('/webhooks', { body: { url: `${operatorHook}/crm` } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  });
});
