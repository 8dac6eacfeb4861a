import type { EmbeddingsClient } from './embeddings-client.ts';

/**
 * How long a customer's message waits for its vector. An embedding of one sentence takes tens of
 * milliseconds on a small local model; past this the answer ranks by words alone.
 */
export const QUESTION_VECTOR_TIMEOUT_MS = 2_000;

/**
 * The vector of a customer's question, or undefined when there is no embeddings API, the question
 * is blank, or the API gives none in time: the brain then ranks by words alone (the client logs
 * the failure once). Never throws.
 *
 * @example const vector = await embedQuestion(knowledge.embeddings, 'Can I swap these shoes for a bigger pair?');
 */
export async function embedQuestion(
  client: EmbeddingsClient | undefined,
  text: string,
  timeoutMs = QUESTION_VECTOR_TIMEOUT_MS,
): Promise<Float32Array | undefined> {
  if (!client || text.trim() === '') return undefined;
  try {
    const [vector] = await client.embed([text], { timeoutMs });
    return vector;
  } catch {
    return undefined;
  }
}
