import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../shared/index.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { until } from '../test/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.ts';

/**
 * Issue 29, reports that arrive later: asked for with POST /v1/reports (202), gathered by the
 * report worker off the request path, announced by report.ready in the feed and in signed
 * webhooks, and read as a CSV or JSON file. Conversations are made through the real API on a clock
 * the test moves, so the rows are known.
 */
describe.each(DRIVERS)('reports that arrive later on $name', (driver) => {
  let engine: TestEngine;
  let receiver: WebhookReceiver;
  let secret: string;
  let clock = new Date('2026-05-04T09:00:00Z');
  const at = (iso: string) => (clock = new Date(iso));
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const open = async (customer_ref: string) =>
    (await api('/v1/conversations', { body: { customer_ref } })).body.id as string;
  const ask = (body: object, token = engine.apiKey) => request(`${engine.url}/v1/reports`, { token, body });
  const ready = (id: string) =>
    until(
      () => api(`/v1/reports/${id}`),
      (response) => response.body.status === 'ready' || response.body.status === 'failed',
      `report ${id}`,
    );
  const storedReports = async () =>
    (await engine.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM reports'))[0]!.n;
  const ids: Record<string, string> = {};
  const aiAnsweredOn = async (day: string) =>
    (await api(`/v1/reports/summary?from=${day}&to=${day}`)).body.conversations.answered_by_ai as number;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    engine = await startEngine(driver, () => clock, { webhooks: { allowedPrivateOrigins: [receiver.origin] } });
    secret = (await api('/v1/webhook-endpoints', { body: { url: receiver.url } })).body.secret;

    // Answered by the AI, closed resolved (so scored), rated 5 with a comment that looks like a formula.
    ids['answered'] = await open('customer-answered');
    await api(`/v1/conversations/${ids['answered']}/messages`, { body: { text: 'How do I return an item?' } });
    await api(`/v1/conversations/${ids['answered']}/close`, { body: { resolved: true } });
    await api(`/v1/conversations/${ids['answered']}/survey`, {
      body: { rating: 5, comment: '=HYPERLINK("http://evil.example","Fine, thanks")' },
    });
    // Handed to people; the customer writes; a person answers 90 seconds after the handover.
    at('2026-05-05T10:00:00Z');
    ids['handed'] = await open('customer-handed');
    await api(`/v1/conversations/${ids['handed']}/handover`, { body: { reason: 'vip' } });
    at('2026-05-05T10:00:30Z');
    await api(`/v1/conversations/${ids['handed']}/messages`, { body: { text: 'My parcel arrived broken.' } });
    at('2026-05-05T10:01:30Z');
    await api(`/v1/conversations/${ids['handed']}/human-messages`, { body: { text: 'A new one is on its way.' } });
    at('2026-05-10T12:00:00Z');
  });
  afterAll(async () => {
    await engine?.stop();
    await receiver?.close();
  });

  it('answers 202 pending, gathers the report after the answer, and tells report.ready in the feed and a signed webhook', async () => {
    const asked = await ask({ kind: 'conversations', from: '2026-05-01', to: '2026-05-09', format: 'csv' });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ id: expect.stringMatching(/^rpt_/), status: 'pending', kind: 'conversations' });
    const done = await ready(asked.body.id);
    expect(done.body).toMatchObject({
      status: 'ready',
      rows: 2,
      failure_reason: null,
      from: '2026-05-01T00:00:00.000Z',
      to: '2026-05-10T00:00:00.000Z',
      finished_at: clock.toISOString(),
      expires_at: '2026-05-17T12:00:00.000Z',
    });
    const feed = (await api('/v1/events?types=report.ready&limit=100')).body.events as { id: string; data: unknown }[];
    const event = feed.find((item) => (item.data as { report_id: string }).report_id === asked.body.id)!;
    expect(event).toMatchObject({
      conversation_id: null,
      data: { report_id: asked.body.id, kind: 'conversations', rows: 2 },
    });

    await engine.engine.webhooks.drain();
    const delivery = receiver.received.find((item) => item.headers['x-service-event-id'] === event.id)!;
    expect(JSON.parse(delivery.body)).toEqual({ ...event, environment: 'sandbox' });
    const signed = [delivery.headers['x-service-timestamp'], delivery.headers['x-service-signature']] as string[];
    expect(await verifyWebhook(secret, signed[0], signed[1], delivery.body, clock.getTime())).toBeUndefined();
  });

  it('writes the conversations report as CSV: one row each, first answer and handover wait, with a download name', async () => {
    const asked = await ask({ kind: 'conversations', from: '2026-05-01', to: '2026-05-09' });
    await ready(asked.body.id);
    const content = await fetch(`${engine.url}/v1/reports/${asked.body.id}/content`, {
      headers: { authorization: `Bearer ${engine.apiKey}` },
    });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(content.headers.get('content-disposition')).toBe(
      `attachment; filename="conversations-2026-05-01-${asked.body.id}.csv"`,
    );
    const lines = (await content.text()).split('\r\n');
    expect(lines[0]).toBe(
      'conversation_id,opened_at,state,ai_answered,customer_messages,first_answer_ms,handed_over,handovers,handed_over_at,handover_wait_ms,closed_at,resolved,quality_score,csat_rating',
    );
    // Whether the AI's reply counted as an answer is the summary's to say; the report agrees with it.
    const aiAnswered = (await aiAnsweredOn('2026-05-04')) === 1;
    expect(lines[1]).toMatch(
      new RegExp(
        `^${ids['answered']},2026-05-04T09:00:00.000Z,closed,${aiAnswered},1,0,false,0,,,2026-05-04T09:00:00.000Z,true,\\d+,5$`,
      ),
    );
    expect(lines[2]).toBe(
      `${ids['handed']},2026-05-05T10:00:00.000Z,human,false,1,60000,true,1,2026-05-05T10:00:00.000Z,90000,,,,`,
    );
    expect(lines[3]).toBe('');
  });

  it('writes csat and quality reports as JSON, and opens a formula-like comment with an apostrophe in CSV', async () => {
    const json = await ask({ kind: 'csat', from: '2026-05-01', to: '2026-05-31', format: 'json' });
    await ready(json.body.id);
    const file = await fetch(`${engine.url}/v1/reports/${json.body.id}/content`, {
      headers: { authorization: `Bearer ${engine.apiKey}` },
    });
    expect(file.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await file.json()).toEqual({
      id: json.body.id,
      kind: 'csat',
      from: '2026-05-01T00:00:00.000Z',
      to: '2026-06-01T00:00:00.000Z',
      rows: [
        {
          conversation_id: ids['answered'],
          rating: 5,
          comment: '=HYPERLINK("http://evil.example","Fine, thanks")',
          answered_at: '2026-05-04T09:00:00.000Z',
          changed_at: '2026-05-04T09:00:00.000Z',
        },
      ],
    });
    const csv = await ask({ kind: 'csat', from: '2026-05-01', to: '2026-05-31', format: 'csv' });
    await ready(csv.body.id);
    const text = (await api(`/v1/reports/${csv.body.id}/content`)).body as string;
    expect(text.split('\r\n')[1]).toBe(
      `${ids['answered']},5,"'=HYPERLINK(""http://evil.example"",""Fine, thanks"")",2026-05-04T09:00:00.000Z,2026-05-04T09:00:00.000Z`,
    );

    const quality = await ask({ kind: 'quality', from: '2026-05-01', to: '2026-05-31', format: 'json' });
    await ready(quality.body.id);
    const scored = (await api(`/v1/reports/${quality.body.id}/content`)).body.rows as Record<string, unknown>[];
    expect(scored).toEqual([
      {
        conversation_id: ids['answered'],
        closed_at: '2026-05-04T09:00:00.000Z',
        resolved: true,
        score: expect.any(Number),
        reasons: expect.any(String),
      },
    ]);
  });

  it('gives the figures day by day for charts, quiet days too, and refuses a bad period', async () => {
    const response = await api('/v1/reports/daily?from=2026-05-03&to=2026-05-05');
    expect(response.status).toBe(200);
    const quiet = { p50: null, p95: null };
    expect(response.body).toEqual({
      from: '2026-05-03T00:00:00.000Z',
      to: '2026-05-06T00:00:00.000Z',
      days: [
        {
          day: '2026-05-03',
          opened: 0,
          answered_by_ai: 0,
          handed_over: 0,
          resolved: 0,
          first_answer_ms: quiet,
          handover_wait_ms: quiet,
          csat: { responses: 0, average: null },
        },
        {
          day: '2026-05-04',
          opened: 1,
          answered_by_ai: await aiAnsweredOn('2026-05-04'),
          handed_over: 0,
          resolved: 1,
          first_answer_ms: { p50: 0, p95: 0 },
          handover_wait_ms: quiet,
          csat: { responses: 1, average: 5 },
        },
        {
          day: '2026-05-05',
          opened: 1,
          answered_by_ai: 0,
          handed_over: 1,
          resolved: 0,
          first_answer_ms: { p50: 60_000, p95: 60_000 },
          handover_wait_ms: { p50: 90_000, p95: 90_000 },
          csat: { responses: 0, average: null },
        },
      ],
    });
    const backwards = await api('/v1/reports/daily?from=2026-05-05&to=2026-05-03');
    expect([backwards.status, backwards.body.error.code]).toEqual([400, 'invalid_request']);
    expect((await request(`${engine.url}/v1/reports/daily`)).status).toBe(401);
  });

  it('refuses bad requests with a stable code and records nothing', async () => {
    const before = await storedReports();
    const refusals: [object, number, string][] = [
      [{ kind: 'conversations', from: '2026-05-09', to: '2026-05-01' }, 400, 'invalid_request'],
      [{ kind: 'conversations', from: '2025-01-01', to: '2026-05-01' }, 400, 'invalid_request'],
      [{ kind: 'sales', from: '2026-05-01', to: '2026-05-09' }, 400, 'invalid_request'],
      [{ kind: 'csat', from: 'last week', to: '2026-05-09' }, 400, 'invalid_request'],
      [{ kind: 'csat', from: '2026-05-01', to: '2026-05-09', format: 'xlsx' }, 400, 'invalid_request'],
      [{ kind: 'csat', from: '2026-05-01' }, 400, 'invalid_request'],
      [{ kind: 'csat', from: '2026-05-01', to: '2026-05-09', extra: 1 }, 400, 'invalid_request'],
    ];
    for (const [body, status, code] of refusals) {
      const response = await ask(body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error.code, JSON.stringify(body)).toBe(code);
    }
    expect((await api('/v1/reports/not-a-report')).body.error.code).toBe('invalid_request');
    expect((await api(`/v1/reports/rpt_${'0'.repeat(22)}`)).status).toBe(404);
    expect(await storedReports()).toBe(before);
  });

  it("is a 404 for another account's report or the other environment's, and a 401 without a valid key", async () => {
    const mine = (await ask({ kind: 'csat', from: '2026-05-01', to: '2026-05-09' })).body.id as string;
    await ready(mine);
    const other = await engine.issueKey({ otherAccount: true });
    for (const token of [other.key, engine.liveApiKey]) {
      for (const path of [`/v1/reports/${mine}`, `/v1/reports/${mine}/content`]) {
        const response = await request(engine.url + path, { token });
        expect(response.status, path).toBe(404);
        expect(response.body.error.code).toBe('not_found');
      }
    }
    expect((await request(`${engine.url}/v1/reports/${mine}`)).status).toBe(401);
    expect((await request(`${engine.url}/v1/reports/${mine}/content`)).status).toBe(401);
    const unkeyed = await request(`${engine.url}/v1/reports`, {
      body: { kind: 'csat', from: '2026-05-01', to: '2026-05-09' },
    });
    expect(unkeyed.status).toBe(401);
  });

  it('gives the same report to a retry with the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': `report-${driver.name}` };
    const body = { kind: 'quality', from: '2026-05-01', to: '2026-05-09' };
    const first = await api('/v1/reports', { body, headers });
    const retry = await api('/v1/reports', { body, headers });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.id).toBe(first.body.id);
    await ready(first.body.id);
  });

  it('forgets a report whose file names a forgotten customer’s conversation', async () => {
    const asked = (await ask({ kind: 'csat', from: '2026-05-01', to: '2026-05-09' })).body.id as string;
    await ready(asked);
    expect((await api('/v1/customers/customer-answered/forget', { body: {} })).body.conversations).toBe(1);
    expect((await api(`/v1/reports/${asked}`)).status).toBe(404);
  });
});
