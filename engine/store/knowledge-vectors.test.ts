import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openSql, type Sql } from '../../shared/server/index.ts';
import { dropSchemas, DRIVERS, uniqueSchemaPrefix } from '../../test/stack.ts';
import { createAccount } from './accounts.ts';
import { addKnowledgeDocument, deleteKnowledgeDocument } from './knowledge.ts';
import { pruneSectionVectors, readSectionVectors, writeSectionVectors } from './knowledge-vectors.ts';

const MIGRATIONS = fileURLToPath(new URL('./migrations/', import.meta.url));

describe.each(DRIVERS)('the kept section vectors on $name', (driver) => {
  let sql: Sql;
  let accountId: string;
  let otherAccountId: string;
  const prefix = uniqueSchemaPrefix();
  const document = () =>
    addKnowledgeDocument(sql, accountId, { title: 'Returns', body: 'x', approved: true }).then((ids) => ids.sandbox);

  beforeAll(async () => {
    sql = await openSql({ databaseUrl: driver.databaseUrl, dataDir: 'memory://', schema: `${prefix}engine` });
    await migrate(sql, MIGRATIONS);
    accountId = await createAccount(sql, 'Vector shop');
    otherAccountId = await createAccount(sql, 'Another shop');
  });
  afterAll(async () => {
    await sql?.close();
    await dropSchemas(driver.databaseUrl, prefix);
  });

  it('gives back exactly the numbers it kept, per account and model', async () => {
    const documentId = await document();
    const vector = Float32Array.of(0.1, -2.5, 3.4028234663852886e38, 1e-45, 0);
    await writeSectionVectors(sql, {
      accountId,
      model: 'm1',
      vectors: [{ documentId, sectionId: `${documentId}#0`, textHash: 'h0', vector }],
    });
    const read = await readSectionVectors(sql, { accountId, model: 'm1', sectionIds: [`${documentId}#0`, 'none#0'] });
    expect(read).toEqual([{ sectionId: `${documentId}#0`, textHash: 'h0', vector }]);
    expect(await readSectionVectors(sql, { accountId, model: 'm2', sectionIds: [`${documentId}#0`] })).toEqual([]);
    expect(
      await readSectionVectors(sql, { accountId: otherAccountId, model: 'm1', sectionIds: [`${documentId}#0`] }),
    ).toEqual([]);
  });

  it("replaces a section's vector when its text changed", async () => {
    const documentId = await document();
    const sectionId = `${documentId}#0`;
    const keep = (textHash: string, vector: Float32Array) =>
      writeSectionVectors(sql, { accountId, model: 'm1', vectors: [{ documentId, sectionId, textHash, vector }] });
    await keep('before', Float32Array.of(1, 0));
    await keep('after', Float32Array.of(0, 1));
    expect(await readSectionVectors(sql, { accountId, model: 'm1', sectionIds: [sectionId] })).toEqual([
      { sectionId, textHash: 'after', vector: Float32Array.of(0, 1) },
    ]);
  });

  it('keeps no vector for a document that is not there, or not the account’s', async () => {
    const otherDocument = await addKnowledgeDocument(sql, otherAccountId, {
      title: 'T',
      body: 'x',
      approved: true,
    }).then((ids) => ids.sandbox);
    await writeSectionVectors(sql, {
      accountId,
      model: 'm1',
      vectors: [
        { documentId: 'kd_gone', sectionId: 'kd_gone#0', textHash: 'h', vector: Float32Array.of(1) },
        { documentId: otherDocument, sectionId: `${otherDocument}#0`, textHash: 'h', vector: Float32Array.of(1) },
      ],
    });
    const [row] = await sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM knowledge_section_vectors WHERE section_id IN ('kd_gone#0', $1)",
      [`${otherDocument}#0`],
    );
    expect(row!.n).toBe(0);
  });

  it("deletes a document's vectors with it", async () => {
    const documentId = await document();
    await writeSectionVectors(sql, {
      accountId,
      model: 'm1',
      vectors: [0, 1].map((n) => ({
        documentId,
        sectionId: `${documentId}#${n}`,
        textHash: 'h',
        vector: Float32Array.of(n),
      })),
    });
    await deleteKnowledgeDocument(sql, { accountId, environment: 'sandbox' }, documentId);
    const [row] = await sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM knowledge_section_vectors WHERE document_id = $1',
      [documentId],
    );
    expect(row!.n).toBe(0);
  });

  it('prunes the vectors of sections a document no longer has, and those of another model', async () => {
    // An account of its own: every vector of another model in the account goes.
    const accountId = await createAccount(sql, 'Pruned shop');
    const document = () =>
      addKnowledgeDocument(sql, accountId, { title: 'Returns', body: 'x', approved: true }).then((ids) => ids.sandbox);
    const documentId = await document();
    const untouched = await document();
    const row = (id: string, n: number) => ({
      documentId: id,
      sectionId: `${id}#${n}`,
      textHash: 'h',
      vector: Float32Array.of(n),
    });
    await writeSectionVectors(sql, { accountId, model: 'old', vectors: [row(untouched, 0)] });
    await writeSectionVectors(sql, {
      accountId,
      model: 'new',
      vectors: [row(documentId, 0), row(documentId, 1), row(documentId, 2), row(untouched, 0)],
    });
    const gone = await pruneSectionVectors(sql, {
      accountId,
      model: 'new',
      documentIds: [documentId],
      sectionIds: [`${documentId}#0`],
    });
    expect(gone).toBe(3);
    const left = await sql.query<{ section_id: string; model: string }>(
      'SELECT section_id, model FROM knowledge_section_vectors WHERE document_id IN ($1, $2)',
      [documentId, untouched],
    );
    expect(left).toHaveLength(2);
    expect(left).toEqual(
      expect.arrayContaining([
        { section_id: `${documentId}#0`, model: 'new' },
        { section_id: `${untouched}#0`, model: 'new' },
      ]),
    );
  });
});
