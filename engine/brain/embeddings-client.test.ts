import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_DIMENSIONS, fakeVector, startFakeEmbeddings, type FakeEmbeddings } from '../../test/fake-embeddings.ts';
import { freePort } from '../../test/local-servers.ts';
import {
  createEmbeddingsClient,
  EMBEDDING_INPUT_CHARS_MAX,
  EMBEDDINGS_BATCH_MAX,
  EmbeddingsUnavailableError,
} from './embeddings-client.ts';
import { embedQuestion } from './question-vector.ts';
import { cosine } from './vectors.ts';

/** The embeddings API is the stand-in of test/fake-embeddings.ts (a real model cannot run here), over real HTTP. */
describe('the embeddings client', () => {
  let api: FakeEmbeddings;
  beforeAll(async () => {
    api = await startFakeEmbeddings();
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
    api.behave({ kind: 'answer' });
  });

  it('posts the texts and the model to {base}/embeddings and gives one vector per text, in order', async () => {
    const client = createEmbeddingsClient({ baseUrl: `${api.baseUrl}/`, model: 'nomic-embed-text' });
    const vectors = await client.embed(['Where is my parcel?', 'Can I pay by card?']);
    expect(vectors.map((vector) => [...vector])).toEqual([
      fakeVector('Where is my parcel?'),
      fakeVector('Can I pay by card?'),
    ]);
    expect(client.dimensions).toBe(FAKE_DIMENSIONS);
    expect(api.requests).toMatchObject([
      { model: 'nomic-embed-text', input: ['Where is my parcel?', 'Can I pay by card?'] },
    ]);
  });

  it('sends the API key as a Bearer token, and no authorization header without one', async () => {
    await createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'm', apiKey: 'sk-test-123' }).embed(['a']);
    await createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'm' }).embed(['a']);
    expect(api.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-test-123', undefined]);
  });

  it(`sends at most ${EMBEDDINGS_BATCH_MAX} texts a request, each cut to ${EMBEDDING_INPUT_CHARS_MAX} characters`, async () => {
    const client = createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'm' });
    const texts = Array.from({ length: 150 }, (_, index) => `text ${index} ${'x'.repeat(index === 3 ? 10_000 : 0)}`);
    const vectors = await client.embed(texts);
    expect(vectors).toHaveLength(150);
    expect(api.requests.map((request) => request.input.length)).toEqual([64, 64, 22]);
    expect(api.requests[0]!.input[3]).toHaveLength(EMBEDDING_INPUT_CHARS_MAX);
    expect([...vectors[149]!]).toEqual(fakeVector('text 149 '));
  });

  it.each([
    ['a failing API', { kind: 'status' as const, status: 500 }],
    ['a refused key', { kind: 'status' as const, status: 401 }],
    ['an answer that is not JSON', { kind: 'body' as const, body: '<html>proxy error</html>' }],
    ['an answer of another shape', { kind: 'body' as const, body: '{"data":[{"embedding":"0.1,0.2"}]}' }],
    ['fewer vectors than texts', { kind: 'body' as const, body: '{"data":[{"index":0,"embedding":[0.1,0.2]}]}' }],
    [
      'vectors of different lengths',
      { kind: 'body' as const, body: '{"data":[{"index":0,"embedding":[0.1,0.2]},{"index":1,"embedding":[0.1]}]}' },
    ],
    [
      'the same index twice',
      { kind: 'body' as const, body: '{"data":[{"index":0,"embedding":[0.1]},{"index":0,"embedding":[0.2]}]}' },
    ],
  ])('refuses %s with EmbeddingsUnavailableError', async (_, behaviour) => {
    api.behave(behaviour);
    const client = createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'm' });
    await expect(client.embed(['one', 'two'])).rejects.toBeInstanceOf(EmbeddingsUnavailableError);
  });

  it('refuses vectors of another length than the model gave before', async () => {
    const client = createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'm' });
    await client.embed(['one']);
    api.behave({ kind: 'body', body: '{"data":[{"index":0,"embedding":[0.1,0.2,0.3]}]}' });
    await expect(client.embed(['two'])).rejects.toThrow(`3 numbers, before it gave ${FAKE_DIMENSIONS}`);
  });

  it('gives up on a request after its timeout', async () => {
    api.behave({ kind: 'hang' });
    const client = createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'm' });
    const started = Date.now();
    await expect(client.embed(['one'], { timeoutMs: 200 })).rejects.toBeInstanceOf(EmbeddingsUnavailableError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('stops asking for a while after three failures in a row, and logs the outage once', async () => {
    const logged: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    api.behave({ kind: 'status', status: 503 });
    const client = createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'm' }, { logger });
    for (let call = 0; call < 4; call++) await expect(client.embed(['one'])).rejects.toThrow();
    expect(api.requests).toHaveLength(3);
    expect(logged.map((line) => line.msg)).toEqual([
      'embeddings unavailable: the brain ranks by words only until the API answers again',
    ]);
  });

  it('logs when the API answers again after failing', async () => {
    const logged: { msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const client = createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'm' }, { logger });
    api.behave({ kind: 'status', status: 502 });
    await expect(client.embed(['one'])).rejects.toThrow();
    api.behave({ kind: 'answer' });
    await client.embed(['one']);
    await client.embed(['two']);
    expect(logged.map((line) => line.msg)).toEqual([
      'embeddings unavailable: the brain ranks by words only until the API answers again',
      'embeddings available again',
    ]);
  });
});

describe('a question embedded', () => {
  let api: FakeEmbeddings;
  beforeAll(async () => {
    api = await startFakeEmbeddings();
  });
  afterAll(() => api.close());

  it('points where a section in other words about the same points', async () => {
    const client = createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'm' });
    const question = await embedQuestion(client, 'Can I swap these shoes for a bigger pair?');
    const [exchange, delivery] = await client.embed([
      'Exchanging an item for another size\nWe exchange unworn items within 30 days.',
      'How long does delivery take?\nStandard delivery takes 3 to 5 business days.',
    ]);
    expect(cosine(question!, exchange!)).toBeGreaterThan(0.8);
    expect(cosine(question!, delivery!)).toBeLessThan(0.2);
  });

  it('is undefined, without throwing, when there is no API, the question is blank, or the API fails', async () => {
    const client = createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'm' });
    expect(await embedQuestion(undefined, 'Where is my parcel?')).toBeUndefined();
    expect(await embedQuestion(client, '   ')).toBeUndefined();
    api.behave({ kind: 'body', body: 'garbage' });
    expect(await embedQuestion(client, 'Where is my parcel?')).toBeUndefined();
    api.behave({ kind: 'hang' });
    expect(await embedQuestion(client, 'Where is my parcel?', 200)).toBeUndefined();
    const down = createEmbeddingsClient({ baseUrl: `http://127.0.0.1:${await freePort()}/v1`, model: 'm' });
    expect(await embedQuestion(down, 'Where is my parcel?')).toBeUndefined();
  });
});
