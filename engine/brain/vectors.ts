/**
 * The cosine of the angle between two vectors: 1 for the same direction, 0 for none in common, −1
 * for opposite ones. Embedding models put texts of like meaning in like directions, so this is how
 * near a question is to a section (docs/AI.md, "With an embeddings endpoint").
 *
 * Vectors of different lengths (from two models) or a zero vector have no angle between them: 0,
 * so a vector kept from another model can never make a section look near.
 *
 * @example cosine(Float32Array.of(1, 0), Float32Array.of(1, 1)) // ≈ 0.7071
 */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return 0;
  return dot / Math.sqrt(normA * normB);
}
