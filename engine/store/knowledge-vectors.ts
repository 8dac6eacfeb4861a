import type { Queryable } from '../../shared/server/index.ts';

/**
 * The vectors an embeddings API gave for knowledge sections (migration 013), per account, section
 * and model, with a hash of the text each was made from: engine/brain/section-vectors.ts reads them
 * before it asks the API, so each section is embedded once per change of its text, whichever
 * process asks and however often it restarts. A document's vectors go with it (ON DELETE CASCADE).
 */

/** A section's kept vector and the hash of the text it was made from. */
export interface KeptSectionVector {
  sectionId: string;
  textHash: string;
  vector: Float32Array;
}

export interface NewSectionVector extends KeptSectionVector {
  documentId: string;
}

/** The vectors `model` gave for these sections of the account, those there are. */
export async function readSectionVectors(
  db: Queryable,
  { accountId, model, sectionIds }: { accountId: string; model: string; sectionIds: readonly string[] },
): Promise<KeptSectionVector[]> {
  if (sectionIds.length === 0) return [];
  const rows = await db.query<{ section_id: string; text_hash: string; vector: Uint8Array }>(
    `SELECT section_id, text_hash, vector FROM knowledge_section_vectors
     WHERE account_id = $1 AND model = $2 AND section_id = ANY($3::text[])`,
    [accountId, model, [...sectionIds]],
  );
  return rows.map((row) => ({ sectionId: row.section_id, textHash: row.text_hash, vector: fromBytes(row.vector) }));
}

/**
 * Keeps vectors `model` gave, each replacing the section's vector of that model. A vector of a
 * document that was deleted meanwhile is not kept.
 */
export async function writeSectionVectors(
  db: Queryable,
  { accountId, model, vectors }: { accountId: string; model: string; vectors: readonly NewSectionVector[] },
): Promise<void> {
  if (vectors.length === 0) return;
  // Arrays, so that one statement text serves every batch size; the bytes go as hex, which both drivers pass alike.
  await db.query(
    `INSERT INTO knowledge_section_vectors (account_id, document_id, section_id, model, text_hash, vector)
     SELECT $1, v.document_id, v.section_id, $2, v.text_hash, decode(v.vector, 'hex')
     FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS v (document_id, section_id, text_hash, vector)
     WHERE EXISTS (SELECT 1 FROM knowledge_documents d WHERE d.id = v.document_id AND d.account_id = $1)
     ON CONFLICT (account_id, section_id, model) DO UPDATE
       SET document_id = excluded.document_id, text_hash = excluded.text_hash, vector = excluded.vector, created_at = now()`,
    [
      accountId,
      model,
      vectors.map((row) => row.documentId),
      vectors.map((row) => row.sectionId),
      vectors.map((row) => row.textHash),
      vectors.map((row) => toBytes(row.vector).toString('hex')),
    ],
  );
}

/**
 * Deletes the account's vectors that no longer serve: those of another model, and those of the
 * given documents' sections that are not among `sectionIds` (a document that has fewer sections
 * now). Gives how many went.
 */
export async function pruneSectionVectors(
  db: Queryable,
  {
    accountId,
    model,
    documentIds,
    sectionIds,
  }: { accountId: string; model: string; documentIds: readonly string[]; sectionIds: readonly string[] },
): Promise<number> {
  const gone = await db.query(
    `DELETE FROM knowledge_section_vectors
     WHERE account_id = $1 AND (model <> $2 OR (document_id = ANY($3::text[]) AND NOT section_id = ANY($4::text[])))
     RETURNING section_id`,
    [accountId, model, [...documentIds], [...sectionIds]],
  );
  return gone.length;
}

/** A vector as its float4 numbers, little-endian, whatever the machine's order. */
function toBytes(vector: Float32Array): Buffer {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes;
}

function fromBytes(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}
