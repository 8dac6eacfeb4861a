import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { newTenant, platform, type Tenant } from '../../test/tenants.ts';
import { until } from '../../test/until.ts';
import { User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * The console's reports through the Application API (issue 29): an account's administrators read
 * figures by day and ask for reports that arrive later, from the account's own engine account, and
 * download them; agents, other accounts' people and bad requests get nothing. Over real HTTP,
 * engine and BFF in-process.
 */
describe("an account's reports through the Application API", () => {
  let stack: TestStack;
  let shop: Tenant;
  let neighbour: Tenant;
  let agent: User;
  const today = new Date().toISOString().slice(0, 10);
  const reports = (
    tenant: Pick<Tenant, 'accountId'>,
    token: string,
    path = '',
    options: { method?: string; body?: unknown } = {},
  ) => desk(`${stack.url}/api/v1/accounts/${tenant.accountId}/reports${path}`, token, options);
  const engine = (path: string, token: string, body?: unknown) =>
    request(`${stack.engineUrl}${path}`, { token, ...(body === undefined ? {} : { body }) });
  const codeOf = (response: { body: { errors?: { code: string }[] } }) => response.body.errors?.[0]?.code;

  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    shop = await newTenant(stack, 'Report Shop');
    neighbour = await newTenant(stack, 'Neighbour Shop');
    agent = User.parse(
      (
        await platform(stack, '/users', {
          method: 'POST',
          body: { name: 'Rae Agent', email: 'rae@report-shop.example' },
        })
      ).body,
    );
    await platform(stack, `/accounts/${shop.accountId}/account_users`, {
      method: 'POST',
      body: { user_id: agent.id, role: 'agent' },
    });
    // Two live conversations at the shop's own engine account: one handed to people.
    await engine('/v1/conversations', shop.engine.live, { customer_ref: 'report-customer-1' });
    const handed = await engine('/v1/conversations', shop.engine.live, { customer_ref: 'report-customer-2' });
    await engine(`/v1/conversations/${handed.body.id}/handover`, shop.engine.live, { reason: 'vip' });
  });
  afterAll(() => stack?.stop());

  it("gives an administrator the account's figures by day, live by default", async () => {
    const live = await reports(shop, shop.admin.access_token, `/daily?from=${today}&to=${today}`);
    expect(live.status).toBe(200);
    expect(live.body.days).toEqual([expect.objectContaining({ day: today, opened: 2, handed_over: 1 })]);
    const sandbox = await reports(
      shop,
      shop.admin.access_token,
      `/daily?from=${today}&to=${today}&environment=sandbox`,
    );
    expect(sandbox.body.days[0].opened).toBe(0);
    const theirs = await reports(neighbour, neighbour.admin.access_token, `/daily?from=${today}&to=${today}`);
    expect(theirs.body.days[0].opened).toBe(0);
  });

  it('asks for a CSV report, follows it until ready, and downloads it with its name', async () => {
    const asked = await reports(shop, shop.admin.access_token, '', {
      body: { kind: 'conversations', from: today, to: today, format: 'csv' },
    });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ id: expect.stringMatching(/^rpt_/), status: 'pending' });
    const ready = await until(
      () => reports(shop, shop.admin.access_token, `/${asked.body.id}`),
      (response) => response.body.status === 'ready',
      'the report',
    );
    expect(ready.body.rows).toBe(2);
    const file = await fetch(`${stack.url}/api/v1/accounts/${shop.accountId}/reports/${asked.body.id}/content`, {
      headers: { api_access_token: shop.admin.access_token },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="conversations-${today}-${asked.body.id}.csv"`,
    );
    const lines = (await file.text()).trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^conversation_id,opened_at,state,/);
  });

  it('refuses bad requests with 422 and a report of another environment or account with 404', async () => {
    for (const body of [
      { kind: 'conversations', from: today, to: '2020-01-01' },
      { kind: 'sales', from: today, to: today },
      { kind: 'csat', from: '2024-01-01', to: today },
    ]) {
      const response = await reports(shop, shop.admin.access_token, '', { body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(codeOf(response)).toBe('unprocessable');
    }
    const mine = await reports(shop, shop.admin.access_token, '', { body: { kind: 'csat', from: today, to: today } });
    expect((await reports(shop, shop.admin.access_token, `/${mine.body.id}?environment=sandbox`)).status).toBe(404);
    // The neighbour's administrator asks for it through their own account: it is not there.
    expect((await reports(neighbour, neighbour.admin.access_token, `/${mine.body.id}`)).status).toBe(404);
    expect((await reports(neighbour, neighbour.admin.access_token, `/${mine.body.id}/content`)).status).toBe(404);
  });

  it('opens to administrators of the account only: agents, other accounts and no token get 401', async () => {
    const agentToken = (agent as User & { access_token: string }).access_token;
    for (const token of [agentToken, neighbour.admin.access_token, 'not-a-token']) {
      expect((await reports(shop, token, `/daily`)).status).toBe(401);
      expect((await reports(shop, token, '', { body: { kind: 'csat', from: today, to: today } })).status).toBe(401);
    }
    const anonymous = await request(`${stack.url}/api/v1/accounts/${shop.accountId}/reports/daily`);
    expect(anonymous.status).toBe(401);
  });
});
