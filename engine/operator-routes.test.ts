import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, DRIVERS, logger, request, startEngine, type TestEngine } from '../test/stack.ts';
import { ERASED_TABLES } from './account-erasure.ts';
import { createEngine } from './app.ts';

/**
 * `/operator/v1/accounts` (issue 26): the installation operator's token makes, suspends, resumes and
 * deletes engine accounts; nothing else opens these routes, bad input is a 4xx, a suspended
 * account's keys answer 403 at once and a deleted account's keys 401, with everything it held erased.
 */
describe.each(DRIVERS)('the operator routes on $name', (driver) => {
  let engine: TestEngine;
  const operator = (
    path: string,
    options: { method?: string; body?: unknown; rawBody?: string; token?: string } = {},
  ) =>
    request(`${engine.url}/operator/v1/accounts${path}`, {
      method: options.method ?? (options.body !== undefined || options.rawBody !== undefined ? 'POST' : 'GET'),
      token: engine.operatorToken,
      ...options,
    });
  const make = async (name = 'Operator shop') => {
    const created = await operator('', { body: { name } });
    expect(created.status).toBe(201);
    return created.body as { account_id: string; keys: { test: string; live: string } };
  };

  beforeAll(async () => {
    engine = await startEngine(driver, undefined, { webhooks: { allowedPrivateOrigins: ['http://127.0.0.1:9'] } });
  });
  afterAll(() => engine?.stop());

  it('refuses a missing or wrong operator token, and an API key, with 401 unauthorized, and makes nothing', async () => {
    const [before] = await engine.sql.query<{ n: string }>('SELECT count(*) AS n FROM accounts');
    for (const token of [
      '',
      'x'.repeat(40),
      `${engine.operatorToken}x`,
      engine.operatorToken.slice(0, -1),
      engine.apiKey,
    ]) {
      const routes = [
        ['POST', '', { name: 'Intruder' }],
        ['POST', `/${engine.accountId}/suspend`, {}],
        ['POST', `/${engine.accountId}/resume`, {}],
        ['DELETE', `/${engine.accountId}`, undefined],
        ['POST', `/${engine.accountId}/keys`, { environment: 'live' }],
        ['GET', `/${engine.accountId}/keys`, undefined],
        ['DELETE', `/${engine.accountId}/keys/key_${'0'.repeat(24)}`, undefined],
      ] as const;
      for (const [method, path, body] of routes) {
        const refused = await operator(path, { method, token, ...(body === undefined ? {} : { body }) });
        expect(refused.status, `${method} ${path} with ${token.slice(0, 12)}…`).toBe(401);
        expect(refused.body.error.code).toBe('unauthorized');
      }
    }
    const [after] = await engine.sql.query<{ n: string }>('SELECT count(*) AS n FROM accounts');
    expect(after).toEqual(before);
    expect(await engine.sql.query('SELECT 1 FROM api_keys WHERE account_id = $1', [engine.accountId])).toHaveLength(2);
    expect((await request(`${engine.url}/v1/me`, { token: engine.apiKey })).status).toBe(200);
  });

  it('refuses every request when the engine has no operator token', async () => {
    const closed = await createEngine({ sql: engine.sql, logger });
    const server = createServer(closed.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/operator/v1/accounts`;
      for (const token of ['', engine.operatorToken]) {
        const refused = await request(url, { token, body: { name: 'Anyone' } });
        expect(refused.status).toBe(401);
        expect(refused.body.error.code).toBe('unauthorized');
      }
    } finally {
      await closeServer(server);
      await closed.webhooks.stop();
      await closed.media.stop();
    }
    await expect(createEngine({ sql: engine.sql, logger, operatorToken: 'short' })).rejects.toThrow(/at least 32/);
  });

  it('answers bad input with a 4xx and an error body, never a 5xx', async () => {
    const bodies: unknown[] = [
      {},
      { name: '' },
      { name: 'x'.repeat(201) },
      { name: 12 },
      { name: 'A', admin: true },
      { name: 'A', requests_per_minute: { live: 0 } },
      { name: 'A', requests_per_minute: { sandbox: 'lots' } },
      [],
      null,
      'text',
    ];
    for (const body of bodies) {
      const refused = await operator('', { body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
    }
    for (const rawBody of ['{', '{"name":', '\u0000']) expect((await operator('', { rawBody })).status).toBe(400);
    for (const id of ['acc_', 'cnv_0000000000000000', '..%2F..%2Fetc', 'x'.repeat(300), '%00']) {
      for (const [method, path] of [
        ['POST', `/${id}/suspend`],
        ['POST', `/${id}/resume`],
        ['DELETE', `/${id}`],
      ] as const) {
        const refused = await operator(path, { method });
        expect(refused.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        expect(refused.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
    const unknown = `acc_${'0'.repeat(24)}`;
    for (const [method, path] of [
      ['POST', `/${unknown}/suspend`],
      ['POST', `/${unknown}/resume`],
      ['DELETE', `/${unknown}`],
    ] as const) {
      const missing = await operator(path, { method });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
    }
  });

  it('makes an account with a sandbox and a live key, each opening its own environment of that account only', async () => {
    const made = await make('Keyed shop');
    expect(made.account_id).toMatch(/^acc_/);
    expect(made.keys.test).toMatch(/^service_test_/);
    expect(made.keys.live).toMatch(/^service_live_/);
    expect((await request(`${engine.url}/v1/me`, { token: made.keys.test })).body).toMatchObject({
      account_id: made.account_id,
      environment: 'sandbox',
    });
    expect((await request(`${engine.url}/v1/me`, { token: made.keys.live })).body).toMatchObject({
      account_id: made.account_id,
      environment: 'live',
    });
    // Only the hashes are kept.
    const stored = await engine.sql.query<{ secret_sha256: string }>(
      'SELECT secret_sha256 FROM api_keys WHERE account_id = $1',
      [made.account_id],
    );
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toContain(made.keys.live.slice(13));
    // Limits of its own when asked for.
    const limited = await operator('', { body: { name: 'Busy shop', requests_per_minute: { sandbox: 1234 } } });
    expect(
      (await request(`${engine.url}/v1/me`, { token: limited.body.keys.test })).body.limits.requests_per_minute,
    ).toBe(1234);
  });

  it("answers a suspended account's keys with 403 account_suspended at once, and lets them in again when it is resumed", async () => {
    const made = await make('Paused shop');
    const suspended = await operator(`/${made.account_id}/suspend`, { method: 'POST' });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toEqual({ account_id: made.account_id, status: 'suspended' });
    for (const key of [made.keys.test, made.keys.live]) {
      for (const [method, path, body] of [
        ['GET', '/v1/me', undefined],
        ['POST', '/v1/conversations', { customer_ref: 'paused' }],
        ['GET', '/v1/events', undefined],
      ] as const) {
        const refused = await request(`${engine.url}${path}`, { method, token: key, ...(body ? { body } : {}) });
        expect(refused.status, `${method} ${path}`).toBe(403);
        expect(refused.body.error.code).toBe('account_suspended');
      }
    }
    // Another account is not touched.
    expect((await request(`${engine.url}/v1/me`, { token: engine.apiKey })).status).toBe(200);
    expect((await operator(`/${made.account_id}/suspend`, { method: 'POST' })).body.status).toBe('suspended');
    const resumed = await operator(`/${made.account_id}/resume`, { method: 'POST' });
    expect(resumed.body).toEqual({ account_id: made.account_id, status: 'active' });
    for (const key of [made.keys.test, made.keys.live])
      expect((await request(`${engine.url}/v1/me`, { token: key })).status).toBe(200);
  });

  it('deletes an account: its keys answer 401 at once, and every table is emptied of it', async () => {
    const made = await make('Closing shop');
    const other = await make('Staying shop');
    // Something in every part of the account: conversations, turns, events, knowledge, actions, fixtures, webhooks, kept answers.
    const call = (token: string, path: string, body?: unknown, headers: Record<string, string> = {}, method?: string) =>
      request(`${engine.url}${path}`, {
        token,
        ...(body === undefined ? {} : { body }),
        headers,
        ...(method ? { method } : {}),
      });
    for (const account of [made, other]) {
      const conversation = (
        await call(account.keys.test, '/v1/conversations', { customer_ref: 'cus-1' }, { 'idempotency-key': 'open-1' })
      ).body.id as string;
      expect(
        (await call(account.keys.test, `/v1/conversations/${conversation}/messages`, { text: 'Where is my parcel?' }))
          .status,
      ).toBe(200);
      expect((await call(account.keys.test, `/v1/conversations/${conversation}/voice-sessions`, {})).status).toBe(201);
      expect((await call(account.keys.test, `/v1/conversations/${conversation}/close`, {})).status).toBe(200);
      expect(
        (await call(account.keys.test, `/v1/conversations/${conversation}/survey`, { rating: 4, comment: 'Fine' }))
          .status,
      ).toBeLessThan(300);
      expect((await call(account.keys.test, '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks' })).status).toBe(
        201,
      );
      expect((await call(account.keys.live, '/v1/conversations', { customer_ref: 'cus-2' })).status).toBe(201);
      expect(
        (await call(account.keys.test, '/v1/knowledge', { title: 'Returns', body: 'Within 30 days.' })).status,
      ).toBe(201);
      expect(
        (
          await call(
            account.keys.test,
            '/v1/actions/order_status',
            { description: 'The status of an order' },
            {},
            'PUT',
          )
        ).status,
      ).toBeLessThan(300);
      expect(
        (
          await call(
            account.keys.test,
            '/v1/sandbox/fixtures/order_status',
            { result: { status: 'shipped' } },
            {},
            'PUT',
          )
        ).status,
      ).toBeLessThan(300);
    }
    const deleted = await operator(`/${made.account_id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    for (const key of [made.keys.test, made.keys.live]) {
      const refused = await request(`${engine.url}/v1/me`, { token: key });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('unauthorized');
    }
    expect((await operator(`/${made.account_id}`, { method: 'DELETE' })).status).toBe(404);

    // Every table that names an account, or one of its conversations, keys or endpoints, holds nothing of it.
    const columns = await engine.sql.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND column_name IN ('account_id', 'conversation_id', 'key_id', 'endpoint_id')`,
    );
    const named = [
      ...new Set(columns.filter((column) => column.column_name === 'account_id').map((column) => column.table_name)),
    ];
    expect(named.filter((table) => !ERASED_TABLES.includes(table))).toEqual([]);
    for (const { table_name: table, column_name: column } of columns) {
      const owner =
        column === 'account_id'
          ? '$1'
          : column === 'conversation_id'
            ? `(SELECT id FROM conversations WHERE account_id = $1)`
            : column === 'key_id'
              ? `(SELECT id FROM api_keys WHERE account_id = $1)`
              : `(SELECT id FROM webhook_endpoints WHERE account_id = $1)`;
      const [row] = await engine.sql.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${table} WHERE ${column}${column === 'account_id' ? ' = ' : ' IN '}${owner}`,
        [made.account_id],
      );
      expect(Number(row!.n), `${table}.${column}`).toBe(0);
    }
    expect(await engine.sql.query('SELECT 1 FROM accounts WHERE id = $1', [made.account_id])).toHaveLength(0);
    // The rows that named its conversations only by id (turns, voice sessions, survey answers) went with them.
    const [orphans] = await engine.sql.query<{ n: string }>(
      'SELECT count(*) AS n FROM turns WHERE conversation_id NOT IN (SELECT id FROM conversations)',
    );
    expect(Number(orphans!.n)).toBe(0);
    // The other account keeps everything.
    expect((await request(`${engine.url}/v1/me`, { token: other.keys.test })).status).toBe(200);
    const [kept] = await engine.sql.query<{ n: string }>(
      'SELECT count(*) AS n FROM conversations WHERE account_id = $1',
      [other.account_id],
    );
    expect(Number(kept!.n)).toBe(2);
  });

  it('adds keys to an account that open that account only, lists them without the keys, and revokes one at once', async () => {
    const made = await make('Key ring shop');
    const other = await make('Neighbour shop');
    const added = await operator(`/${made.account_id}/keys`, { body: { environment: 'live' } });
    expect(added.status).toBe(201);
    expect(added.headers.get('cache-control')).toBe('no-store');
    expect(added.body).toEqual({
      id: expect.stringMatching(/^key_/),
      environment: 'live',
      prefix: added.body.key.slice(0, 17),
      created_at: expect.any(String),
      revoked_at: null,
      key: expect.stringMatching(/^service_live_/),
    });
    const me = await request(`${engine.url}/v1/me`, { token: added.body.key });
    expect(me.body).toMatchObject({ account_id: made.account_id, environment: 'live', key: { id: added.body.id } });
    // Another account's conversation is not this key's.
    const foreign = await request(`${engine.url}/v1/conversations`, {
      token: other.keys.live,
      body: { customer_ref: 'neighbour-1' },
    });
    expect(
      (await request(`${engine.url}/v1/conversations/${foreign.body.id}/transcript`, { token: added.body.key })).status,
    ).toBe(404);
    const sandbox = await operator(`/${made.account_id}/keys`, { body: { environment: 'sandbox' } });
    expect(sandbox.body.key).toMatch(/^service_test_/);

    const listed = await operator(`/${made.account_id}/keys`);
    expect(listed.status).toBe(200);
    expect(listed.body.keys).toHaveLength(4);
    expect(listed.body.keys.map((key: { environment: string }) => key.environment).sort()).toEqual([
      'live',
      'live',
      'sandbox',
      'sandbox',
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(added.body.key.slice(17));
    expect(listed.body.keys.every((key: { revoked_at: unknown }) => key.revoked_at === null)).toBe(true);

    // Another account's key is not found through this account, and stays valid.
    const otherKeys = (await operator(`/${other.account_id}/keys`)).body.keys as { id: string }[];
    expect((await operator(`/${made.account_id}/keys/${otherKeys[0]!.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await request(`${engine.url}/v1/me`, { token: other.keys.test })).status).toBe(200);

    expect((await operator(`/${made.account_id}/keys/${added.body.id}`, { method: 'DELETE' })).status).toBe(204);
    const refused = await request(`${engine.url}/v1/me`, { token: added.body.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
    // The account's other keys keep working; revoking again changes nothing.
    for (const key of [made.keys.live, made.keys.test, sandbox.body.key])
      expect((await request(`${engine.url}/v1/me`, { token: key })).status).toBe(200);
    const revokedAt = (
      (await operator(`/${made.account_id}/keys`)).body.keys as { id: string; revoked_at: string | null }[]
    ).find((key) => key.id === added.body.id)!.revoked_at;
    expect(revokedAt).not.toBeNull();
    expect((await operator(`/${made.account_id}/keys/${added.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(
      ((await operator(`/${made.account_id}/keys`)).body.keys as { id: string; revoked_at: string | null }[]).find(
        (key) => key.id === added.body.id,
      )!.revoked_at,
    ).toBe(revokedAt);
  });

  it('makes a key and deletes its account at the same moment without a 5xx, and leaves no key of the deleted account', async () => {
    for (let round = 0; round < 5; round++) {
      const { account_id: id } = await make(`Racing shop ${round}`);
      const [key, deleted] = await Promise.all([
        operator(`/${id}/keys`, { body: { environment: 'live' } }),
        operator(`/${id}`, { method: 'DELETE' }),
      ]);
      expect([201, 404]).toContain(key.status);
      expect(deleted.status).toBe(204);
      const left = await engine.sql.query('SELECT id FROM api_keys WHERE account_id = $1', [id]);
      expect(left).toEqual([]);
      if (key.status === 201) expect((await request(`${engine.url}/v1/me`, { token: key.body.key })).status).toBe(401);
    }
  });

  it('answers bad input on the key routes with a 4xx, never a 5xx, and makes no key', async () => {
    const made = await make('Careful shop');
    for (const body of [
      {},
      { environment: 'production' },
      { environment: 'live', key: 'service_live_chosenbyme000000000000000' },
      { environment: 1 },
      [],
      null,
      'live',
    ]) {
      const refused = await operator(`/${made.account_id}/keys`, { body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
    }
    for (const rawBody of ['{', '{"environment":', '\u0000'])
      expect((await operator(`/${made.account_id}/keys`, { rawBody })).status).toBe(400);
    const unknown = `acc_${'0'.repeat(24)}`;
    expect((await operator(`/${unknown}/keys`, { body: { environment: 'live' } })).status).toBe(404);
    expect((await operator(`/${unknown}/keys`)).status).toBe(404);
    expect((await operator(`/${made.account_id}/keys/key_${'0'.repeat(24)}`, { method: 'DELETE' })).status).toBe(404);
    for (const keyId of ['key_', 'acc_0000000000000000', '..%2F..%2Fetc', 'x'.repeat(300), '%00']) {
      const refused = await operator(`/${made.account_id}/keys/${keyId}`, { method: 'DELETE' });
      expect(refused.status, keyId).toBeGreaterThanOrEqual(400);
      expect(refused.status, keyId).toBeLessThan(500);
    }
    expect((await operator(`/${made.account_id}/keys`)).body.keys).toHaveLength(2);
  });

  it("is in the engine's OpenAPI document under the Operator tag, with the operator token and no Idempotency-Key", async () => {
    const document = (await request(`${engine.url}/v1/openapi.json`)).body as {
      paths: Record<
        string,
        Record<
          string,
          { tags: string[]; security: unknown; parameters?: { name: string }[]; responses: Record<string, unknown> }
        >
      >;
    };
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/operator/'))
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({ where: `${method} ${path}`, operation })),
      );
    expect(operations.map(({ where }) => where).sort()).toEqual([
      'delete /operator/v1/accounts/{id}',
      'delete /operator/v1/accounts/{id}/keys/{key_id}',
      'get /operator/v1/accounts/{id}/keys',
      'get /operator/v1/accounts/{id}/limits',
      'patch /operator/v1/accounts/{id}/limits',
      'post /operator/v1/accounts',
      'post /operator/v1/accounts/{id}/keys',
      'post /operator/v1/accounts/{id}/moves',
      'post /operator/v1/accounts/{id}/resume',
      'post /operator/v1/accounts/{id}/suspend',
    ]);
    for (const { where, operation } of operations) {
      expect(operation.tags, where).toEqual(['Operator']);
      expect(operation.security, where).toEqual([{ operatorToken: [] }]);
      expect(
        (operation.parameters ?? []).map((parameter) => parameter.name),
        where,
      ).not.toContain('Idempotency-Key');
      expect(Object.keys(operation.responses), where).toContain('401');
    }
  });
});
