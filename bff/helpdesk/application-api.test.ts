import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { AccountView, AgentBot, AuditLogPage, User } from '../../shared/schemas/helpdesk/index.ts';
import { SIGN_INS_PER_MINUTE } from './session-routes.ts';

/**
 * The helpdesk Application API (SPEC "Helpdesk Application API") over real HTTP: the role matrix
 * (administrator, agent, bot of the account, stranger) on each route, JSON and form PATCH, the
 * audit log with its filters and pages, and signing in and out.
 */
describe('the helpdesk Application API', () => {
  let stack: TestStack;
  let accountId: number;
  let admin: User;
  let agent: User;
  let stranger: User;
  let bot: AgentBot;

  const platform = (path: string, body?: unknown, method?: string) =>
    desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, {
      ...(body === undefined ? {} : { body }),
      ...(method ? { method } : {}),
    });
  const app = (
    path: string,
    token: string | undefined,
    options: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ) => desk(`${stack.url}/api/v1/accounts/${accountId}${path}`, token, options);
  const person = async (name: string, email: string, role?: 'administrator' | 'agent', password?: string) => {
    const user = User.parse((await platform('/users', { name, email, ...(password ? { password } : {}) })).body);
    if (role) await platform(`/accounts/${accountId}/account_users`, { user_id: user.id, role });
    return user;
  };

  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    accountId = stack.accountId;
    admin = await person('Ada Admin', 'ada@shop.example', 'administrator', 'admin password 1');
    agent = await person('Sam Agent', 'sam@shop.example', 'agent');
    stranger = await person('Eve Elsewhere', 'eve@elsewhere.example');
    bot = AgentBot.parse(
      (
        await app('/agent_bots', admin.access_token, {
          body: { name: 'Order bot', outgoing_url: 'https://bots.example/orders' },
        })
      ).body,
    );
  });
  afterAll(() => stack?.stop());

  it("keeps Chatwoot's account settings an administrator sends, merged key by key, and shows them; bad ones are 422 and change nothing", async () => {
    const first = await app('', admin.access_token, {
      method: 'PATCH',
      body: { settings: { auto_resolve_duration: 7, auto_resolve_message: 'Closed for now' } },
    });
    expect([first.status, first.body.settings]).toEqual([
      200,
      { auto_resolve_duration: 7, auto_resolve_message: 'Closed for now' },
    ]);
    await app('', admin.access_token, { method: 'PATCH', body: { settings: { auto_resolve_duration: 14 } } });
    const shown = { auto_resolve_duration: 14, auto_resolve_message: 'Closed for now' };
    expect((await app('', agent.access_token)).body.settings).toEqual(shown);
    for (const settings of ['weekly', ['a'], { big: 'x'.repeat(20_000) }]) {
      const refused = await app('', admin.access_token, { method: 'PATCH', body: { settings } });
      expect([refused.status, refused.body.errors[0].code]).toEqual([422, 'unprocessable']);
    }
    expect((await app('', agent.access_token, { method: 'PATCH', body: { settings: { x: 1 } } })).status).toBe(401);
    expect((await app('', admin.access_token)).body.settings).toEqual(shown);
  });

  it('shows the account to its people and its bots, each with their role, and to nobody else', async () => {
    expect(AccountView.parse((await app('', admin.access_token)).body)).toMatchObject({
      id: accountId,
      name: 'Demo store',
      role: 'administrator',
    });
    expect((await app('', agent.access_token)).body).toMatchObject({ id: accountId, role: 'agent' });
    expect((await app('', bot.access_token)).body).toMatchObject({ id: accountId, role: null });
    // Someone of another account is told what an unknown account tells: 404, no oracle (issue 33).
    const notHis = await app('', stranger.access_token);
    expect([notHis.status, notHis.body.errors[0].code]).toEqual([404, 'not_found']);
    const unknown = await desk(`${stack.url}/api/v1/accounts/99999`, admin.access_token);
    const sameWords = JSON.parse(JSON.stringify(notHis.body).replaceAll(`account ${accountId}`, 'account 99999'));
    expect([unknown.status, unknown.body]).toEqual([404, sameWords]);
    for (const token of [undefined, 'not-a-token', PLATFORM_TOKEN]) {
      const refused = await app('', token);
      expect(refused.status, String(token)).toBe(401);
      expect(refused.body).toMatchObject({
        description: expect.any(String),
        errors: [expect.objectContaining({ code: 'unauthorized' })],
      });
    }
  });

  it('lets an administrator change the account as JSON or as a form; an agent, a bot or a stranger gets 401; bad values 422', async () => {
    const json = await app('', admin.access_token, {
      method: 'PATCH',
      body: { name: 'Demo store (JSON)', support_email: 'help@demo.example' },
    });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ name: 'Demo store (JSON)', support_email: 'help@demo.example' });
    const form = await app('', admin.access_token, {
      method: 'PATCH',
      rawBody: new URLSearchParams({ name: 'Demo store (form)', locale: 'fr' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({ name: 'Demo store (form)', locale: 'fr', support_email: 'help@demo.example' });

    for (const token of [agent.access_token, bot.access_token, stranger.access_token]) {
      expect((await app('', token, { method: 'PATCH', body: { name: 'Taken over' } })).status).toBe(401);
    }
    for (const body of [{ name: '' }, { locale: 'French' }, { name: 'x', plan: 'free' }, { custom_attributes: 'no' }]) {
      expect((await app('', admin.access_token, { method: 'PATCH', body })).status, JSON.stringify(body)).toBe(422);
    }
    const twice = await app('', admin.access_token, {
      method: 'PATCH',
      rawBody: 'name=a&name=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(twice.status).toBe(422);
    expect(
      (
        await app('', admin.access_token, {
          method: 'PATCH',
          rawBody: 'name=x',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    expect((await app('', agent.access_token)).body.name).toBe('Demo store (form)');
  });

  it("keeps the account's agent bots: members read them, administrators change them, and a bot's token is shown once", async () => {
    expect(bot.access_token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(bot.account_id).toBe(accountId);
    const listed = (await app('/agent_bots', agent.access_token)).body as AgentBot[];
    expect(listed.map((entry) => entry.id)).toEqual([bot.id]);
    expect(listed[0]).not.toHaveProperty('access_token');
    expect((await app(`/agent_bots/${bot.id}`, bot.access_token)).body).toMatchObject({
      id: bot.id,
      name: 'Order bot',
    });

    expect((await app('/agent_bots', agent.access_token, { body: { name: 'Agent-made bot' } })).status).toBe(401);
    expect(
      (await app(`/agent_bots/${bot.id}`, agent.access_token, { method: 'PATCH', body: { name: 'Renamed' } })).status,
    ).toBe(401);
    expect((await app(`/agent_bots/${bot.id}`, stranger.access_token)).status).toBe(401);
    expect(
      (await app('/agent_bots', admin.access_token, { body: { name: 'Bad', outgoing_url: 'javascript:alert(1)' } }))
        .status,
    ).toBe(422);

    const spare = AgentBot.parse((await app('/agent_bots', admin.access_token, { body: { name: 'Spare bot' } })).body);
    expect(
      (
        await app(`/agent_bots/${spare.id}`, admin.access_token, {
          method: 'PATCH',
          body: { description: 'Not needed' },
        })
      ).body,
    ).toMatchObject({ description: 'Not needed' });
    expect((await app(`/agent_bots/${spare.id}`, admin.access_token, { method: 'DELETE' })).status).toBe(200);
    expect((await app(`/agent_bots/${spare.id}`, admin.access_token)).status).toBe(404);
    // Its token went with it.
    expect((await app('', spare.access_token)).status).toBe(401);
    // Another account's bot id is not found here.
    expect((await app('/agent_bots/999999', admin.access_token)).status).toBe(404);
  });

  it('writes every administrative change to the audit log, which administrators read with filters and pages; agents get 403', async () => {
    const log = async (query = '', token = admin.access_token) => app(`/audit_logs${query}`, token);
    const first = await log();
    expect(first.status).toBe(200);
    const page = AuditLogPage.parse(first.body);
    expect(page).toMatchObject({ per_page: 15, current_page: 1 });
    const kinds = page.audit_logs.map((entry) => `${entry.auditable_type} ${entry.action}`);
    expect(kinds).toEqual(
      expect.arrayContaining(['AccountUser create', 'AgentBot create', 'Account update', 'AgentBot destroy']),
    );
    const rename = page.audit_logs.find(
      (entry) => entry.auditable_type === 'Account' && entry.audited_changes['name']?.[1] === 'Demo store (form)',
    );
    expect(rename).toMatchObject({
      user_type: 'User',
      user_id: admin.id,
      username: 'ada@shop.example',
      action: 'update',
      audited_changes: { name: ['Demo store (JSON)', 'Demo store (form)'], locale: ['en', 'fr'] },
    });
    const membership = page.audit_logs.find(
      (entry) => entry.auditable_type === 'AccountUser' && entry.auditable_id === String(agent.id),
    );
    expect(membership).toMatchObject({
      user_type: 'PlatformApp',
      action: 'create',
      audited_changes: { role: [null, 'agent'] },
    });

    expect((await log('', agent.access_token)).status).toBe(403);
    expect((await log('', bot.access_token)).status).toBe(403);
    expect((await log('', stranger.access_token)).status).toBe(401);

    // Filters: by type, by who acted, by time, and the order.
    const bots = AuditLogPage.parse((await log('?types[]=AgentBot')).body);
    expect(bots.audit_logs.length).toBeGreaterThan(0);
    expect(new Set(bots.audit_logs.map((entry) => entry.auditable_type))).toEqual(new Set(['AgentBot']));
    expect(AuditLogPage.parse((await log('?types=AgentBot,Account')).body).total_entries).toBe(
      bots.total_entries + AuditLogPage.parse((await log('?types[]=Account')).body).total_entries,
    );
    expect(
      AuditLogPage.parse((await log('?q=ada@shop')).body).audit_logs.every(
        (entry) => entry.username === 'ada@shop.example',
      ),
    ).toBe(true);
    expect(AuditLogPage.parse((await log('?q=Ada%20Admin')).body).total_entries).toBe(
      AuditLogPage.parse((await log('?q=ada@shop')).body).total_entries,
    );
    expect(AuditLogPage.parse((await log('?q=nobody-like-this')).body).total_entries).toBe(0);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect(AuditLogPage.parse((await log(`?since=${future}`)).body).total_entries).toBe(0);
    expect(AuditLogPage.parse((await log(`?until=${future}`)).body).total_entries).toBe(page.total_entries);
    const ascending = AuditLogPage.parse((await log('?sort=asc')).body).audit_logs.map((entry) => entry.id);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    for (const bad of ['?page=0', '?sort=sideways', '?since=yesterday', '?colour=red'])
      expect((await log(bad)).status, bad).toBe(422);

    // Pages of 15.
    for (let index = 0; index < 16; index++)
      await app('', admin.access_token, { method: 'PATCH', body: { name: `Demo store ${index}` } });
    const all = AuditLogPage.parse((await log()).body);
    expect(all.total_entries).toBeGreaterThan(15);
    const second = AuditLogPage.parse((await log('?page=2')).body);
    expect(second.current_page).toBe(2);
    expect(second.audit_logs.length).toBe(Math.min(15, all.total_entries - 15));
    expect(new Set([...all.audit_logs, ...second.audit_logs].map((entry) => entry.id)).size).toBe(
      all.audit_logs.length + second.audit_logs.length,
    );
  });

  it('answers 422 for the audit log when the account has the feature off', async () => {
    await platform(`/accounts/${accountId}`, { features: { audit_logs: false } }, 'PATCH');
    try {
      const refused = await app('/audit_logs', admin.access_token);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].code).toBe('unprocessable');
    } finally {
      await platform(`/accounts/${accountId}`, { features: { audit_logs: true } }, 'PATCH');
    }
  });

  it('signs a person in with e-mail and password and out again; a wrong password is 401 and sign-ins are limited per address', async () => {
    const signIn = (body: unknown) => desk(`${stack.url}/api/v1/sessions`, undefined, { body });
    const session = await signIn({ email: 'ADA@shop.example', password: 'admin password 1' });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({
      id: admin.id,
      accounts: [expect.objectContaining({ id: accountId, role: 'administrator' })],
    });
    const token = session.body.access_token as string;
    expect((await app('', token)).status).toBe(200);
    expect((await desk(`${stack.url}/api/v1/sessions/current`, token, { method: 'DELETE' })).status).toBe(200);
    expect((await app('', token)).status).toBe(401);
    // Signing out a session leaves the person's access token working.
    expect((await app('', admin.access_token)).status).toBe(200);

    expect((await signIn({ email: 'ada@shop.example', password: 'wrong' })).status).toBe(401);
    expect((await signIn({ email: 'nobody@shop.example', password: 'admin password 1' })).status).toBe(401);
    expect((await signIn({ email: 'sam@shop.example', password: '' })).status).toBe(422);
    // The limit counts in clock-minute windows, so a minute's boundary may fall among these
    // attempts and let up to twice the limit through; one more than that, sent well within a
    // minute, must meet a refusal wherever the boundary falls.
    const refusals: number[] = [];
    for (let attempt = 0; attempt < 2 * SIGN_INS_PER_MINUTE + 1; attempt++) {
      const guess = await signIn({ email: 'ada@shop.example', password: `guess ${attempt}` });
      if (guess.status === 429) refusals.push(attempt);
      else expect(guess.status).toBe(401);
    }
    expect(refusals.length).toBeGreaterThan(0);
  });

  it('publishes one helpdesk document: OpenAPI 3.1.0, version 1.1.0, valid, with every row SPEC lists', async () => {
    const document = (await request(`${stack.url}/helpdesk/openapi.json`)).body as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.1.0');
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    const rows = [
      'post /platform/api/v1/accounts',
      'get /platform/api/v1/accounts/{account_id}',
      'patch /platform/api/v1/accounts/{account_id}',
      'delete /platform/api/v1/accounts/{account_id}',
      'get /platform/api/v1/accounts/{account_id}/account_users',
      'post /platform/api/v1/accounts/{account_id}/account_users',
      'delete /platform/api/v1/accounts/{account_id}/account_users',
      'get /platform/api/v1/agent_bots',
      'post /platform/api/v1/agent_bots',
      'get /platform/api/v1/agent_bots/{id}',
      'patch /platform/api/v1/agent_bots/{id}',
      'delete /platform/api/v1/agent_bots/{id}',
      'post /platform/api/v1/users',
      'get /platform/api/v1/users/{id}',
      'patch /platform/api/v1/users/{id}',
      'delete /platform/api/v1/users/{id}',
      'get /platform/api/v1/users/{id}/login',
      'get /api/v1/accounts/{account_id}',
      'patch /api/v1/accounts/{account_id}',
      'get /api/v1/accounts/{account_id}/audit_logs',
      'get /api/v1/accounts/{account_id}/agent_bots',
      'post /api/v1/accounts/{account_id}/agent_bots',
      'post /public/api/v1/inboxes/{inbox_identifier}/contacts',
    ];
    for (const row of rows) {
      const [method, path] = row.split(' ') as [string, string];
      expect(document.paths[path]?.[method], row).toBeDefined();
    }
    const patch = document.paths['/api/v1/accounts/{account_id}']!['patch'] as {
      requestBody: { content: Record<string, unknown> };
      responses: Record<string, unknown>;
    };
    expect(Object.keys(patch.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(patch.responses).toHaveProperty('422');
    // A failed validation is 422 here; 400 is left for a body that is not JSON at all.
    expect(JSON.stringify(patch.responses['422'])).toContain('unprocessable');
    expect(JSON.stringify(patch.responses['400'] ?? '')).not.toContain('invalid_request');
    // The widget's own routes are not the helpdesk's.
    expect(Object.keys(document.paths).some((path) => path.startsWith('/v1/'))).toBe(false);
  });
});
