import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmbeddings, type FakeEmbeddings } from '../test/fake-embeddings.ts';
import { request, startEngine, type TestEngine } from '../test/stack.ts';

/**
 * Issue 28, meaning beside words: with an embeddings API configured, the engine matches a question
 * to the section nearest in meaning when its words match none. No embedding model can run here, so
 * an OpenAI-compatible server written for the tests stands in for it (test/fake-embeddings.ts: real
 * HTTP, vectors from a small table of concepts); the engine, its store and its routes are real.
 */
describe('answering by meaning with an embeddings API (a server written for the tests stands in for the model)', () => {
  let embeddings: FakeEmbeddings;
  let withMeaning: TestEngine;
  let wordsOnly: TestEngine;

  beforeAll(async () => {
    embeddings = await startFakeEmbeddings();
    withMeaning = await startEngine(undefined, undefined, {
      embeddings: { baseUrl: embeddings.baseUrl, model: 'stand-in', timeoutMs: 2_000 },
    });
    wordsOnly = await startEngine();
  });
  afterAll(async () => {
    await withMeaning?.stop();
    await wordsOnly?.stop();
    await embeddings?.close();
  });

  const ask = async (engine: TestEngine, text: string) => {
    const opened = await request(`${engine.url}/v1/conversations`, {
      token: engine.apiKey,
      body: { customer_ref: 'meaning-customer' },
    });
    const response = await request(`${engine.url}/v1/conversations/${opened.body.id}/messages`, {
      token: engine.apiKey,
      body: { text },
    });
    expect(response.status).toBe(200);
    const reply = (response.body.events as { type: string; data: { text: string } }[]).find(
      (event) => event.type === 'conversation.reply',
    );
    return reply!.data.text;
  };

  const PARAPHRASE = 'Can I swap these shoes for a bigger pair?';

  it('answers a paraphrase whose words match no heading from the section nearest in meaning', async () => {
    expect(await ask(wordsOnly, PARAPHRASE)).toMatch(/not sure/i);
    const answer = await ask(withMeaning, PARAPHRASE);
    expect(answer).toContain('Returns and refunds › Exchanging an item for another size');
    // The question was embedded once, the sections once each.
    expect(embeddings.embedded()).toContain(PARAPHRASE);
  });

  it('still declines a question near no section in meaning', async () => {
    expect(await ask(withMeaning, 'What is the capital of Mongolia?')).toMatch(/not sure/i);
  });

  it('answers by words alone, without an error, while the embeddings API fails', async () => {
    embeddings.behave({ kind: 'status', status: 500 });
    try {
      expect(await ask(withMeaning, 'How do I return an item?')).toContain('within 30 days');
      expect(await ask(withMeaning, PARAPHRASE)).toMatch(/not sure/i);
    } finally {
      embeddings.behave({ kind: 'answer' });
    }
  });
});
