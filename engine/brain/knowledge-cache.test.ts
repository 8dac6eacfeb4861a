import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openSql, type Sql } from '../../shared/server/index.ts';
import { startFakeEmbeddings, type FakeEmbeddings } from '../../test/fake-embeddings.ts';
import { freePort } from '../../test/local-servers.ts';
import { createAccount } from '../store/accounts.ts';
import {
  addKnowledgeDocument,
  approveKnowledgeDocument,
  deleteKnowledgeDocument,
  updateKnowledgeDocument,
} from '../store/knowledge.ts';
import { createEmbeddingsClient } from './embeddings-client.ts';
import { KnowledgeCache } from './knowledge-cache.ts';
import { embedQuestion } from './question-vector.ts';
import { cosine } from './vectors.ts';

const MIGRATIONS = fileURLToPath(new URL('../store/migrations/', import.meta.url));

const RETURNS =
  '## How do I return an item?\nSend it back within 30 days.\n## Exchanging an item for another size\nWe exchange unworn items for another size.';
const DELIVERY = '## How long does delivery take?\nStandard delivery takes 3 to 5 business days.';

/** The embeddings API is the stand-in of test/fake-embeddings.ts (a real model cannot run here); the store is PGlite. */
describe('the knowledge cache with an embeddings API', () => {
  let sql: Sql;
  let api: FakeEmbeddings;
  let accountId: string;
  let returnsId: string;
  const sandbox = () => ({ accountId, environment: 'sandbox' as const });
  const client = () => createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'nomic-embed-text' });

  beforeAll(async () => {
    api = await startFakeEmbeddings();
    sql = await openSql({ dataDir: 'memory://', schema: 'engine' });
    await migrate(sql, MIGRATIONS);
    accountId = await createAccount(sql, 'Vector shop');
    returnsId = (await addKnowledgeDocument(sql, accountId, { title: 'Returns', body: RETURNS, approved: true }))
      .sandbox;
    await addKnowledgeDocument(sql, accountId, { title: 'Delivery', body: DELIVERY, approved: true });
  });
  afterAll(async () => {
    await sql?.close();
    await api?.close();
  });
  beforeEach(() => {
    api.requests.length = 0;
    api.behave({ kind: 'answer' });
  });

  it('embeds the sections once: a restarted engine on the same store asks for none of them again', async () => {
    const first = await new KnowledgeCache({ embeddings: client() }).read(sql, sandbox());
    expect(first.sectionVectors?.size).toBe(3);
    expect(api.embedded()).toHaveLength(3);

    api.requests.length = 0;
    const restarted = new KnowledgeCache({ embeddings: client() });
    const again = await restarted.read(sql, sandbox());
    expect(api.requests).toEqual([]);
    expect(again.sectionVectors).toEqual(first.sectionVectors);
    expect(await restarted.forAccount(sql, sandbox())).toBe(again.knowledge);
  });

  it('ranks a paraphrase nearest to the section that answers it, by the vectors it keeps', async () => {
    const cache = new KnowledgeCache({ embeddings: client() });
    const { sectionVectors } = await cache.read(sql, sandbox());
    const question = await embedQuestion(cache.embeddings, 'Can I swap these shoes for a bigger pair?');
    const nearest = [...sectionVectors!].sort(([, a], [, b]) => cosine(question!, b) - cosine(question!, a))[0];
    expect(nearest![0]).toBe(`${returnsId}#1`);
  });

  it("embeds again only a changed document's sections, and drops a deleted document's vectors", async () => {
    const cache = new KnowledgeCache({ embeddings: client() });
    await cache.read(sql, sandbox());
    const { sandbox: faq } = await addKnowledgeDocument(sql, accountId, {
      title: 'Payment',
      body: '## Paying\nBy card.',
      approved: true,
    });
    api.requests.length = 0;
    await updateKnowledgeDocument(sql, sandbox(), faq, { body: '## Paying\nBy card or PayPal.' }, new Date());
    await approveKnowledgeDocument(sql, sandbox(), faq, new Date());
    const changed = await cache.read(sql, sandbox());
    expect(api.embedded()).toEqual(['Paying\nBy card or PayPal.']);
    expect(changed.sectionVectors?.has(`${faq}#0`)).toBe(true);

    await deleteKnowledgeDocument(sql, sandbox(), faq);
    const deleted = await cache.read(sql, sandbox());
    expect(deleted.sectionVectors?.has(`${faq}#0`)).toBe(false);
    const [kept] = await sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM knowledge_section_vectors WHERE document_id = $1',
      [faq],
    );
    expect(kept!.n).toBe(0);
  });

  it('answers by words when the API is down or talks nonsense, and gets the vectors once it answers again', async () => {
    await addKnowledgeDocument(sql, accountId, {
      title: 'Sizes',
      body: '## Size guide\nOur shoes run small.',
      approved: true,
    });
    const down = new KnowledgeCache({
      embeddings: createEmbeddingsClient({ baseUrl: `http://127.0.0.1:${await freePort()}/v1`, model: 'm' }),
    });
    const unreachable = await down.read(sql, sandbox());
    expect(unreachable.sectionVectors).toBeUndefined();
    expect(unreachable.knowledge.search('How long does delivery take?')[0]?.section.heading).toBe(
      'How long does delivery take?',
    );

    api.behave({ kind: 'body', body: 'not json' });
    const cache = new KnowledgeCache({ embeddings: client(), vectorsRetryMs: 0 });
    expect((await cache.read(sql, sandbox())).sectionVectors).toBeUndefined();
    api.behave({ kind: 'answer' });
    expect((await cache.read(sql, sandbox())).sectionVectors?.size).toBeGreaterThanOrEqual(4);
  });

  it('does not keep an answer waiting for a slow API: the vectors serve the answers after', async () => {
    await addKnowledgeDocument(sql, accountId, {
      title: 'Gift cards',
      body: '## Gift cards\nThey last a year.',
      approved: true,
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow: typeof fetch = async (input, init) => {
      await released;
      return fetch(input, init);
    };
    const cache = new KnowledgeCache({
      embeddings: createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'nomic-embed-text' }, { fetch: slow }),
      vectorsWaitMs: 50,
    });
    const meanwhile = await cache.read(sql, sandbox());
    expect(meanwhile.sectionVectors).toBeUndefined();
    release();
    await expect.poll(async () => (await cache.read(sql, sandbox())).sectionVectors?.size).toBeGreaterThanOrEqual(5);
    expect((await cache.read(sql, sandbox())).knowledge).toBe(meanwhile.knowledge);
  });

  it('asks no API and gives no vectors without one', async () => {
    const plain = await new KnowledgeCache().read(sql, sandbox());
    expect(plain.sectionVectors).toBeUndefined();
    expect(api.requests).toEqual([]);
  });
});
