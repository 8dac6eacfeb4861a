import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { WIDGET_NAMESPACE, type WidgetMessage } from '../shared/index.ts';
import { openRedis } from '../shared/server/index.ts';
import { readDemoConfig } from '../demo/config.ts';
import { runDemo, type RunningDemo } from '../demo/run-demo.ts';
import { DEMO_API_KEY, DEMO_SITE_KEY, dropSchemas, logger, POSTGRES_URL, request, uniqueSchemaPrefix } from '../test/stack.ts';
import { until } from '../test/until.ts';
import { newVisitor, openWidgetConversation } from '../test/widget-client.ts';

/**
 * Two BFF nodes behind one site, as DESIGN "Many machines" has it: one PostgreSQL, one Redis
 * (the machine's real ones). Node A also runs the engine; node B reaches it over HTTP.
 */
const REDIS_URL = process.env['REDIS_TEST_URL'] ?? 'redis://127.0.0.1:6379';

describe('two BFF nodes sharing PostgreSQL and Redis', () => {
  const prefix = uniqueSchemaPrefix();
  let nodeA: RunningDemo;
  let nodeB: RunningDemo;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const shared = { PORT: '0', ENGINE_PORT: '0', DATABASE_URL: POSTGRES_URL, REDIS_URL, DEMO_SITE_KEY, DEMO_API_KEY, FEED_POLL_MS: '500' };
    nodeA = await runDemo(readDemoConfig(shared), logger, { schemaPrefix: prefix });
    nodeB = await runDemo(readDemoConfig({ ...shared, AI_API_URL: nodeA.engineUrl, AI_API_KEY: nodeA.apiKey }), logger, { schemaPrefix: prefix });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await nodeB?.close();
    await nodeA?.close();
    await dropSchemas(POSTGRES_URL, prefix);
    // What the nodes kept in Redis (counters, logs, the adapter's stream) goes too.
    const redis = await openRedis(REDIS_URL, () => undefined);
    for await (const key of redis.scanIterator({ MATCH: `parley:${prefix}*`, COUNT: 500 })) await redis.del(key);
    await redis.quit();
  });

  function connect(url: string, token: string): Promise<{ socket: Socket; received: WidgetMessage[] }> {
    const socket = io(url + WIDGET_NAMESPACE, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    const received: WidgetMessage[] = [];
    socket.on('message:created', (message: WidgetMessage) => received.push(message));
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve({ socket, received }));
      socket.once('connect_error', reject);
    });
  }

  it('pushes the answer to a message sent through node A to the customer’s socket on node B, once', async () => {
    const { token } = await newVisitor(nodeA.url);
    const conversationId = (await openWidgetConversation(nodeA.url, token)).id;
    const tab = await connect(nodeB.url, token);
    const sent = await request(`${nodeA.url}/v1/widget/conversations/${conversationId}/messages`, { token, body: { text: 'How do I return an item?', message_id: 'across-1' } });
    expect(sent.status).toBe(201);
    const answers = await until(() => tab.received.filter((message) => message.author === 'ai'), (list) => list.length > 0, 'the answer on node B');
    expect(answers[0]!.text).toContain('within 30 days');
    // The customer's own message came across too, and nothing twice.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(tab.received.map((message) => message.author)).toEqual(['customer', 'ai']);
  });

  it('holds the site-key limit across nodes: 20 requests an hour per address in all, the 21st refused on either node', async () => {
    // A fresh address for this test: the limit counts per client address, and node A's own tests used 127.0.0.1.
    const statuses: number[] = [];
    for (let index = 0; index < 20; index++) {
      statuses.push((await request(`${(index % 2 ? nodeB : nodeA).url}/v1/widget-sessions`, { token: DEMO_SITE_KEY, body: {} })).status);
    }
    // The first test made one site-key request from this address already.
    expect(statuses.filter((status) => status === 201)).toHaveLength(19);
    for (const node of [nodeA, nodeB]) {
      const refused = await request(`${node.url}/v1/widget-sessions`, { token: DEMO_SITE_KEY, body: {} });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
