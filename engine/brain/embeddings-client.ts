import { z } from 'zod';
import type { Logger } from '../../shared/server/index.ts';

/**
 * A client of any OpenAI-compatible embeddings API (`POST {EMBEDDINGS_BASE_URL}/embeddings`: Ollama,
 * llama.cpp's server, vLLM or a hosted one), as llm-client.ts is of the chat API: the base holds its
 * `/v1`, a key goes as a Bearer token, each request has a timeout. Texts go in batches of a bounded
 * size, each text cut to a bounded length; an answer is checked before it is believed (one vector
 * per text, all of one length, the same length as before). After several failed calls in a row the
 * circuit opens and calls fail at once for a while: a brain that waits for vectors would make every
 * customer wait for a timeout, and words alone answer meanwhile (docs/AI.md).
 */

export interface EmbeddingsSettings {
  /** The API's base, with its `/v1` (e.g. `http://127.0.0.1:11434/v1`). */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  /** How long one request may take; 30 s unless told. */
  timeoutMs?: number | undefined;
}

export interface EmbeddingsClient {
  readonly model: string;
  /** The length of the model's vectors, once it has given some. */
  readonly dimensions: number | undefined;
  /** One vector per text, in order. Throws EmbeddingsUnavailableError when the API does not give them. */
  embed(texts: readonly string[], options?: { timeoutMs?: number }): Promise<Float32Array[]>;
}

/** The embeddings API did not give vectors now (down, too slow, refusing, an answer of the wrong shape, or the circuit is open). */
export class EmbeddingsUnavailableError extends Error {
  override readonly name = 'EmbeddingsUnavailableError';
}

/** The most texts one request carries; more are sent in several. */
export const EMBEDDINGS_BATCH_MAX = 64;
/** The longest text embedded, in characters (about 500 tokens: within the context of the common small models). */
export const EMBEDDING_INPUT_CHARS_MAX = 2_000;
/** The longest vector believed; models give 384 to 4096. */
export const EMBEDDING_DIMENSIONS_MAX = 8_192;
/** The most bytes of one answer read: a full batch of the longest vectors, written out as JSON numbers. */
const ANSWER_BYTES_MAX = EMBEDDINGS_BATCH_MAX * EMBEDDING_DIMENSIONS_MAX * 32;
/** After this many failed calls in a row the circuit opens… */
const FAILURES_TO_OPEN = 3;
/** …for this long; then one call is let through to try. */
const OPEN_FOR_MS = 30_000;

const EmbeddingsAnswer = z.object({
  data: z
    .array(
      z.object({
        index: z.number().int().min(0).optional(),
        embedding: z.array(z.number()).min(1).max(EMBEDDING_DIMENSIONS_MAX),
      }),
    )
    .max(EMBEDDINGS_BATCH_MAX),
});

/**
 * A client of the embeddings API at `settings.baseUrl`. With `logger`, the first failure after the
 * API last answered is logged (a warning), and so is its coming back; failures in between are not.
 *
 * @example createEmbeddingsClient({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text' })
 */
export function createEmbeddingsClient(
  settings: EmbeddingsSettings,
  options: { fetch?: typeof fetch; logger?: Logger | undefined } = {},
): EmbeddingsClient {
  const baseUrl = settings.baseUrl.replace(/\/$/, '');
  const post = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (settings.apiKey) headers['authorization'] = `Bearer ${settings.apiKey}`;
  let dimensions: number | undefined;
  let failures = 0;
  let openUntil = 0;

  const once = async (texts: readonly string[], timeoutMs: number): Promise<Float32Array[]> => {
    const response = await post(`${baseUrl}/embeddings`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: settings.model, input: texts.map(boundInput) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      const text = (await response.text().catch(() => '')).slice(0, 300);
      throw new EmbeddingsUnavailableError(`the API answered ${response.status} ${text}`);
    }
    const vectors = vectorsOf(JSON.parse(await readBounded(response)), texts.length);
    if (dimensions !== undefined && vectors[0]!.length !== dimensions)
      throw new EmbeddingsUnavailableError(
        `the model gave vectors of ${vectors[0]!.length} numbers, before it gave ${dimensions}`,
      );
    dimensions = vectors[0]!.length;
    return vectors;
  };

  const failed = (error: unknown): EmbeddingsUnavailableError => {
    const problem = error instanceof Error ? error.message : String(error);
    const unavailable = new EmbeddingsUnavailableError(`The embeddings API gave no vectors: ${problem}`);
    if (failures === 0)
      options.logger?.warn(
        { err: unavailable, model: settings.model },
        'embeddings unavailable: the brain ranks by words only until the API answers again',
      );
    failures += 1;
    if (failures >= FAILURES_TO_OPEN) openUntil = Date.now() + OPEN_FOR_MS;
    return unavailable;
  };

  return {
    model: settings.model,
    get dimensions() {
      return dimensions;
    },
    async embed(texts, { timeoutMs = settings.timeoutMs ?? 30_000 } = {}) {
      if (texts.length === 0) return [];
      if (Date.now() < openUntil)
        throw new EmbeddingsUnavailableError(
          'The embeddings API failed repeatedly; it is not asked again for a while.',
        );
      const vectors: Float32Array[] = [];
      try {
        for (let start = 0; start < texts.length; start += EMBEDDINGS_BATCH_MAX)
          vectors.push(...(await once(texts.slice(start, start + EMBEDDINGS_BATCH_MAX), timeoutMs)));
      } catch (error) {
        throw failed(error);
      }
      if (failures > 0) options.logger?.info({ model: settings.model }, 'embeddings available again');
      failures = 0;
      return vectors;
    },
  };
}

/** A text as it is sent: at most EMBEDDING_INPUT_CHARS_MAX characters, never empty (the API refuses an empty input). */
function boundInput(text: string): string {
  const bounded = text.length > EMBEDDING_INPUT_CHARS_MAX ? text.slice(0, EMBEDDING_INPUT_CHARS_MAX) : text;
  return bounded.trim() === '' ? '.' : bounded;
}

/** The vectors of a checked answer, in the order of the texts asked for. */
function vectorsOf(payload: unknown, count: number): Float32Array[] {
  const parsed = EmbeddingsAnswer.safeParse(payload);
  if (!parsed.success)
    throw new EmbeddingsUnavailableError(`an answer that is not an embeddings list: ${parsed.error.message}`);
  const { data } = parsed.data;
  if (data.length !== count) throw new EmbeddingsUnavailableError(`${data.length} vectors for ${count} texts`);
  const vectors: Float32Array[] = new Array(count);
  for (const [position, item] of data.entries()) {
    const index = item.index ?? position;
    if (index >= count || vectors[index])
      throw new EmbeddingsUnavailableError(`a vector at index ${index} of ${count}`);
    vectors[index] = Float32Array.from(item.embedding);
  }
  const length = vectors[0]!.length;
  if (vectors.some((vector) => vector.length !== length))
    throw new EmbeddingsUnavailableError('vectors of different lengths in one answer');
  return vectors;
}

/** The answer's text, refused past ANSWER_BYTES_MAX bytes without reading the rest. */
async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    // Leaving the loop by a throw cancels the rest of the body.
    if (bytes > ANSWER_BYTES_MAX)
      throw new EmbeddingsUnavailableError(`an answer of more than ${ANSWER_BYTES_MAX} bytes`);
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
