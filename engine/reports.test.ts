import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion, fakeModel } from '../test/fake-llm.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';

/**
 * Issue 15, reports: the summary's numbers on a known set of conversations, each made through the
 * real API (open, messages, "did that help?", handover, a person's answer, close, survey answers)
 * on a clock the test moves, so that first-answer times are known to the millisecond.
 */
describe.each(DRIVERS)('reports and survey answers on $name', (driver) => {
  let engine: TestEngine;
  let clock = new Date('2026-03-10T10:00:00Z');
  const at = (iso: string) => (clock = new Date(iso));
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const open = async (customer_ref: string, token = engine.apiKey) =>
    (await request(`${engine.url}/v1/conversations`, { token, body: { customer_ref } })).body.id as string;
  const say = async (id: string, text: string) => {
    const response = await api(`/v1/conversations/${id}/messages`, { body: { text } });
    expect(response.status).toBe(200);
    return response.body.events as { type: string; data: any }[];
  };
  /** Asks a question the knowledge base answers, then presses the answer's Yes or No. */
  const askAndRate = async (id: string, helpful: boolean) => {
    const [reply] = await say(id, 'How do I return an item?');
    const choice = (reply!.data.choices as { label: string; value: string }[]).find(
      (option) => option.label === (helpful ? 'Yes' : 'No'),
    )!;
    await say(id, choice.value);
  };
  const summary = (query: string, token = engine.apiKey) =>
    request(`${engine.url}/v1/reports/summary${query}`, { token });
  const conversations: Record<string, string> = {};

  beforeAll(async () => {
    engine = await startEngine(driver, () => clock);
    // Before the period: not counted.
    at('2026-02-27T09:00:00Z');
    const early = await open('early-customer');
    await say(early, 'How do I return an item?');
    await api(`/v1/conversations/${early}/survey`, { body: { rating: 1 } });

    // A: answered by the AI at once, helped, closed resolved, rated 5.
    at('2026-03-10T10:00:00Z');
    conversations['a'] = await open('customer-a');
    await askAndRate(conversations['a'], true);
    await api(`/v1/conversations/${conversations['a']}/close`, { body: { resolved: true } });
    await api(`/v1/conversations/${conversations['a']}/survey`, { body: { rating: 5, comment: 'Quick and clear.' } });

    // B: handed to people before the customer wrote; a person answers a minute later.
    at('2026-03-11T08:00:00Z');
    conversations['b'] = await open('customer-b');
    await api(`/v1/conversations/${conversations['b']}/handover`, { body: { reason: 'vip' } });
    await say(conversations['b'], 'My parcel arrived broken.');
    at('2026-03-11T08:01:00Z');
    await api(`/v1/conversations/${conversations['b']}/human-messages`, {
      body: { text: 'Sorry to hear that; a new one is on its way.' },
    });

    // C: the same, answered two minutes later.
    at('2026-03-12T08:00:00Z');
    conversations['c'] = await open('customer-c');
    await api(`/v1/conversations/${conversations['c']}/handover`, { body: {} });
    await say(conversations['c'], 'Can I change my address?');
    at('2026-03-12T08:02:00Z');
    await api(`/v1/conversations/${conversations['c']}/human-messages`, { body: { text: 'Done.' } });

    // D: answered by the AI, did not help, closed unresolved, rated 2 then changed to 3.
    at('2026-03-20T15:00:00Z');
    conversations['d'] = await open('customer-d');
    await askAndRate(conversations['d'], false);
    await api(`/v1/conversations/${conversations['d']}/close`, { body: { resolved: false } });
    await api(`/v1/conversations/${conversations['d']}/survey`, { body: { rating: 2 } });
    at('2026-03-20T15:05:00Z');
    await api(`/v1/conversations/${conversations['d']}/survey`, { body: { rating: 3, comment: 'Better after all.' } });

    // E: opened, nothing said.
    at('2026-03-31T23:59:59Z');
    conversations['e'] = await open('customer-e');

    // Live data and another account's are not the sandbox key's.
    const live = await open('live-customer', engine.liveApiKey);
    await request(`${engine.url}/v1/conversations/${live}/survey`, { token: engine.liveApiKey, body: { rating: 1 } });
    const other = await engine.issueKey({ otherAccount: true });
    const theirs = await open('their-customer', other.key);
    await request(`${engine.url}/v1/conversations/${theirs}/survey`, { token: other.key, body: { rating: 1 } });

    at('2026-04-02T12:00:00Z');
  });
  afterAll(() => engine?.stop());

  it('counts a known month: opened, answered by the AI, handed over, resolved, CSAT, "did that help?" and first-answer times', async () => {
    const response = await summary('?from=2026-03-01&to=2026-03-31');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-04-01T00:00:00.000Z',
      conversations: { opened: 5, answered_by_ai: 2, handed_over: 2, resolved: 1 },
      csat: { responses: 2, average: 4 },
      answer_feedback: { yes: 1, no: 1, helpful_rate: 0.5 },
      // A and D were answered at once, B after 60 s, C after 120 s: p50 of [0, 0, 60000, 120000] is 30000, p95 111000.
      first_answer_ms: { measured: 4, p50: 30_000, p95: 111_000 },
    });
  });

  it('takes instants with offsets, counts a day whole, and defaults to the last 30 days', async () => {
    const morning = await summary(`?from=${encodeURIComponent('2026-03-11T09:30:00+01:00')}&to=2026-03-11`);
    expect(morning.body).toMatchObject({
      from: '2026-03-11T08:30:00.000Z',
      to: '2026-03-12T00:00:00.000Z',
      conversations: { opened: 0 },
    });
    const day = await summary('?from=2026-03-11&to=2026-03-11');
    expect(day.body).toMatchObject({
      conversations: { opened: 1, handed_over: 1 },
      first_answer_ms: { measured: 1, p50: 60_000, p95: 60_000 },
    });
    const lastThirtyDays = await summary('');
    expect(lastThirtyDays.body).toMatchObject({
      from: '2026-03-03T12:00:00.000Z',
      to: '2026-04-02T12:00:00.000Z',
      conversations: { opened: 5 },
    });
    const quiet = await summary('?from=2025-01-01&to=2025-01-31');
    expect(quiet.body).toMatchObject({
      conversations: { opened: 0, answered_by_ai: 0 },
      csat: { responses: 0, average: null },
      answer_feedback: { helpful_rate: null },
      first_answer_ms: { measured: 0, p50: null, p95: null },
    });
  });

  it('refuses bad periods with 400: from not before to, more than 366 days, not a date, no offset, unknown parameters', async () => {
    for (const query of [
      '?from=2026-03-10&to=2026-03-09',
      '?from=2026-03-10T10:00:00Z&to=2026-03-10T10:00:00Z',
      '?from=2024-01-01&to=2025-12-31',
      '?from=yesterday',
      '?from=2026-02-30',
      '?from=2026-03-01T10:00',
      '?since=2026-03-01',
      '?from=2026-03-01&from=2026-03-02',
    ]) {
      const response = await summary(query);
      expect(response.status, query).toBe(400);
      expect(response.body.error.code, query).toBe('invalid_request');
    }
  });

  it('shows each key its own account and environment only, and asks for a valid key', async () => {
    const live = await summary('?from=2026-03-01&to=2026-03-31', engine.liveApiKey);
    expect(live.body).toMatchObject({
      conversations: { opened: 1, answered_by_ai: 0 },
      csat: { responses: 1, average: 1 },
    });
    const other = await engine.issueKey({ otherAccount: true });
    expect((await summary('?from=2026-03-01&to=2026-03-31', other.key)).body.conversations.opened).toBe(0);
    expect((await request(`${engine.url}/v1/reports/summary`)).status).toBe(401);
    expect((await summary('', `service_test_${'x'.repeat(32)}`)).status).toBe(401);
  });

  describe('survey answers', () => {
    const feedOf = async (id: string, token = engine.apiKey) =>
      (
        (await request(`${engine.url}/v1/events?types=survey.response&limit=1000`, { token })).body.events as {
          conversation_id: string;
          data: any;
        }[]
      ).filter((event) => event.conversation_id === id);

    it('records an answer with survey.response {rating, comment, customer_ref}; the same answer again emits nothing; a change emits again', async () => {
      const id = await open('survey-customer');
      const first = await api(`/v1/conversations/${id}/survey`, { body: { rating: 4, comment: '  Nice.  ' } });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        conversation_id: id,
        customer_ref: 'survey-customer',
        rating: 4,
        comment: 'Nice.',
        created_at: clock.toISOString(),
        updated_at: clock.toISOString(),
      });
      const again = await api(`/v1/conversations/${id}/survey`, { body: { rating: 4, comment: 'Nice.' } });
      expect(again.body).toEqual(first.body);
      expect((await feedOf(id)).map((event) => event.data)).toEqual([
        { rating: 4, comment: 'Nice.', customer_ref: 'survey-customer' },
      ]);
      const changed = await api(`/v1/conversations/${id}/survey`, { body: { rating: 2 } });
      expect(changed.body).toMatchObject({ rating: 2, comment: null });
      expect((await feedOf(id)).map((event) => event.data)).toEqual([
        { rating: 4, comment: 'Nice.', customer_ref: 'survey-customer' },
        { rating: 2, customer_ref: 'survey-customer' },
      ]);
    });

    it('refuses a rating out of 1–5, a fraction, a long comment or unknown fields (400), and changes nothing', async () => {
      const id = await open('survey-refused');
      for (const body of [
        { rating: 0 },
        { rating: 6 },
        { rating: 4.5 },
        { rating: '5' },
        {},
        { rating: 5, comment: 'x'.repeat(2001) },
        { rating: 5, extra: true },
      ]) {
        const response = await api(`/v1/conversations/${id}/survey`, { body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body.error.code).toBe('invalid_request');
      }
      expect(await feedOf(id)).toEqual([]);
    });

    it("is a 404 for an unknown conversation, another account's or the other environment's, and a 401 without a valid key", async () => {
      const live = await open('survey-live', engine.liveApiKey);
      const other = await engine.issueKey({ otherAccount: true });
      const theirs = await open('survey-theirs', other.key);
      for (const id of [`cnv_${'0'.repeat(22)}`, live, theirs]) {
        const response = await api(`/v1/conversations/${id}/survey`, { body: { rating: 5 } });
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('not_found');
      }
      expect(await feedOf(live, engine.liveApiKey)).toEqual([]);
      expect((await request(`${engine.url}/v1/conversations/${live}/survey`, { body: { rating: 5 } })).status).toBe(
        401,
      );
    });

    it('gives the first answer again to a retry with the same Idempotency-Key', async () => {
      const id = await open('survey-retry');
      const headers = { 'idempotency-key': `survey-${driver.name}` };
      const first = await api(`/v1/conversations/${id}/survey`, { body: { rating: 5 }, headers });
      const retry = await api(`/v1/conversations/${id}/survey`, { body: { rating: 5 }, headers });
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect(await feedOf(id)).toHaveLength(1);
    });
  });
});

describe("the first answer's time with an LLM (an OpenAI-compatible server written for the tests stands in for the model)", () => {
  const model = fakeModel();
  let engine: TestEngine;
  let clock = new Date('2026-06-01T12:00:00Z');

  beforeAll(async () => {
    const baseUrl = await model.start();
    engine = await startEngine(undefined, () => clock, { llm: { baseUrl, model: 'slow-model' } });
  });
  afterAll(async () => {
    await engine?.stop();
    await model.stop();
  });

  it('counts from when the message arrived, so the time the model took is in it', async () => {
    // The model takes 4.5 s by the test's clock.
    model.answer(() => {
      clock = new Date(clock.getTime() + 4_500);
      return { body: completion('You can send it back within 30 days of delivery.') };
    });
    const id = (
      await request(`${engine.url}/v1/conversations`, {
        token: engine.apiKey,
        body: { customer_ref: 'patient-customer' },
      })
    ).body.id as string;
    expect(
      (
        await request(`${engine.url}/v1/conversations/${id}/messages`, {
          token: engine.apiKey,
          body: { text: 'How do I return an item?' },
        })
      ).status,
    ).toBe(200);
    const report = await request(`${engine.url}/v1/reports/summary?from=2026-06-01&to=2026-06-01`, {
      token: engine.apiKey,
    });
    expect(report.body.first_answer_ms).toEqual({ measured: 1, p50: 4_500, p95: 4_500 });
    const turns = (await request(`${engine.url}/v1/conversations/${id}/transcript`, { token: engine.apiKey })).body
      .turns as { role: string; created_at: string }[];
    expect(turns.filter((turn) => turn.role !== 'system').map((turn) => [turn.role, turn.created_at])).toEqual([
      ['customer', '2026-06-01T12:00:00.000Z'],
      ['ai', '2026-06-01T12:00:04.500Z'],
    ]);
  });
});
