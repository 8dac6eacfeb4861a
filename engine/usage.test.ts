import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion, fakeModel } from '../test/fake-llm.ts';
import { pngOf } from '../test/media-fixtures.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { until } from '../test/until.ts';

/**
 * Issue 15, `GET /v1/usage`: this month's conversations, messages, LLM tokens and uploads, made
 * through the real API on a clock the test moves across a month's end (UTC). The LLM brain's
 * model cannot run here: a small OpenAI-compatible server written for the tests stands in for it.
 */
describe.each(DRIVERS)('usage on $name', (driver) => {
  const model = fakeModel();
  let engine: TestEngine;
  let clock = new Date('2026-04-30T23:00:00Z');
  const usage = (token = engine.apiKey) => request(`${engine.url}/v1/usage`, { token });
  const open = async (customer_ref: string, token = engine.apiKey) =>
    (await request(`${engine.url}/v1/conversations`, { token, body: { customer_ref } })).body.id as string;
  const say = (id: string, text: string, token = engine.apiKey) =>
    request(`${engine.url}/v1/conversations/${id}/messages`, { token, body: { text } });
  const uploadPng = async (width: number) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pngOf(width, 10))]), 'p.png');
    const response = await fetch(`${engine.url}/v1/media`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${engine.apiKey}` },
    });
    expect(response.status).toBe(201);
  };

  beforeAll(async () => {
    model.answer(() => ({
      body: completion('You can send it back within 30 days.', {}, { prompt_tokens: 100, completion_tokens: 20 }),
    }));
    const baseUrl = await model.start();
    engine = await startEngine(driver, () => clock, { llm: { baseUrl, model: 'test-model' } });
    // April: not this month's once the clock is in May.
    const april = await open('april-customer');
    await say(april, 'How do I return an item?');
    await uploadPng(10);
  });
  afterAll(async () => {
    await engine?.stop();
    await model.stop();
  });

  it("counts this month (UTC) only: conversations, the customer's messages, the AI's replies, people's answers, tokens and uploads", async () => {
    const april = await usage();
    expect(april.status).toBe(200);
    expect(april.body).toMatchObject({
      month: '2026-04',
      month_name: 'April 2026',
      conversations: 1,
      messages: { customer: 1, ai: 1, human: 0 },
      media: { uploads: 1 },
    });
    expect(april.body.llm).toEqual({ prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, requests: 1 });

    clock = new Date('2026-05-01T00:00:01Z');
    const first = await open('may-customer');
    await say(first, 'How do I return an item?');
    await say(first, 'Do you ship abroad?');
    const second = await open('may-person');
    await request(`${engine.url}/v1/conversations/${second}/handover`, { token: engine.apiKey, body: {} });
    await say(second, 'Hello?');
    await request(`${engine.url}/v1/conversations/${second}/human-messages`, {
      token: engine.apiKey,
      body: { text: 'Hi, Sam here.' },
    });
    await uploadPng(20);
    await uploadPng(30);

    const may = await usage();
    expect(may.body).toEqual({
      month: '2026-05',
      month_name: 'May 2026',
      period: { from: '2026-05-01T00:00:00.000Z', to: '2026-06-01T00:00:00.000Z' },
      conversations: 2,
      messages: { customer: 3, ai: 2, human: 1 },
      llm: { prompt_tokens: 200, completion_tokens: 40, total_tokens: 240, requests: 2 },
      media: { uploads: 2, bytes: 66 },
      limits: { requests_per_minute: 100_000 },
    });
    // The uploads' understanding is done in the background; let it finish before the engine stops.
    await until(
      () => engine.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM media WHERE status = 'processing'"),
      ([row]) => row!.n === 0,
      'media understood',
    );
  });

  it("shows each key its own account and environment only, with that environment's limit", async () => {
    const live = await usage(engine.liveApiKey);
    expect(live.body).toMatchObject({
      conversations: 0,
      messages: { customer: 0, ai: 0, human: 0 },
      llm: { total_tokens: 0 },
      media: { uploads: 0, bytes: 0 },
    });
    const other = await engine.issueKey({ otherAccount: true });
    const theirs = await usage(other.key);
    expect(theirs.body).toMatchObject({ conversations: 0, limits: { requests_per_minute: 60 } });
  });

  it('asks for a valid key (401)', async () => {
    expect((await request(`${engine.url}/v1/usage`)).status).toBe(401);
    expect((await usage(`service_live_${'x'.repeat(32)}`)).body.error.code).toBe('unauthorized');
  });
});
