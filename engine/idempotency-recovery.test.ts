import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBoundary, migrate, openSql, type Sql } from '../shared/server/index.ts';
import { closeServer, logger, request, startEngine, type TestEngine } from '../test/stack.ts';
import type { EngineState } from './auth.ts';
import { idempotency } from './idempotency.ts';
import { ENGINE_MIGRATIONS, issueApiKey } from './index.ts';

const OPEN_ROUTE = 'POST /v1/conversations';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Issue 34: a key whose first request died with its process (`kill -9`, a lost database
 * connection) is usable again within the lease (6 s), not after a minute; a first request that is
 * alive keeps its key however long it runs, because its process renews the lease.
 */
describe('an Idempotency-Key whose first request died', () => {
  let engine: TestEngine;
  const now = new Date('2026-03-01T10:00:00Z');
  const rawBody = JSON.stringify({ customer_ref: 'after-a-crash' });
  /** The row a process leaves when it dies mid-request: running, held by it until `heldUntil`. */
  const leftRunning = (keyId: string, key: string, startedAt: Date, heldUntil: Date) =>
    engine.sql.query(
      `INSERT INTO idempotency_keys (key_id, idempotency_key, route, request_sha256, state, created_at, held_by, held_until)
       VALUES ($1, $2, $3, $4, 'running', $5, 'a-process-that-died', $6)`,
      [keyId, key, OPEN_ROUTE, sha256(rawBody), startedAt, heldUntil],
    );
  const retry = (apiKey: string, key: string) =>
    request(`${engine.url}/v1/conversations`, { token: apiKey, rawBody, headers: { 'idempotency-key': key } });

  beforeAll(async () => {
    engine = await startEngine(undefined, () => now);
  });
  afterAll(() => engine?.stop());

  it("lets a retry run as soon as the dead process's lease has lapsed, seconds after it began", async () => {
    const { id: keyId, key: apiKey } = await issueApiKey(engine.sql, engine.accountId, 'sandbox');
    const key = randomUUID();
    await leftRunning(keyId, key, new Date(now.getTime() - 7_000), new Date(now.getTime() - 1_000));
    const answer = await retry(apiKey, key);
    expect(answer.status).toBe(201);
    expect(answer.body.customer_ref).toBe('after-a-crash');
    const [row] = await engine.sql.query<{ state: string; held_by: string | null }>(
      'SELECT state, held_by FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2',
      [keyId, key],
    );
    expect(row).toEqual({ state: 'done', held_by: null });
  });

  it('keeps a key whose process still renews its lease, even past a minute: the retry gets 409 and runs nothing', async () => {
    const { id: keyId, key: apiKey } = await issueApiKey(engine.sql, engine.accountId, 'sandbox');
    const key = randomUUID();
    await leftRunning(keyId, key, new Date(now.getTime() - 120_000), new Date(now.getTime() + 4_000));
    const answer = await retry(apiKey, key);
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('idempotency_key_in_use');
  });
});

/**
 * The lease on a running request, with the middleware alone on real time (a short lease): the
 * process renews it while the handler runs, and a process that stops renewing loses it.
 */
describe('the lease a running first request holds', () => {
  let sql: Sql;
  let url: string;
  let server: ReturnType<typeof createServer>;
  let release: () => void = () => undefined;
  let runs = 0;

  beforeAll(async () => {
    sql = await openSql({ dataDir: 'memory://', schema: 'engine' });
    await migrate(sql, ENGINE_MIGRATIONS);
    const app = new Koa<EngineState>();
    app.use(errorBoundary(logger));
    app.use(async (ctx, next) => {
      ctx.state.caller = {
        accountId: 'acc_x',
        environment: 'sandbox',
        keyId: 'key_lease',
        keyPrefix: 'x',
        requestsPerMinute: 1000,
      };
      await next();
    });
    app.use(idempotency(sql, () => new Date(), { leaseMs: 300, renewMs: 100 }));
    app.use(async (ctx) => {
      runs++;
      await new Promise<void>((resolve) => (release = resolve));
      ctx.body = { done: true };
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`;
  });
  afterAll(async () => {
    await closeServer(server);
    await sql?.close();
  });

  it('renews it while the first request runs (a retry after three leases is still 409), then replays its answer', async () => {
    const headers = { 'idempotency-key': 'slow-one' };
    const first = request(url, { body: { n: 1 }, headers });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const during = await request(url, { body: { n: 1 }, headers });
    expect(during.status).toBe(409);
    release();
    expect((await first).status).toBe(200);
    const after = await request(url, { body: { n: 1 }, headers });
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(runs).toBe(1);
  });
});
