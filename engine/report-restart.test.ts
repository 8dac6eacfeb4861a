import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, logger, request, startEngine, type TestEngine } from '../test/stack.ts';
import { until } from '../test/until.ts';
import { createEngine, type Engine } from './index.ts';

/**
 * A report asked for is a row in the store, not work held by a process: asked of an engine that
 * stops before gathering it, it is gathered by the next engine started on the same store.
 */
describe.each(DRIVERS)('reports across a restart on $name', (driver) => {
  let first: TestEngine;
  let next: Engine | undefined;
  let conversationId: string;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(first.url + path, { token: first.apiKey, ...options });

  beforeAll(async () => {
    first = await startEngine(driver);
    conversationId = (await api('/v1/conversations', { body: { customer_ref: 'before-the-restart' } })).body.id;
    // This engine takes requests but gathers nothing more, as one about to stop.
    await first.engine.reports.stop();
  });
  afterAll(async () => {
    await next?.reports.stop();
    await next?.webhooks.stop();
    await next?.media.stop();
    await first?.stop();
  });

  it('keeps a report pending (its file a 409) until a new engine on the same store gathers it; one that broke off too often fails, saying why', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const asked = await api('/v1/reports', { body: { kind: 'conversations', from: today, to: today } });
    expect(asked.status).toBe(202);
    const broken = await api('/v1/reports', { body: { kind: 'csat', from: today, to: today, format: 'json' } });
    // As if three processes had each died while gathering it.
    await first.sql.query("UPDATE reports SET status = 'running', attempts = 3, lease_until = $2 WHERE id = $1", [
      broken.body.id,
      new Date(Date.now() - 1000),
    ]);
    expect((await api(`/v1/reports/${asked.body.id}`)).body.status).toBe('pending');
    const early = await api(`/v1/reports/${asked.body.id}/content`);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('invalid_state');

    next = await createEngine({ sql: first.sql, logger });
    const done = await until(
      () => api(`/v1/reports/${asked.body.id}`),
      (response) => response.body.status === 'ready',
      'the report gathered by the new engine',
    );
    expect(done.body.rows).toBe(1);
    expect((await api(`/v1/reports/${asked.body.id}/content`)).body).toContain(`\r\n${conversationId},`);
    const failed = await until(
      () => api(`/v1/reports/${broken.body.id}`),
      (response) => response.body.status === 'failed',
      'the report that broke off',
    );
    expect(failed.body).toMatchObject({ rows: null, failure_reason: 'Gathering it broke off 3 times.' });
    const refused = await api(`/v1/reports/${broken.body.id}/content`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('broke off 3 times');
  });
});
