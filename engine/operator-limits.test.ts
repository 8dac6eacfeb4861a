import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { createEngine, type Engine } from './app.ts';

/**
 * `/operator/v1/accounts/{id}/limits` and the audit lines of the operator's changes (issue 33): the
 * operator raises an account's limits on request, the next request of its keys holds to them, and
 * each change of a limit or a key is a structured log line naming the action, the account and the
 * values before and after. The engine here logs to a stream the test reads.
 */
describe.each(DRIVERS)('the operator limit routes on $name', (driver) => {
  let shared: TestEngine;
  let engine: Engine;
  let server: Server;
  let url: string;
  const lines: Record<string, unknown>[] = [];
  const audit = () => lines.filter((line) => line['audit'] === 'operator');

  const operator = (path: string, options: { method?: string; body?: unknown; token?: string } = {}) =>
    request(`${url}/operator/v1/accounts${path}`, {
      method: options.method ?? (options.body !== undefined ? 'POST' : 'GET'),
      token: shared.operatorToken,
      ...options,
    });
  const make = async (name: string) => {
    const created = await operator('', { body: { name } });
    expect(created.status).toBe(201);
    return created.body as { account_id: string; keys: { test: string; live: string } };
  };
  const perMinute = async (key: string) =>
    (await request(`${url}/v1/me`, { token: key })).body.limits.requests_per_minute as number;

  beforeAll(async () => {
    shared = await startEngine(driver);
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    engine = await createEngine({
      sql: shared.sql,
      logger: pino({ level: 'info' }, stream),
      operatorToken: shared.operatorToken,
    });
    server = createServer(engine.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (server) await closeServer(server);
    await engine?.webhooks.stop();
    await engine?.media.stop();
    await shared?.stop();
  });

  it("raises an account's limit from its keys' next request, leaves the other environment and account alone, and audits the change", async () => {
    const made = await make('Busy shop');
    const other = await make('Quiet shop');
    expect((await operator(`/${made.account_id}/limits`)).body).toEqual({
      account_id: made.account_id,
      limits: {
        sandbox: { requests_per_minute: 60, default: true },
        live: { requests_per_minute: 300, default: true },
      },
    });
    lines.length = 0;
    const raised = await operator(`/${made.account_id}/limits`, {
      method: 'PATCH',
      body: { requests_per_minute: { live: 1200 } },
    });
    expect(raised.status).toBe(200);
    expect(raised.body.limits).toEqual({
      sandbox: { requests_per_minute: 60, default: true },
      live: { requests_per_minute: 1200, default: false },
    });
    expect(await perMinute(made.keys.live)).toBe(1200);
    expect(await perMinute(made.keys.test)).toBe(60);
    expect(await perMinute(other.keys.live)).toBe(300);
    expect(audit()).toEqual([
      expect.objectContaining({
        via: 'http',
        action: 'account.rate_limit_changed',
        account: made.account_id,
        environment: 'live',
        from: 300,
        to: 1200,
        own_from: null,
        own_to: 1200,
      }),
    ]);

    lines.length = 0;
    const restored = await operator(`/${made.account_id}/limits`, {
      method: 'PATCH',
      body: { requests_per_minute: { live: null, sandbox: 90 } },
    });
    expect(restored.body.limits).toEqual({
      sandbox: { requests_per_minute: 90, default: false },
      live: { requests_per_minute: 300, default: true },
    });
    expect(await perMinute(made.keys.live)).toBe(300);
    expect(await perMinute(made.keys.test)).toBe(90);
    expect(audit().map(({ environment, from, to }) => ({ environment, from, to }))).toEqual([
      { environment: 'sandbox', from: 60, to: 90 },
      { environment: 'live', from: 1200, to: 300 },
    ]);
  });

  it('refuses bad input with 400 invalid_request, an unknown account with 404, and no operator token with 401, changing nothing', async () => {
    const made = await make('Careful limits shop');
    lines.length = 0;
    for (const body of [
      {},
      { requests_per_minute: {} },
      { requests_per_minute: { live: 0 } },
      { requests_per_minute: { live: -1 } },
      { requests_per_minute: { live: 1_000_001 } },
      { requests_per_minute: { live: 12.5 } },
      { requests_per_minute: { live: 'lots' } },
      { requests_per_minute: { production: 100 } },
      { requests_per_minute: { live: 100 }, admin: true },
      { requests_per_minute: null },
      [],
      null,
      'live',
    ]) {
      const refused = await operator(`/${made.account_id}/limits`, { method: 'PATCH', body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
    }
    const unknown = `acc_${'0'.repeat(24)}`;
    for (const method of ['GET', 'PATCH']) {
      const missing = await operator(`/${unknown}/limits`, {
        method,
        ...(method === 'PATCH' ? { body: { requests_per_minute: { live: 100 } } } : {}),
      });
      expect(missing.status, method).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
    }
    for (const token of ['', 'x'.repeat(40), made.keys.live]) {
      for (const method of ['GET', 'PATCH']) {
        const refused = await operator(`/${made.account_id}/limits`, {
          method,
          token,
          ...(method === 'PATCH' ? { body: { requests_per_minute: { live: 100_000 } } } : {}),
        });
        expect(refused.status, `${method} with ${token.slice(0, 12)}`).toBe(401);
        expect(refused.body.error.code).toBe('unauthorized');
      }
    }
    expect(await perMinute(made.keys.live)).toBe(300);
    expect(audit()).toEqual([]);
  });

  it("audits the operator's keys: one line for a key made and one for a key revoked, never the key itself", async () => {
    const made = await make('Audited keys shop');
    lines.length = 0;
    const added = await operator(`/${made.account_id}/keys`, { body: { environment: 'live' } });
    expect(added.status).toBe(201);
    expect((await operator(`/${made.account_id}/keys/${added.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(audit()).toEqual([
      expect.objectContaining({ action: 'api_key.created', account: made.account_id, key: added.body.id }),
      expect.objectContaining({ action: 'api_key.revoked', account: made.account_id, key: added.body.id }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(added.body.key.slice(17));
    expect((await request(`${url}/v1/me`, { token: added.body.key })).status).toBe(401);
  });
});
