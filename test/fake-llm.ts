import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { closeServer } from './stack.ts';

/**
 * An OpenAI-compatible chat server written for the tests, standing in for a model (which cannot
 * run here): real HTTP, `POST /v1/chat/completions`, answers scripted per test (JSON, or streamed
 * as server-sent events), every request kept.
 */

export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: { role: string; content: string | null }[];
  tools?: { type: string; function: { name: string; parameters: { required: string[] } } }[];
}

/** A JSON answer, or (`pieces`) a streamed one: each piece a chunk, 30 ms apart, then the usage and [DONE]. */
export type Reply = {
  status?: number;
  body?: unknown;
  pieces?: string[];
  /** The last piece waits for this (a test looks at the pieces before it). */ beforeLast?: Promise<void>;
};

export function fakeModel() {
  const requests: ChatRequest[] = [];
  // When the last piece of a streamed answer was written.
  const streamedAt = { last: 0 };
  let next: (request: ChatRequest) => Reply = () => ({ body: completion('Hello.') });
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const parsed = JSON.parse(raw) as ChatRequest;
      requests.push(parsed);
      const reply =
        req.url === '/v1/chat/completions' ? next(parsed) : { status: 404, body: { error: 'no such path' } };
      if (reply.pieces) {
        expect(parsed.stream).toBe(true);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        void (async () => {
          for (const [index, piece] of reply.pieces!.entries()) {
            if (index === reply.pieces!.length - 1) {
              await reply.beforeLast;
              streamedAt.last = Date.now();
            }
            res.write(
              `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: piece } }] })}\n\n`,
            );
            await new Promise((resolve) => setTimeout(resolve, 30));
          }
          res.write(
            `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 90, completion_tokens: reply.pieces!.length } })}\n\n`,
          );
          res.end('data: [DONE]\n\n');
        })();
        return;
      }
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  return {
    requests,
    streamedAt,
    answer(reply: (request: ChatRequest) => Reply) {
      next = reply;
    },
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    },
    stop: () => closeServer(server),
  };
}

export const completion = (
  content: string | null,
  extra: Record<string, unknown> = {},
  usage = { prompt_tokens: 120, completion_tokens: 30 },
) => ({
  id: 'chatcmpl-test',
  object: 'chat.completion',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, ...extra } }],
  usage,
});
