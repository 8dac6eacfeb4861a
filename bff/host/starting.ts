import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorBody } from '../../shared/index.ts';

/** What a client is told to wait before it asks again while the server starts. */
export const STARTING_RETRY_AFTER_S = 1;

/**
 * Answers every request that reaches a listening port before the app behind it is ready: `/healthz`
 * says the process is alive, everything else gets 503 `starting` with Retry-After, so a load
 * balancer's probe and an early visitor hear back at once instead of waiting on an open socket.
 */
export function answerWhileStarting(request: IncomingMessage, response: ServerResponse): void {
  const alive = request.method === 'GET' && request.url?.split('?')[0] === '/healthz';
  const body: ErrorBody | { status: 'ok' } = alive
    ? { status: 'ok' }
    : { error: { code: 'starting', message: 'The server is starting. Try again in a moment.' } };
  response.writeHead(alive ? 200 : 503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...(alive ? {} : { 'Retry-After': String(STARTING_RETRY_AFTER_S), Connection: 'close' }),
  });
  response.end(JSON.stringify(body));
}
