import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AssistResponse } from '../shared/schemas/assist.ts';
import { completion, fakeModel, type ChatRequest, type Reply } from '../test/fake-llm.ts';
import { request, startEngine, type TestEngine } from '../test/stack.ts';
import { NOT_SURE_MARK } from './brain/llm-brain.ts';

/**
 * Issue 29, assist with a model. The model cannot run here, so the OpenAI-compatible server written
 * for the tests stands in for it (real HTTP, scripted answers); the engine is real. The LLM brain's
 * own tests run on one store, and so do these: what the model adds is the same on either.
 */
describe('assist with an LLM (a server written for the tests stands in for the model)', () => {
  const model = fakeModel();
  let engine: TestEngine;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const say = async (id: string, text: string) =>
    expect((await api(`/v1/conversations/${id}/messages`, { body: { text } })).status).toBe(200);
  /** A conversation whose customer asked how to return an item, then for a person. */
  const handedOver = async () => {
    const id = (await api('/v1/conversations', { body: { customer_ref: 'assist-llm' } })).body.id as string;
    // The customer's own conversation is answered by the model too: one plain answer.
    model.answer(() => ({ body: completion('You can return it within 30 days of delivery. [1]') }));
    await say(id, 'How do I return an item?');
    await say(id, 'I want to talk to a person');
    model.requests.length = 0;
    return id;
  };
  const isSummary = (sent: ChatRequest) => String(sent.messages[0]?.content).startsWith('Summarise');
  /** The model's answers: the summary's, and the reply's (or the improved draft's). */
  const modelSays = (reply: Reply, summary = 'Wants to return an item.\nThe AI answered; no person has yet.') =>
    model.answer((sent) => (isSummary(sent) ? { body: completion(summary) } : reply));

  beforeAll(async () => {
    const baseUrl = await model.start();
    engine = await startEngine(undefined, undefined, { llm: { baseUrl, model: 'test-model' } });
  });
  afterAll(async () => {
    await engine?.stop();
    await model.stop();
  });
  beforeEach(() => {
    model.requests.length = 0;
  });

  it("has the model write the reply from the passages, cite its source, and sum the conversation up; the tokens count to the account's month", async () => {
    const id = await handedOver();
    modelSays({ body: completion('You can send it back within 30 days of delivery from My orders. [1]') });
    const response = await api(`/v1/conversations/${id}/assist`, { body: {} });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const body = AssistResponse.parse(response.body);
    expect(body.suggestion).toEqual({
      text: 'You can send it back within 30 days of delivery from My orders.',
      sources: [{ title: 'Returns and refunds › How do I return an item?' }],
      confidence: expect.any(Number),
    });
    expect(body.summary).toBe('Wants to return an item.\nThe AI answered; no person has yet.');

    const reply = model.requests.find((sent) => !isSummary(sent))!;
    expect(reply.messages[0]!.content).toContain('[1] Returns and refunds › How do I return an item?');
    expect(reply.messages[0]!.content).toContain(NOT_SURE_MARK);
    expect(reply.messages[1]!.content).toContain('Customer: I want to talk to a person');
    const [usage] = await engine.sql.query<{ requests: number }>(
      'SELECT requests FROM llm_usage WHERE account_id = $1',
      [engine.accountId],
    );
    expect(usage!.requests).toBeGreaterThanOrEqual(2);
  });

  it('offers no suggestion when the model says the passages do not answer', async () => {
    const id = await handedOver();
    modelSays({ body: completion(NOT_SURE_MARK) });
    const body = AssistResponse.parse((await api(`/v1/conversations/${id}/assist`, { body: {} })).body);
    expect(body.suggestion).toBeNull();
    expect(body.reason?.code).toBe('no_good_source');
  });

  it("improves a person's draft, keeping what it says", async () => {
    const id = await handedOver();
    modelSays({ body: completion('You can return the item within 30 days of delivery. [1]') });
    const response = await api(`/v1/conversations/${id}/assist`, { body: { draft: 'u can return it in 30 days' } });
    const body = AssistResponse.parse(response.body);
    expect(body.suggestion).toEqual({
      text: 'You can return the item within 30 days of delivery.',
      sources: [{ title: 'Returns and refunds › How do I return an item?' }],
      confidence: 1,
    });
    const sent = model.requests.find((candidate) => !isSummary(candidate))!;
    expect(sent.messages[1]!.content).toContain('The draft:\nu can return it in 30 days');
  });

  it('suggests from the retrieval brain while the model is down, and refuses a draft with 503', async () => {
    const id = await handedOver();
    model.answer(() => ({ status: 500, body: { error: 'down' } }));
    const body = AssistResponse.parse((await api(`/v1/conversations/${id}/assist`, { body: {} })).body);
    expect(body.suggestion?.text).toContain('within 30 days of delivery');
    expect(body.summary.split('\n')).toHaveLength(2);

    const draft = await api(`/v1/conversations/${id}/assist`, { body: { draft: 'u can return it in 30 days' } });
    expect([draft.status, draft.body.error.code]).toEqual([503, 'upstream_unavailable']);
  });
});
