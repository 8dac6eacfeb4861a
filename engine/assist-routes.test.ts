import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AssistResponse } from '../shared/schemas/assist.ts';
import { SHOP_KNOWLEDGE_DIR } from '../test/shop-fixtures.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { addKnowledgeDocument } from './index.ts';

/**
 * Issue 29, assist without a model: `POST /v1/conversations/{id}/assist` suggests a reply a person
 * could send from the retrieval brain, sums the conversation up in two lines and names the
 * customer's language; it changes nothing. The shop's account, over real HTTP, on both stores.
 */
describe.each(DRIVERS)('assist for people on $name', (driver) => {
  let engine: TestEngine;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const open = async (customer_ref = 'assist-customer') =>
    (await api('/v1/conversations', { body: { customer_ref } })).body.id as string;
  const say = async (id: string, text: string, locale?: string) => {
    const response = await api(`/v1/conversations/${id}/messages`, { body: { text, ...(locale ? { locale } : {}) } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };
  const assist = (id: string, body: unknown = {}, token = engine.apiKey) =>
    request(`${engine.url}/v1/conversations/${id}/assist`, { token, body });
  /** Everything a conversation is: its turns and the feed's events (assist must leave both as they were). */
  const recordOf = async (id: string) => ({
    transcript: (await api(`/v1/conversations/${id}/transcript`)).body,
    events: (await api('/v1/events?limit=1000')).body.events,
  });

  beforeAll(async () => {
    engine = await startEngine(driver);
    // The shop's German articles too, for a customer who writes in German.
    const folder = join(SHOP_KNOWLEDGE_DIR, 'de');
    for (const name of await readdir(folder)) {
      const body = await readFile(join(folder, name), 'utf8');
      const title = /^#\s+(.+)$/m.exec(body)![1]!.trim();
      await addKnowledgeDocument(engine.sql, engine.accountId, { title, body, approved: true, locale: 'de' });
    }
  });
  afterAll(async () => {
    await engine?.stop();
  });

  it('suggests the article that answers the question asked before the customer wanted a person, with a summary, changing nothing', async () => {
    const id = await open();
    await say(id, 'How do I return an item?');
    await say(id, 'I want to talk to a person');
    const before = await recordOf(id);

    const response = await assist(id);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const body = AssistResponse.parse(response.body);
    expect(body.suggestion?.text).toContain('within 30 days of delivery');
    expect(body.suggestion?.text).not.toContain('Did that help?');
    expect(body.suggestion?.sources).toEqual([{ title: 'Returns and refunds › How do I return an item?' }]);
    expect(body.suggestion?.confidence).toBeGreaterThan(0.5);
    expect(body.suggestion?.confidence).toBeLessThanOrEqual(1);
    expect(body.reason).toBeNull();
    expect(body.customer_language).toBe('en');
    const [asked, done] = body.summary.split('\n');
    expect(asked).toBe('The customer asked: "How do I return an item?".');
    expect(done).toBe('The AI answered 1 question; the customer asked for a person; no person has answered yet.');

    expect(await recordOf(id)).toEqual(before);
  });

  it('reads a German conversation in German: the German article, and de as the language', async () => {
    const id = await open('kundin');
    await say(id, 'Wie sende ich einen Artikel zurück?', 'de');
    await say(id, 'Ich möchte mit einem Menschen sprechen');

    const body = AssistResponse.parse((await assist(id)).body);
    expect(body.customer_language).toBe('de');
    expect(body.suggestion?.text).toContain('innerhalb von 30 Tagen nach der Lieferung');
    expect(body.suggestion?.sources).toEqual([
      { title: 'Rücksendung und Erstattung › Wie sende ich einen Artikel zurück?' },
    ]);
  });

  it('offers no suggestion, and says why, when no article answers or nothing is asked', async () => {
    const unknown = await open();
    await say(unknown, 'Can you engrave a poem on a titanium garden gnome?');
    const none = AssistResponse.parse((await assist(unknown)).body);
    expect(none.suggestion).toBeNull();
    expect(none.reason).toEqual({ code: 'no_good_source', message: expect.stringContaining('titanium garden gnome') });

    const quiet = AssistResponse.parse((await assist(await open())).body);
    expect(quiet).toEqual({
      suggestion: null,
      reason: { code: 'no_question', message: expect.any(String) },
      summary: 'The customer has not written yet.\nNothing has been answered yet.',
      customer_language: 'en',
    });
  });

  it('answers only what is still open: after a person answered, an earlier question is not suggested again', async () => {
    const id = await open();
    await say(id, 'How do I return an item?');
    await api(`/v1/conversations/${id}/handover`, { body: {} });
    await api(`/v1/conversations/${id}/human-messages`, { body: { text: 'Hi, I can help with that.' } });
    const body = AssistResponse.parse((await assist(id)).body);
    expect(body.reason?.code).toBe('no_question');
    expect(body.summary.split('\n')[1]).toBe('The AI answered 1 question; people have it (1 answer so far).');
  });

  it('refuses to improve a draft without an LLM (422, not_available), changing nothing', async () => {
    const id = await open();
    await say(id, 'How do I return an item?');
    const before = await recordOf(id);
    const response = await assist(id, { draft: 'you can return it in 30 days' });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'not_available' });
    expect(await recordOf(id)).toEqual(before);
  });

  it("answers another account's conversation, or the other environment's, as if it did not exist", async () => {
    const id = await open();
    await say(id, 'How do I return an item?');
    const other = await engine.issueKey({ otherAccount: true });
    const foreign = await assist(id, {}, other.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect((await assist(id, {}, engine.liveApiKey)).status).toBe(404);
    expect((await assist('cnv_doesnotexist00000000', {})).status).toBe(404);
  });

  it('refuses a bad body with a stable code, and a call without a key with 401, changing nothing', async () => {
    const id = await open();
    await say(id, 'How do I return an item?');
    const before = await recordOf(id);
    const cases: [Parameters<typeof request>[1], number, string][] = [
      [{ body: { draft: 42 } }, 400, 'invalid_request'],
      [{ body: { draft: '   ' } }, 400, 'invalid_request'],
      [{ body: { draft: 'x'.repeat(10_001) } }, 400, 'invalid_request'],
      [{ body: { question: 'what?' } }, 400, 'invalid_request'],
      [{ rawBody: '{"draft":' }, 400, 'invalid_json'],
    ];
    for (const [options, status, code] of cases) {
      const response = await request(`${engine.url}/v1/conversations/${id}/assist`, {
        token: engine.apiKey,
        ...options,
      });
      expect([response.status, response.body.error.code]).toEqual([status, code]);
    }
    const anonymous = await request(`${engine.url}/v1/conversations/${id}/assist`, { body: {} });
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'unauthorized']);
    expect(await recordOf(id)).toEqual(before);
  });

  it('is in the OpenAPI document with its request and answer', async () => {
    const document = (await request(`${engine.url}/v1/openapi.json`)).body;
    const operation = document.paths['/v1/conversations/{id}/assist'].post;
    expect(operation.requestBody).toBeDefined();
    expect(JSON.stringify(operation.responses['200'])).toContain('customer_language');
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '422']));
  });
});
