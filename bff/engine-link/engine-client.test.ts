import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { EngineCallError, EngineClient } from './engine-client.ts';

describe('EngineCallError', () => {
  it('is retryable when the first call with the same Idempotency-Key is still running at the engine (409 idempotency_key_in_use)', () => {
    // After the engine or its database crashed mid-call, its key stays "running" until the engine frees it; the relay must wait, not fail the message.
    expect(new EngineCallError('still running', { status: 409, code: 'idempotency_key_in_use' }).retryable).toBe(true);
  });

  it('is final for the other refusals, and retryable when the engine was unreachable, failed or asked to slow down', () => {
    expect(new EngineCallError('closed', { status: 409, code: 'invalid_state' }).retryable).toBe(false);
    expect(new EngineCallError('bad', { status: 400, code: 'invalid_request' }).retryable).toBe(false);
    expect(new EngineCallError('down', { status: 0, code: 'unreachable' }).retryable).toBe(true);
    expect(new EngineCallError('slow down', { status: 429, code: 'rate_limited' }).retryable).toBe(true);
    expect(new EngineCallError('failed', { status: 500, code: 'internal' }).retryable).toBe(true);
  });
});

describe("the client's deadline on a call to the engine (a plain timer on node:http)", () => {
  const ME = JSON.stringify({
    account_id: 'acc_1',
    environment: 'sandbox',
    key: { id: 'key_1', prefix: 'sk_test' },
    limits: { requests_per_minute: 60 },
  });
  /** An engine that answers /v1/me at once, with headers then nothing on /stall, and never on /silent. */
  async function engineServer() {
    const connections: Socket[] = [];
    const held: ServerResponse[] = [];
    const server = createServer((request, response) => {
      if (request.url === '/silent/v1/me') return void held.push(response);
      if (request.url === '/stall/v1/me') {
        response.writeHead(200, { 'content-type': 'application/json' }).write('{"account_id":');
        return void held.push(response);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(ME);
    });
    server.on('connection', (socket) => connections.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      connections,
      close: async () => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('fails a call the engine never answers, or stops answering halfway, as unreachable once the deadline has passed', async () => {
    const engine = await engineServer();
    try {
      for (const path of ['/silent', '/stall']) {
        const client = new EngineClient({ baseUrl: engine.url + path, apiKey: 'sk_test_x', timeoutMs: 200 });
        const started = Date.now();
        const failure = await client.me().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure, path).toBeInstanceOf(EngineCallError);
        expect((failure as EngineCallError).code, path).toBe('unreachable');
        expect((failure as EngineCallError).retryable, path).toBe(true);
        expect(Date.now() - started, path).toBeGreaterThanOrEqual(190);
      }
    } finally {
      await engine.close();
    }
  });

  it("keeps a kept-alive connection working after an answered call's deadline would have passed", async () => {
    const engine = await engineServer();
    try {
      const client = new EngineClient({ baseUrl: engine.url, apiKey: 'sk_test_x', timeoutMs: 1_000 });
      expect((await client.me()).account_id).toBe('acc_1');
      // Past the first call's deadline: its timer must leave the connection, now idle in the pool, alone.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect((await client.me()).account_id).toBe('acc_1');
      expect(engine.connections.filter((socket) => !socket.destroyed)).toHaveLength(1);
      expect(engine.connections).toHaveLength(1);
    } finally {
      await engine.close();
    }
  });
});
