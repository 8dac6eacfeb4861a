import { afterAll, describe, expect, it } from 'vitest';
import { openSql, type Sql } from '../../shared/server/index.ts';
import {
  DEMO_API_KEY,
  DEMO_SITE_KEY,
  DRIVERS,
  freePort,
  request,
  startBffAndEngine,
  startStack,
  type TestStack,
} from '../../test/stack.ts';

const REDIS_URL = process.env['REDIS_TEST_URL'] ?? 'redis://127.0.0.1:6379';

/** A real PGlite store whose statements wait until `open()`: the BFF stays in its start-up (migrations) until then. */
async function gatedStore(): Promise<{ sql: Sql; open(): void; reached: Promise<void> }> {
  const real = await openSql({ dataDir: 'memory://', schema: 'bff' });
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const waitThen =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      reach();
      await gate;
      return run(...args);
    };
  const sql: Sql = Object.assign(Object.create(real) as Sql, {
    query: waitThen(real.query.bind(real)),
    transaction: waitThen(real.transaction.bind(real)),
    close: () => real.close(),
  });
  return { sql, open, reached };
}

describe('a BFF that is still starting', () => {
  it('answers 503 starting with Retry-After (and /healthz 200) instead of holding the request, then serves once ready', async () => {
    const port = await freePort();
    const store = await gatedStore();
    const starting = startBffAndEngine({ env: { PORT: String(port) }, bff: { sql: store.sql } });
    try {
      await store.reached;
      const url = `http://127.0.0.1:${port}`;
      const early = await request(`${url}/v1/widget/sessions`, { body: {}, token: DEMO_SITE_KEY });
      expect(early.status).toBe(503);
      expect(early.body.error.code).toBe('starting');
      expect(early.headers.get('retry-after')).toBe('1');
      const alive = await request(`${url}/healthz`);
      expect([alive.status, alive.body]).toEqual([200, { status: 'ok' }]);
      expect((await request(`${url}/readyz`)).status).toBe(503);

      store.open();
      await starting;
      const ready = await request(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.body.checks.store.ok).toBe(true);
    } finally {
      store.open();
      await starting.then((stack) => stack.stop()).catch(() => undefined);
      await store.sql.close();
    }
  });
});

describe('GET /readyz', () => {
  const stacks: TestStack[] = [];
  afterAll(async () => {
    for (const stack of stacks) await stack.stop();
  });

  it('is ready when the store and the engine answer, and says so per check', async () => {
    const stack = await startStack();
    stacks.push(stack);
    const ready = await request(`${stack.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(ready.body).toMatchObject({ status: 'ready', checks: { store: { ok: true }, engine: { ok: true } } });
    expect(ready.body.checks.redis).toBeUndefined();
  });

  it('is not ready while the engine cannot be reached, naming the engine and not where it lives', async () => {
    const deadEngine = `http://127.0.0.1:${await freePort()}`;
    const stack = await startStack(undefined, {
      AI_API_URL: deadEngine,
      AI_API_KEY: DEMO_API_KEY,
      ENGINE_WEBHOOK_SECRET: 'whsec_test_secret_for_readyz',
    });
    stacks.push(stack);
    const ready = await request(`${stack.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      status: 'not_ready',
      checks: { store: { ok: true }, engine: { ok: false, error: 'failed' } },
    });
    expect(JSON.stringify(ready.body)).not.toContain(deadEngine.split('//')[1]!);
    // Alive all the same: nothing should restart a node because its engine is away.
    expect((await request(`${stack.url}/healthz`)).status).toBe(200);
  });

  it('checks Redis when the BFF shares one', async () => {
    const stack = await startBffAndEngine({
      driver: DRIVERS[1],
      env: { REDIS_URL, SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc' },
    });
    stacks.push(stack);
    const ready = await request(`${stack.url}/readyz`);
    expect(ready.body).toMatchObject({ status: 'ready', checks: { redis: { ok: true } } });
  });
});
