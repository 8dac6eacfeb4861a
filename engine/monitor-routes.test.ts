import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { MONITORS_MAX } from '../shared/schemas/monitors.ts';
import { setAccountRateLimit } from './index.ts';

/** `/v1/monitors` and `/v1/findings`: good, bad, unauthorised and other accounts' calls, on both stores. */
describe.each(DRIVERS)('the monitor routes on $name', (driver) => {
  let engine: TestEngine;
  let key: string;
  let otherKey: string;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: key, ...options });
  const chargebacks = { name: 'Chargebacks', criteria: { keywords: ['chargeback', 'lawyer'] }, severity: 'high' };
  const count = async () =>
    (await engine.sql.query<{ count: number }>('SELECT count(*)::int AS count FROM monitors'))[0]!.count;

  beforeAll(async () => {
    engine = await startEngine(driver);
    const own = await engine.issueKey({ otherAccount: true });
    key = own.key;
    await setAccountRateLimit(engine.sql, own.accountId, 'sandbox', 100_000);
    otherKey = (await engine.issueKey({ otherAccount: true })).key;
  });
  afterAll(async () => {
    await engine?.engine.monitors.stop();
    await engine?.stop();
  });

  it('adds, lists, reads, changes and removes a monitor', async () => {
    const created = await api('/v1/monitors', { body: chargebacks });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^mon_/),
      name: 'Chargebacks',
      criteria: { keywords: ['chargeback', 'lawyer'], pattern: null, instruction: null },
      scope: 'all',
      severity: 'high',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id as string;
    expect((await api('/v1/monitors')).body.monitors).toEqual([created.body]);
    expect((await api(`/v1/monitors/${id}`)).body).toEqual(created.body);

    const changed = await api(`/v1/monitors/${id}`, {
      method: 'PATCH',
      body: { scope: 'customer_messages', criteria: { pattern: 'charge\\s*back' } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'Chargebacks',
      scope: 'customer_messages',
      severity: 'high',
      criteria: { keywords: [], pattern: 'charge\\s*back', instruction: null },
    });
    expect((await api(`/v1/monitors/${id}/findings`)).body).toEqual({ findings: [], next: null, has_more: false });

    expect((await api(`/v1/monitors/${id}`, { method: 'DELETE' })).status).toBe(204);
    const gone = await api(`/v1/monitors/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    expect((await api(`/v1/monitors/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it.each([
    ['no criteria', { name: 'Empty', criteria: {} }],
    ['empty keywords only', { name: 'Empty', criteria: { keywords: [] } }],
    ['a keyword of spaces', { name: 'Spaces', criteria: { keywords: ['  '] } }],
    ['no name', { criteria: { keywords: ['refund'] } }],
    ['an unknown scope', { name: 'Scope', criteria: { keywords: ['refund'] }, scope: 'people' }],
    ['an unknown severity', { name: 'Severity', criteria: { keywords: ['refund'] }, severity: 'urgent' }],
    ['an unknown field', { name: 'Field', criteria: { keywords: ['refund'] }, colour: 'red' }],
  ])('refuses a monitor with %s (400 invalid_request) and stores nothing', async (_, body) => {
    const before = await count();
    const response = await api('/v1/monitors', { body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    expect(await count()).toBe(before);
  });

  it.each([
    ['a lookahead', '(?=\\d{5})(\\d+)'],
    ['a backreference', '(\\d)\\1'],
    ['a counted repeat too large to compile', '(\\w{1,999}){50}'],
  ])('refuses a pattern with %s as action patterns are refused, storing nothing', async (_, pattern) => {
    const before = await count();
    const response = await api('/v1/monitors', { body: { name: 'Unsafe', criteria: { pattern } } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    expect(response.body.error.message).toMatch(/criteria\.pattern/);
    expect(await count()).toBe(before);
  });

  it('refuses an instruction without an LLM configured (422 not_available), on create and on change', async () => {
    const before = await count();
    const instruction = { name: 'Promises', criteria: { instruction: 'The AI promised something it cannot do' } };
    const refused = await api('/v1/monitors', { body: instruction });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('not_available');
    expect(await count()).toBe(before);

    const made = await api('/v1/monitors', { body: chargebacks });
    const changed = await api(`/v1/monitors/${made.body.id}`, {
      method: 'PATCH',
      body: { criteria: { keywords: ['x'], instruction: 'Anything' } },
    });
    expect(changed.status).toBe(422);
    expect(changed.body.error.code).toBe('not_available');
    expect((await api(`/v1/monitors/${made.body.id}`)).body.criteria.instruction).toBeNull();
    await api(`/v1/monitors/${made.body.id}`, { method: 'DELETE' });
  });

  it('refuses a change with nothing to change, and ids that are not monitor ids', async () => {
    const made = await api('/v1/monitors', { body: chargebacks });
    const empty = await api(`/v1/monitors/${made.body.id}`, { method: 'PATCH', body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('invalid_request');
    expect((await api('/v1/monitors/not-a-monitor')).status).toBe(400);
    const cursor = await api(`/v1/monitors/${made.body.id}/findings?after=mnf_0000000000000000`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.code).toBe('invalid_request');
    expect((await api('/v1/findings?limit=1000')).status).toBe(400);
    await api(`/v1/monitors/${made.body.id}`, { method: 'DELETE' });
  });

  it('answers 401 without a key, and shows one account or environment nothing of another', async () => {
    const made = await api('/v1/monitors', { body: chargebacks });
    const id = made.body.id as string;
    const anonymous = await request(`${engine.url}/v1/monitors`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
    expect((await request(`${engine.url}/v1/monitors`, { body: chargebacks })).status).toBe(401);

    const other = (path: string, options: Parameters<typeof request>[1] = {}) =>
      request(engine.url + path, { token: otherKey, ...options });
    expect((await other('/v1/monitors')).body.monitors).toEqual([]);
    for (const [path, options] of [
      [`/v1/monitors/${id}`, {}],
      [`/v1/monitors/${id}`, { method: 'PATCH', body: { name: 'Taken' } }],
      [`/v1/monitors/${id}`, { method: 'DELETE' }],
      [`/v1/monitors/${id}/findings`, {}],
    ] as const) {
      const response = await other(path, options);
      expect(response.status, path).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    // The live key of the test's own shop account sees none of the sandbox's monitors either.
    expect((await request(`${engine.url}/v1/monitors/${id}`, { token: engine.liveApiKey })).status).toBe(404);
    expect((await api(`/v1/monitors/${id}`)).body.name).toBe('Chargebacks');
    await api(`/v1/monitors/${id}`, { method: 'DELETE' });
  });

  it(`keeps at most ${MONITORS_MAX} monitors per environment (422 unprocessable)`, async () => {
    const existing = (await api('/v1/monitors')).body.monitors.length as number;
    for (let index = existing; index < MONITORS_MAX; index++)
      expect((await api('/v1/monitors', { body: { ...chargebacks, name: `Monitor ${index}` } })).status).toBe(201);
    const refused = await api('/v1/monitors', { body: chargebacks });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('unprocessable');
    expect((await api('/v1/monitors')).body.monitors).toHaveLength(MONITORS_MAX);
  });

  it('lists its routes in the OpenAPI document', async () => {
    const document = (await request(`${engine.url}/v1/openapi.json`)).body;
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/monitors', '/v1/monitors/{id}', '/v1/monitors/{id}/findings', '/v1/findings']),
    );
  });
});
