import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { openRedis } from '../../shared/server/index.ts';
import { DEMO_SITE_KEY, freePort, request, startBffAndEngine, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { connectWidget, newVisitor, openWidgetConversation } from '../../test/widget-client.ts';

/**
 * Chaos: the BFF's Redis goes away and comes back. A Redis server of this test's own (Debian's
 * redis-server on a free port) is stopped for real; the chat must go on, with the limits letting
 * requests through while it is gone and counting again once it is back.
 */

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const client = await until(
    async () => {
      try {
        return await openRedis(`redis://127.0.0.1:${port}`, () => undefined);
      } catch {
        return undefined;
      }
    },
    (value) => value !== undefined,
    'redis-server to answer',
  );
  await client!.quit();
  return child;
}

describe('the BFF when its Redis goes away', () => {
  let port: number;
  let redis: ChildProcess;
  let stack: TestStack;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    // Built without startStack, which lifts the site-key limit: here the real one, in Redis, is under test.
    stack = await startBffAndEngine({
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc' },
    });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
    redis?.kill('SIGKILL');
  });

  const siteKeyRequest = () => request(`${stack.url}/v1/widget-sessions`, { token: DEMO_SITE_KEY, body: {} });

  it('keeps the chat going while Redis is down, lets requests through the limits, and counts again once it is back', async () => {
    const { token } = await newVisitor(stack.url);
    const conversationId = (await openWidgetConversation(stack.url, token)).id;
    const { socket, received } = await connectWidget(stack.url, token);
    sockets.push(socket);

    redis.kill('SIGKILL');
    await new Promise<void>((resolve) => redis.once('exit', () => resolve()));

    // Sessions and messages still work, at once (nothing waits for Redis).
    const started = Date.now();
    const session = await siteKeyRequest();
    expect(session.status).toBe(201);
    const sent = await request(`${stack.url}/v1/widget/conversations/${conversationId}/messages`, {
      token,
      body: { text: 'How do I return an item?', message_id: 'outage-1' },
    });
    expect(sent.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(5_000);
    const answers = await until(
      () => received.filter((message) => message.author === 'ai'),
      (list) => list.length > 0,
      'the answer while Redis is down',
    );
    expect(answers[0]!.text).toContain('within 30 days');
    // 25 site-key requests from one address go through (more than the 20 an hour): the limit cannot be counted, so it lets them pass.
    for (let index = 0; index < 25; index++) {
      const response = await siteKeyRequest();
      expect(response.status).toBe(201);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('20');
    }

    // Redis is back: the limit counts again (20 an hour per address), from nothing.
    redis = await startRedis(port);
    // Once the BFF has reconnected, requests are counted again (Remaining goes down from 20).
    await until(
      async () => Number((await siteKeyRequest()).headers.get('x-ratelimit-remaining')),
      (remaining) => remaining < 20,
      'the BFF to count in Redis again',
    );
    const statuses: number[] = [];
    for (let index = 0; index < 20; index++) statuses.push((await siteKeyRequest()).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((status) => status === 201).length).toBeLessThan(20);
  });
});
