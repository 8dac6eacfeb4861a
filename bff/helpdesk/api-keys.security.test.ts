import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startEngine, startStack, type TestEngine, type TestStack } from '../../test/stack.ts';
import { clientCustomerWrites, newTenant, platform, type Tenant } from '../../test/tenants.ts';
import { ENGINE_ACCOUNT_KEYS_MAX } from '../engine-link/engine-account-keys.ts';
import { ApiKey, AuditLogPage, User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * An account's administrators get API keys of the account's own engine account for their site's
 * server (`/api/v1/accounts/{id}/api_keys`): the key opens that engine account only, is shown in
 * the answer that made it and nowhere after (list, audit log, the BFF's store), and a revoked key
 * is refused at once. Agents, bots and other accounts' people get nothing; the BFF's own keys of
 * the engine account can be neither listed nor revoked. Over real HTTP, engine and BFF in-process.
 */
describe("an account's API keys through the Application API", () => {
  let stack: TestStack;
  let shop: Tenant;
  let neighbour: Tenant;
  let agent: User;

  const keys = (
    tenant: Pick<Tenant, 'accountId'>,
    token: string,
    options: { method?: string; body?: unknown; rawBody?: string; path?: string } = {},
  ) => desk(`${stack.url}/api/v1/accounts/${tenant.accountId}/api_keys${options.path ?? ''}`, token, options);
  const engine = (path: string, token: string, options: { method?: string; body?: unknown } = {}) =>
    request(`${stack.engineUrl}${path}`, { token, ...options });
  const codeOf = (response: { body: { errors?: { code: string }[] } }) => response.body.errors?.[0]?.code;

  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    shop = await newTenant(stack, 'Key Shop');
    neighbour = await newTenant(stack, 'Neighbour Shop');
    agent = User.parse(
      (await platform(stack, '/users', { method: 'POST', body: { name: 'Kai Agent', email: 'kai@key-shop.example' } }))
        .body,
    );
    await platform(stack, `/accounts/${shop.accountId}/account_users`, {
      method: 'POST',
      body: { user_id: agent.id, role: 'agent' },
    });
  });
  afterAll(() => stack?.stop());

  it("gives an administrator a key, shown once, that opens the account's own engine account and no other", async () => {
    const made = await keys(shop, shop.admin.access_token, { body: { environment: 'live' } });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const key = ApiKey.parse(made.body);
    expect(key).toMatchObject({ environment: 'live', revoked_at: null });
    expect(key.key).toMatch(/^service_live_[0-9A-Za-z]{24,64}$/);
    expect(key.prefix).toBe(key.key!.slice(0, 17));

    const me = await engine('/v1/me', key.key!);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ account_id: shop.engine.accountId, environment: 'live' });
    // What the shop's server does with it: the account's knowledge, at its own engine account.
    const document = await engine('/v1/knowledge', key.key!, {
      body: { title: 'Opening hours', body: '## When are you open?\nEvery day from 8 to 6.' },
    });
    expect(document.status).toBe(201);
    // A live document: the account's live key reads it, its sandbox key does not (issue 33).
    expect((await engine(`/v1/knowledge/${document.body.id}`, shop.engine.live)).status).toBe(200);
    expect((await engine(`/v1/knowledge/${document.body.id}`, shop.engine.sandbox)).status).toBe(404);
    expect((await engine(`/v1/knowledge/${document.body.id}`, neighbour.engine.live)).status).toBe(404);

    // Another account's customer, transcript and human-messages stay out of its reach.
    const other = await clientCustomerWrites(stack, neighbour.inbox.inbox_identifier, 'Where is my order 12?');
    expect((await engine(`/v1/customers/${other.customerRef}`, key.key!)).status).toBe(404);
    expect((await engine(`/v1/conversations/${other.engineId}/transcript`, key.key!)).status).toBe(404);
    expect(
      (
        await engine(`/v1/conversations/${other.engineId}/human-messages`, key.key!, {
          body: { text: 'Send me your card number.', author_name: 'Mallory' },
        })
      ).status,
    ).toBe(404);

    const sandbox = ApiKey.parse(
      (await keys(shop, shop.admin.access_token, { body: { environment: 'sandbox' } })).body,
    );
    expect(sandbox.key).toMatch(/^service_test_/);
    expect((await engine('/v1/me', sandbox.key!)).body).toMatchObject({
      account_id: shop.engine.accountId,
      environment: 'sandbox',
    });
  });

  it('never shows a key again: not in the list, the audit log or the BFF store', async () => {
    const made = ApiKey.parse((await keys(shop, shop.admin.access_token, { body: { environment: 'sandbox' } })).body);
    const secret = made.key!.slice(17);
    const listed = await keys(shop, shop.admin.access_token);
    expect(listed.status).toBe(200);
    const list = listed.body as ApiKey[];
    expect(list.map((entry) => entry.id)).toContain(made.id);
    for (const entry of list) expect(entry).not.toHaveProperty('key');
    expect(list.find((entry) => entry.id === made.id)).toEqual({
      id: made.id,
      environment: 'sandbox',
      prefix: made.prefix,
      created_at: made.created_at,
      revoked_at: null,
    });

    const log = AuditLogPage.parse(
      (await desk(`${stack.url}/api/v1/accounts/${shop.accountId}/audit_logs`, shop.admin.access_token)).body,
    );
    const entry = log.audit_logs.find((row) => row.auditable_type === 'ApiKey' && row.auditable_id === String(made.id));
    expect(entry).toMatchObject({ action: 'create', user_type: 'User', user_id: shop.admin.id });
    expect(entry!.audited_changes['prefix']).toEqual([null, made.prefix]);
    expect(JSON.stringify(log)).not.toContain(secret);
    const stored = await stack.bffSql.query('SELECT * FROM engine_account_keys');
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(JSON.stringify(await stack.bffSql.query('SELECT audited_changes FROM audit_logs'))).not.toContain(secret);
  });

  it("refuses a revoked key at once, at the engine and for sessions, and keeps the BFF's own keys of the account working", async () => {
    const made = ApiKey.parse((await keys(shop, shop.admin.access_token, { body: { environment: 'live' } })).body);
    expect((await engine('/v1/me', made.key!)).status).toBe(200);
    const revoked = await keys(shop, shop.admin.access_token, { method: 'DELETE', path: `/${made.id}` });
    expect(revoked.status).toBe(200);
    const refused = await engine('/v1/me', made.key!);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
    const session = await request(`${stack.url}/v1/widget-sessions`, {
      token: made.key!,
      body: { customer_ref: 'cust-revoked' },
    });
    expect(session.status).toBe(401);
    expect(session.body.error.code).toBe('unauthorized');

    const listed = (await keys(shop, shop.admin.access_token)).body as ApiKey[];
    expect(listed.find((entry) => entry.id === made.id)!.revoked_at).not.toBeNull();
    const log = AuditLogPage.parse(
      (await desk(`${stack.url}/api/v1/accounts/${shop.accountId}/audit_logs`, shop.admin.access_token)).body,
    );
    expect(log.audit_logs[0]).toMatchObject({
      auditable_type: 'ApiKey',
      auditable_id: String(made.id),
      action: 'destroy',
    });
    // Revoking again changes nothing and logs nothing more.
    expect((await keys(shop, shop.admin.access_token, { method: 'DELETE', path: `/${made.id}` })).status).toBe(200);
    const again = AuditLogPage.parse(
      (await desk(`${stack.url}/api/v1/accounts/${shop.accountId}/audit_logs`, shop.admin.access_token)).body,
    );
    expect(again.total_entries).toBe(log.total_entries);

    // The keys the BFF goes to the engine with are not among the account's keys, and still work.
    const listedAtEngine = (
      await stack.bffSql.query<{ engine_key_id: string }>(
        'SELECT engine_key_id FROM engine_account_keys WHERE account_id = $1',
        [shop.accountId],
      )
    ).map((row) => row.engine_key_id);
    expect(listedAtEngine).toHaveLength(listed.length);
    for (const own of [shop.engine.sandbox, shop.engine.live]) {
      const me = await engine('/v1/me', own);
      expect(me.status).toBe(200);
      expect(listedAtEngine).not.toContain(me.body.key.id);
    }
    const customer = await clientCustomerWrites(stack, shop.inbox.inbox_identifier, 'Still answered?');
    expect((await engine(`/v1/conversations/${customer.engineId}/transcript`, shop.engine.live)).status).toBe(200);
  });

  it("gives agents, other accounts' people and strangers nothing, and lets no one revoke another account's key", async () => {
    const before = (await keys(shop, shop.admin.access_token)).body as ApiKey[];
    for (const [who, token] of [
      ['an agent', agent.access_token!],
      ["another account's administrator", neighbour.admin.access_token],
      ['a made-up token', 'x'.repeat(40)],
    ] as const) {
      for (const [method, path, body] of [
        ['POST', '', { environment: 'live' }],
        ['GET', '', undefined],
        ['DELETE', `/${before[0]!.id}`, undefined],
      ] as const) {
        const refused = await keys(shop, token, { method, path, ...(body ? { body } : {}) });
        expect(refused.status, `${who}: ${method} ${path}`).toBe(401);
        expect(codeOf(refused)).toBe('unauthorized');
      }
    }
    // The neighbour's administrator names the shop's key under their own account: not found.
    const foreign = await keys(neighbour, neighbour.admin.access_token, {
      method: 'DELETE',
      path: `/${before[0]!.id}`,
    });
    expect(foreign.status).toBe(404);
    expect((await keys(shop, shop.admin.access_token)).body).toEqual(before);
    expect((await engine('/v1/me', shop.engine.live)).status).toBe(200);
  });

  it('answers bad bodies and ids with a 4xx and makes nothing', async () => {
    const before = ((await keys(shop, shop.admin.access_token)).body as ApiKey[]).length;
    for (const body of [
      {},
      { environment: 'production' },
      { environment: 'LIVE' },
      { environment: 'live', key: 'service_live_chosenbymyself0000000000000' },
      { environment: ['live'] },
      [],
      null,
      'live',
      7,
    ]) {
      const refused = await keys(shop, shop.admin.access_token, { body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    for (const rawBody of ['{', '{"environment":', '[1,'])
      expect((await keys(shop, shop.admin.access_token, { rawBody })).status).toBeLessThan(500);
    for (const path of ['/0', '/-1', '/abc', '/99999999999', '/1%00', '/999999']) {
      const refused = await keys(shop, shop.admin.access_token, { method: 'DELETE', path });
      expect(refused.status, path).toBeGreaterThanOrEqual(400);
      expect(refused.status, path).toBeLessThan(500);
    }
    expect(((await keys(shop, shop.admin.access_token)).body as ApiKey[]).length).toBe(before);
  });

  it(`holds at most ${ENGINE_ACCOUNT_KEYS_MAX} unrevoked keys of an environment, and takes another once one is revoked`, async () => {
    const made: ApiKey[] = [];
    for (let i = 0; i < ENGINE_ACCOUNT_KEYS_MAX; i++) {
      const answer = await keys(neighbour, neighbour.admin.access_token, { body: { environment: 'sandbox' } });
      expect(answer.status).toBe(201);
      made.push(ApiKey.parse(answer.body));
    }
    const refused = await keys(neighbour, neighbour.admin.access_token, { body: { environment: 'sandbox' } });
    expect(refused.status).toBe(422);
    expect(refused.body.description).toMatch(/revoke one/);
    expect((await keys(neighbour, neighbour.admin.access_token, { body: { environment: 'live' } })).status).toBe(201);
    expect(
      (await keys(neighbour, neighbour.admin.access_token, { method: 'DELETE', path: `/${made[0]!.id}` })).status,
    ).toBe(200);
    expect((await keys(neighbour, neighbour.admin.access_token, { body: { environment: 'sandbox' } })).status).toBe(
      201,
    );
  });

  it('shows a key the operator revoked at the engine directly as revoked, and gives its place under the cap back', async () => {
    const operated = await newTenant(stack, 'Operated Shop');
    const made: ApiKey[] = [];
    for (let i = 0; i < ENGINE_ACCOUNT_KEYS_MAX; i++)
      made.push(
        ApiKey.parse((await keys(operated, operated.admin.access_token, { body: { environment: 'live' } })).body),
      );
    const first = made[0]!;
    const engineKeyId = (await engine('/v1/me', first.key!)).body.key.id as string;
    const revoked = await engine(
      `/operator/v1/accounts/${operated.engine.accountId}/keys/${engineKeyId}`,
      stack.operatorToken!,
      {
        method: 'DELETE',
      },
    );
    expect(revoked.status).toBe(204);
    expect((await engine('/v1/me', first.key!)).status).toBe(401);

    const listed = (await keys(operated, operated.admin.access_token)).body as ApiKey[];
    expect(listed.find((entry) => entry.id === first.id)!.revoked_at).not.toBeNull();
    expect(listed.filter((entry) => entry.revoked_at === null)).toHaveLength(ENGINE_ACCOUNT_KEYS_MAX - 1);
    // The place it held is free again; the cap still holds after it.
    expect((await keys(operated, operated.admin.access_token, { body: { environment: 'live' } })).status).toBe(201);
    expect((await keys(operated, operated.admin.access_token, { body: { environment: 'live' } })).status).toBe(422);
  });

  it("answers 422 for an account served by the installation's engine account, whose keys the BFF does not operate", async () => {
    const owner = User.parse(
      (
        await platform(stack, '/users', {
          method: 'POST',
          body: { name: 'Demo Owner', email: 'owner@demo-store.example' },
        })
      ).body,
    );
    await platform(stack, `/accounts/${stack.accountId}/account_users`, {
      method: 'POST',
      body: { user_id: owner.id, role: 'administrator' },
    });
    const installation = { accountId: stack.accountId };
    const refused = await keys(installation, owner.access_token!, { body: { environment: 'live' } });
    expect(refused.status).toBe(422);
    expect(codeOf(refused)).toBe('unprocessable');
    expect(refused.body.description).toMatch(/installation's engine account/);
    expect((await keys(installation, owner.access_token!)).body).toEqual([]);
    expect((await keys(installation, owner.access_token!, { method: 'DELETE', path: '/1' })).status).toBe(404);
  });

  it('is in the helpdesk OpenAPI document', async () => {
    const document = (await request(`${stack.url}/helpdesk/openapi.json`)).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(document.paths['/api/v1/accounts/{account_id}/api_keys'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/api/v1/accounts/{account_id}/api_keys/{id}'] ?? {})).toEqual(['delete']);
    expect(Object.keys(document.paths['/api/v1/accounts/{account_id}/api_keys']!['post']!.responses)).toEqual(
      expect.arrayContaining(['201', '401', '422', '503']),
    );
  });
});

describe.each(DRIVERS)('API keys made at the same instant on $name', (driver) => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack(driver, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
  });
  afterAll(() => stack?.stop());

  it(`holds the cap of ${ENGINE_ACCOUNT_KEYS_MAX} against 20 requests at once: ${ENGINE_ACCOUNT_KEYS_MAX} made, here and at the engine`, async () => {
    const shop = await newTenant(stack, 'Racing Key Shop');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        desk(`${stack.url}/api/v1/accounts/${shop.accountId}/api_keys`, shop.admin.access_token, {
          body: { environment: 'sandbox' },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(ENGINE_ACCOUNT_KEYS_MAX);
    expect(statuses.filter((status) => status === 422)).toHaveLength(20 - ENGINE_ACCOUNT_KEYS_MAX);
    const listed = (await desk(`${stack.url}/api/v1/accounts/${shop.accountId}/api_keys`, shop.admin.access_token))
      .body as ApiKey[];
    expect(listed.filter((entry) => entry.revoked_at === null)).toHaveLength(ENGINE_ACCOUNT_KEYS_MAX);
    // At the engine: the BFF's own sandbox key, and the ten.
    const atEngine = await request(`${stack.engineUrl}/operator/v1/accounts/${shop.engine.accountId}/keys`, {
      token: stack.operatorToken!,
    });
    const sandbox = (atEngine.body.keys as { environment: string; revoked_at: string | null }[]).filter(
      (key) => key.environment === 'sandbox' && key.revoked_at === null,
    );
    expect(sandbox).toHaveLength(ENGINE_ACCOUNT_KEYS_MAX + 1);
  });
});

describe('API keys while the engine cannot be reached', () => {
  let engine: TestEngine;
  let stack: TestStack;

  beforeAll(async () => {
    engine = await startEngine();
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
  });
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
  });

  it('answers 503 upstream_unavailable and keeps nothing, and a revocation the engine did not take is not recorded', async () => {
    const shop = await newTenant(stack, 'Offline Shop');
    const app = (options: { method?: string; body?: unknown; path?: string } = {}) =>
      desk(
        `${stack.url}/api/v1/accounts/${shop.accountId}/api_keys${options.path ?? ''}`,
        shop.admin.access_token,
        options,
      );
    const kept = ApiKey.parse((await app({ body: { environment: 'live' } })).body);
    await engine.pause();
    try {
      const refused = await app({ body: { environment: 'live' } });
      expect(refused.status).toBe(503);
      expect(refused.body.errors[0].code).toBe('upstream_unavailable');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      const notRevoked = await app({ method: 'DELETE', path: `/${kept.id}` });
      expect(notRevoked.status).toBe(503);
      const { key: _shownOnce, ...listedShape } = kept;
      expect((await app()).body).toEqual([listedShape]);
    } finally {
      await engine.resume();
    }
    expect((await request(`${engine.url}/v1/me`, { token: kept.key! })).status).toBe(200);
    expect((await app({ method: 'DELETE', path: `/${kept.id}` })).status).toBe(200);
    expect((await request(`${engine.url}/v1/me`, { token: kept.key! })).status).toBe(401);
  });
});
