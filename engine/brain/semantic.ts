import type { KnowledgeSection } from './sections.ts';
import { cosine } from './vectors.ts';

/**
 * What the brain knows of meaning when an embeddings API is configured: a vector per section (by
 * section id) and one for the customer's question, from the same model.
 */
export interface Meaning {
  sectionVectors: ReadonlyMap<string, Float32Array>;
  questionVector: Float32Array;
}

export interface SemanticHit {
  section: KnowledgeSection;
  similarity: number;
}

/**
 * A question this near a section in meaning (cosine of their vectors) may be answered from it.
 * Tuned for the instruction-free embedding models an operator is likely to run (nomic-embed-text,
 * bge, e5, OpenAI's text-embedding-3): docs/AI.md says how to read it for another.
 */
export const SEMANTIC_MIN = 0.6;
/** The best section must be this much nearer than the next, or the question does not say which it means. */
export const SEMANTIC_LEAD = 0.04;

/** `sections` nearest the question in meaning, nearest first (those with no vector are left out). */
export function nearestSections(sections: readonly KnowledgeSection[], meaning: Meaning, limit: number): SemanticHit[] {
  const hits: SemanticHit[] = [];
  for (const section of sections) {
    const vector = meaning.sectionVectors.get(section.id);
    if (vector) hits.push({ section, similarity: cosine(vector, meaning.questionVector) });
  }
  return hits.sort((a, b) => b.similarity - a.similarity).slice(0, limit);
}

/** The section a question means, when it is near enough and clearly nearer than any other. */
export function sureInMeaning(hits: readonly SemanticHit[]): SemanticHit | undefined {
  const [best, next] = hits;
  if (!best || best.similarity < SEMANTIC_MIN) return undefined;
  return !next || best.similarity - next.similarity >= SEMANTIC_LEAD ? best : undefined;
}
