import { createHash } from 'node:crypto';
import type { Queryable } from '../../shared/server/index.ts';
import {
  pruneSectionVectors,
  readSectionVectors,
  writeSectionVectors,
  type NewSectionVector,
} from '../store/knowledge-vectors.ts';
import { EMBEDDING_INPUT_CHARS_MAX, type EmbeddingsClient } from './embeddings-client.ts';
import type { KnowledgeSection } from './knowledge-base.ts';

/**
 * Sections asked for in one call to the embeddings API. Each batch is kept as soon as it comes
 * back, so a failure part-way loses one batch's work and the next try asks only for the rest.
 */
export const SECTIONS_PER_CALL = 32;

/** What is embedded for a section: its heading and its text, at most EMBEDDING_INPUT_CHARS_MAX characters. */
export function sectionInput(section: Pick<KnowledgeSection, 'heading' | 'text'>): string {
  return `${section.heading}\n${section.text}`.slice(0, EMBEDDING_INPUT_CHARS_MAX);
}

/** The hash a kept vector is checked by: a SHA-256 of exactly what was embedded. */
export function inputHash(input: string): string {
  return createHash('sha256').update(input).digest('hex');
}

/**
 * A vector for each section: those kept in the store for the same text and model, and the others
 * asked of the API (in batches of SECTIONS_PER_CALL) and kept for next time. Vectors kept for
 * sections these documents no longer have, or from another model, are deleted. Throws
 * EmbeddingsUnavailableError when the API gives no vectors; those of earlier batches stay kept.
 */
export async function vectorsForSections(
  db: Queryable,
  accountId: string,
  sections: readonly KnowledgeSection[],
  client: EmbeddingsClient,
): Promise<Map<string, Float32Array>> {
  const { model } = client;
  const wanted = sections.map((section) => {
    const input = sectionInput(section);
    return { section, input, hash: inputHash(input) };
  });
  const kept = new Map(
    (await readSectionVectors(db, { accountId, model, sectionIds: sections.map((section) => section.id) })).map(
      (row) => [row.sectionId, row],
    ),
  );
  const found = new Map<string, Float32Array>();
  const missing: typeof wanted = [];
  for (const item of wanted) {
    const row = kept.get(item.section.id);
    // A vector of another length was made by what the model's name meant before: it cannot be compared.
    const usable =
      row?.textHash === item.hash && (client.dimensions === undefined || row.vector.length === client.dimensions);
    if (usable) found.set(item.section.id, row.vector);
    else missing.push(item);
  }
  for (let start = 0; start < missing.length; start += SECTIONS_PER_CALL) {
    const batch = missing.slice(start, start + SECTIONS_PER_CALL);
    const vectors = await client.embed(batch.map((item) => item.input));
    const rows: NewSectionVector[] = batch.map((item, index) => ({
      documentId: item.section.documentId,
      sectionId: item.section.id,
      textHash: item.hash,
      vector: vectors[index]!,
    }));
    await writeSectionVectors(db, { accountId, model, vectors: rows });
    for (const row of rows) found.set(row.sectionId, row.vector);
  }
  await pruneSectionVectors(db, {
    accountId,
    model,
    documentIds: [...new Set(sections.map((section) => section.documentId))],
    sectionIds: sections.map((section) => section.id),
  });
  return new Map(sections.map((section) => [section.id, found.get(section.id)!]));
}
