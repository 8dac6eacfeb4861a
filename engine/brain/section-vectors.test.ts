import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openSql, type Sql } from '../../shared/server/index.ts';
import { startFakeEmbeddings, type FakeEmbeddings } from '../../test/fake-embeddings.ts';
import { createAccount } from '../store/accounts.ts';
import { addKnowledgeDocument } from '../store/knowledge.ts';
import { writeSectionVectors } from '../store/knowledge-vectors.ts';
import { createEmbeddingsClient, EmbeddingsUnavailableError } from './embeddings-client.ts';
import { splitSections, type KnowledgeSection } from './knowledge-base.ts';
import { inputHash, sectionInput, SECTIONS_PER_CALL, vectorsForSections } from './section-vectors.ts';

const MIGRATIONS = fileURLToPath(new URL('../store/migrations/', import.meta.url));

/** The embeddings API is the stand-in of test/fake-embeddings.ts (a real model cannot run here); the store is PGlite. */
describe('the vectors of knowledge sections', () => {
  let sql: Sql;
  let api: FakeEmbeddings;
  let accountId: string;

  /** A document of `count` sections, stored, and its sections. */
  const documentOf = async (count: number, words = 'Delivery'): Promise<KnowledgeSection[]> => {
    const body = Array.from({ length: count }, (_, n) => `## ${words} question ${n}\n${words} answer ${n}.`).join('\n');
    const { sandbox: id } = await addKnowledgeDocument(sql, accountId, { title: words, body, approved: true });
    return splitSections({ id, title: words, body });
  };
  const client = () => createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'nomic-embed-text' });

  beforeAll(async () => {
    api = await startFakeEmbeddings();
    sql = await openSql({ dataDir: 'memory://', schema: 'engine' });
    await migrate(sql, MIGRATIONS);
    accountId = await createAccount(sql, 'Vector shop');
  });
  afterAll(async () => {
    await sql?.close();
    await api?.close();
  });
  beforeEach(() => {
    api.requests.length = 0;
    api.behave({ kind: 'answer' });
  });

  it(`embeds each section's heading and text, ${SECTIONS_PER_CALL} sections a call, and keeps them for the next time`, async () => {
    const sections = await documentOf(40);
    const vectors = await vectorsForSections(sql, accountId, sections, client());
    expect([...vectors.keys()]).toEqual(sections.map((section) => section.id));
    expect(api.requests.map((request) => request.input.length)).toEqual([32, 8]);
    expect(api.embedded()[0]).toBe('Delivery question 0\nDelivery answer 0.');

    api.requests.length = 0;
    const again = await vectorsForSections(sql, accountId, sections, client());
    expect(api.requests).toEqual([]);
    expect(again).toEqual(vectors);
  });

  it('embeds again only the sections whose text changed', async () => {
    const sections = await documentOf(3, 'Returns');
    await vectorsForSections(sql, accountId, sections, client());
    api.requests.length = 0;
    const changed = sections.map((section, n) =>
      n === 1 ? { ...section, text: 'Returns take 30 days now.' } : section,
    );
    await vectorsForSections(sql, accountId, changed, client());
    expect(api.embedded()).toEqual([sectionInput(changed[1]!)]);
  });

  it('embeds again a kept vector of another length than the model gives now', async () => {
    const [section] = await documentOf(1, 'Payment');
    const model = client();
    await model.embed(['a question first']);
    await writeSectionVectors(sql, {
      accountId,
      model: model.model,
      vectors: [
        {
          documentId: section!.documentId,
          sectionId: section!.id,
          textHash: inputHash(sectionInput(section!)),
          vector: Float32Array.of(1, 2, 3),
        },
      ],
    });
    api.requests.length = 0;
    const vectors = await vectorsForSections(sql, accountId, [section!], model);
    expect(api.embedded()).toEqual([sectionInput(section!)]);
    expect(vectors.get(section!.id)!.length).toBe(model.dimensions);
  });

  it('keeps the batches the API gave before it failed, and asks only for the rest next time', async () => {
    const sections = await documentOf(40, 'Account');
    let calls = 0;
    // The second call fails: the stand-in is told so between the two.
    const failingSecond: typeof fetch = async (input, init) => {
      calls += 1;
      if (calls === 2) api.behave({ kind: 'status', status: 503 });
      return fetch(input, init);
    };
    const flaky = createEmbeddingsClient({ baseUrl: api.baseUrl, model: 'nomic-embed-text' }, { fetch: failingSecond });
    await expect(vectorsForSections(sql, accountId, sections, flaky)).rejects.toBeInstanceOf(
      EmbeddingsUnavailableError,
    );
    api.behave({ kind: 'answer' });
    api.requests.length = 0;
    const vectors = await vectorsForSections(sql, accountId, sections, client());
    expect(vectors.size).toBe(40);
    expect(api.embedded()).toEqual(sections.slice(SECTIONS_PER_CALL).map(sectionInput));
  });
});
