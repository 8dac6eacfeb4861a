import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { closeServer, listen, urlOf } from './local-servers.ts';

/**
 * An OpenAI-compatible embeddings server written for the tests, standing in for an embedding model
 * (real models cannot run here): real HTTP on loopback, `POST /v1/embeddings` with `input` a string
 * or a list, every request kept with its headers. Its vectors are deterministic: one dimension per
 * concept of a small table (so "swap for a bigger size" and "Exchanging an item for another size"
 * point the same way), and a few dimensions for the other words, hashed, weighing less.
 */

const CONCEPTS: readonly RegExp[] = [
  /^(swap\w*|exchang\w*|replac\w*|trade)$/,
  /^(size\w*|bigger|smaller|larger|fit|fits)$/,
  /^(item\w*|shoes?|pair|products?|articles?)$/,
  /^(return\w*|refund\w*|back)$/,
  /^(ship\w*|deliver\w*|dispatch\w*|arriv\w*|parcel\w*)$/,
  /^(long|days?|weeks?|time|when)$/,
  /^(pay\w*|card|paypal|invoice)$/,
  /^(password|log|login|sign)$/,
  /^(countr\w*|abroad|canada|germany|japan|international\w*)$/,
  /^(damag\w*|broken|broke)$/,
];
/** Dimensions for words of no concept: each word to one, by a hash of it. */
const OTHER_WORDS = 64;
export const FAKE_DIMENSIONS = CONCEPTS.length + OTHER_WORDS;

/** The stand-in model's vector of a text. */
export function fakeVector(text: string): number[] {
  const vector = new Array<number>(FAKE_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const concept = CONCEPTS.findIndex((pattern) => pattern.test(word));
    if (concept >= 0) vector[concept]! += 1;
    else if (word.length > 3) vector[CONCEPTS.length + (hash(word) % OTHER_WORDS)]! += 0.25;
  }
  return vector;
}

function hash(word: string): number {
  let value = 7;
  for (const char of word) value = (value * 31 + char.codePointAt(0)!) >>> 0;
  return value;
}

export interface EmbeddingsRequest {
  model: string;
  input: string[];
  headers: IncomingHttpHeaders;
}

/** What the server does with a request: the protocol's answer unless a test says otherwise. */
export type EmbeddingsBehaviour =
  { kind: 'answer' } | { kind: 'status'; status: number } | { kind: 'body'; body: string } | { kind: 'hang' };

export interface FakeEmbeddings {
  /** The API's base, with its `/v1`, as EMBEDDINGS_BASE_URL holds it. */
  baseUrl: string;
  requests: EmbeddingsRequest[];
  /** Every text embedded so far, in order. */
  embedded(): string[];
  behave(behaviour: EmbeddingsBehaviour): void;
  close(): Promise<void>;
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const requests: EmbeddingsRequest[] = [];
  let behaviour: EmbeddingsBehaviour = { kind: 'answer' };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such path"}');
        return;
      }
      const body = JSON.parse(raw) as { model: string; input: string | string[] };
      const input = typeof body.input === 'string' ? [body.input] : body.input;
      requests.push({ model: body.model, input, headers: req.headers });
      if (behaviour.kind === 'hang') return;
      if (behaviour.kind === 'status') {
        res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end('{"error":"stand-in failure"}');
        return;
      }
      if (behaviour.kind === 'body') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(behaviour.body);
        return;
      }
      // Listed last first, each with its index, as the protocol allows: the client must order them.
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) })).reverse();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await listen(server);
  return {
    baseUrl: `${urlOf(server)}/v1`,
    requests,
    embedded: () => requests.flatMap((request) => request.input),
    behave: (next) => (behaviour = next),
    close: () => closeServer(server),
  };
}
