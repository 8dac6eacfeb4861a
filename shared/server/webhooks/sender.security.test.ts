import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender } from './sender.ts';

/**
 * A hostile receiver of action requests (a site owner's action URL) against the sender: it may
 * redirect to an address the engine may not call, answer without end, or never finish answering.
 * The sender follows no redirect, reads at most `answerLimit` bytes, and gives up after its time.
 */
describe('the sender against a hostile receiver', () => {
  let server: Server;
  let origin: string;
  const hits: string[] = [];
  const held: ServerResponse[] = [];
  const routes: Record<string, (response: ServerResponse) => void> = {
    '/redirect': (response) => {
      response.writeHead(307, { location: `${origin}/inside` }).end();
    },
    '/inside': (response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"secret":"from the inside"}');
    },
    '/huge': (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // Far more than the limit, in pieces, as a stream that would go on.
      const piece = Buffer.alloc(16 * 1024, 'a');
      for (let index = 0; index < 64; index += 1) response.write(piece);
      held.push(response);
    },
    '/slow': (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status":');
      held.push(response);
    },
  };

  beforeAll(async () => {
    server = createServer((incoming: IncomingMessage, response) => {
      hits.push(incoming.url ?? '');
      incoming.resume();
      incoming.on('end', () => routes[incoming.url ?? '']?.(response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const response of held) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const delivery = (path: string) => ({
    id: 'act_1',
    endpointId: 'track',
    eventId: 'evt_1',
    eventType: 'conversation.action_request',
    body: '{}',
    roundAttempts: 0,
    url: `${origin}${path}`,
    secret: 'whsec_x',
  });

  it('follows no redirect: the redirect is a failed answer and its target is never asked', async () => {
    const send = createSender({ allowedPrivateOrigins: [origin] }, { answerLimit: 1024 });
    hits.length = 0;
    const sent = await send(delivery('/redirect'), Date.now());
    expect(sent).toMatchObject({ status: 307, error: 'the receiver answered 307' });
    expect(sent.answer ?? '').not.toContain('from the inside');
    expect(hits).toEqual(['/redirect']);
  });

  it('reads no more of an answer than its limit, and lets go of the connection', async () => {
    const send = createSender({ allowedPrivateOrigins: [origin] }, { answerLimit: 1024 });
    const sent = await send(delivery('/huge'), Date.now());
    expect(sent).toMatchObject({ status: 200, error: 'the answer is larger than 1024 bytes' });
    expect(sent.answer).toBeUndefined();
  });

  it('gives up on an answer that never ends, after its time', async () => {
    const send = createSender({ allowedPrivateOrigins: [origin] }, { answerLimit: 1024, timeoutMs: 300 });
    const sent = await send(delivery('/slow'), Date.now());
    expect(sent).toMatchObject({ status: null, error: 'no answer within 0.3 seconds' });
  });

  it('calls no private address written as an IP that it was not told to allow (no lookup guards those)', async () => {
    const send = createSender({ allowedPrivateOrigins: [] }, { answerLimit: 1024 });
    hits.length = 0;
    const sent = await send(delivery('/inside'), Date.now());
    expect(sent).toMatchObject({ status: null, error: expect.stringMatching(/^refused: .*private address/) });
    expect(hits).toEqual([]);
  });
});
