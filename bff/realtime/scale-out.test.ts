import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import {
  DEMO_API_KEY,
  DEMO_SITE_KEY,
  DRIVERS,
  freePort,
  request,
  startBffAndEngine,
  type BffNode,
  type TestStack,
} from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { connectWidget, newVisitor, openWidgetConversation } from '../../test/widget-client.ts';
import { claimOutbox, releaseOutbox, renewOutboxLeases } from '../store/outbox.ts';
import { LEASE_MS } from '../engine-link/outbox-forwarding.ts';
import { EngineClient } from '../index.ts';
import { engineFetch, type EngineFetch } from '../engine-link/engine-client.ts';

/**
 * Two BFF nodes behind one site, as DESIGN "Many machines" has it: one PostgreSQL, one Redis
 * (the machine's real ones). Both reach the stack's engine over HTTP, with the same keys.
 */
const REDIS_URL = process.env['REDIS_TEST_URL'] ?? 'redis://127.0.0.1:6379';

describe('two BFF nodes sharing PostgreSQL and Redis', () => {
  let nodeA: TestStack;
  let nodeB: BffNode;
  const sockets: Socket[] = [];

  // Every call either node makes to the engine, by path.
  const engineCalls: string[] = [];
  const countingFetch: EngineFetch = (url, request) => {
    engineCalls.push(`${request.method} ${new URL(url).pathname}`);
    return engineFetch(url, request);
  };

  beforeAll(async () => {
    // The engine listens where the nodes' counting clients, made before it starts, look for it.
    const engineUrl = `http://127.0.0.1:${await freePort()}`;
    const engine = () => new EngineClient({ baseUrl: engineUrl, apiKey: DEMO_API_KEY, fetch: countingFetch });
    nodeA = await startBffAndEngine({
      driver: DRIVERS[1],
      env: {
        ENGINE_PORT: new URL(engineUrl).port,
        REDIS_URL,
        SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc',
        FEED_POLL_MS: '500',
      },
      bff: { engine: engine() },
    });
    nodeB = await nodeA.startAnotherNode({ engine: engine() });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    // Then the schemas, and what the nodes kept in Redis (counters, logs, the adapter's stream), go too.
    await nodeB?.stop();
    await nodeA?.stop();
  });

  async function connect(url: string, token: string) {
    const tab = await connectWidget(url, token);
    sockets.push(tab.socket);
    return tab;
  }

  it('pushes the answer to a message sent through node A to the customer’s socket on node B, once', async () => {
    const { token } = await newVisitor(nodeA.url);
    const conversationId = (await openWidgetConversation(nodeA.url, token)).id;
    const tab = await connect(nodeB.url, token);
    const sent = await request(`${nodeA.url}/v1/widget/conversations/${conversationId}/messages`, {
      token,
      body: { text: 'How do I return an item?', message_id: 'across-1' },
    });
    expect(sent.status).toBe(201);
    const answers = await until(
      () => tab.received.filter((message) => message.author === 'ai'),
      (list) => list.length > 0,
      'the answer on node B',
    );
    expect(answers[0]!.text).toContain('within 30 days');
    // The customer's own message came across too, and nothing twice: the pushes of one room reach node B
    // in order, so a repeat of the first exchange would come before the answer to a second message.
    expect(
      (
        await request(`${nodeA.url}/v1/widget/conversations/${conversationId}/messages`, {
          token,
          body: { text: 'Do you ship abroad?', message_id: 'across-2' },
        })
      ).status,
    ).toBe(201);
    await until(
      () => tab.received.filter((message) => message.author === 'ai'),
      (list) => list.length > 1,
      'the second answer on node B',
    );
    expect(tab.received.map((message) => message.author)).toEqual(['customer', 'ai', 'customer', 'ai']);
  });

  it("forwards one conversation's messages to the engine in order and once each, when they arrive on both nodes at once", async () => {
    const { token } = await newVisitor(nodeA.url);
    const conversationId = (await openWidgetConversation(nodeA.url, token)).id;
    const questions = [
      'Do you ship abroad?',
      'How long does delivery take?',
      'How do I return an item?',
      'Which payment methods do you accept?',
      'Can I change my order?',
      'Where is my refund?',
    ];
    // Sent one after another, alternating nodes, without waiting for answers: each node's relay wants to forward.
    for (const [index, text] of questions.entries()) {
      const response = await request(
        `${(index % 2 ? nodeB : nodeA).url}/v1/widget/conversations/${conversationId}/messages`,
        { token, body: { text, message_id: `both-${index}` } },
      );
      expect(response.status).toBe(201);
    }
    await until(
      async () => {
        await Promise.all([nodeA.bff.relay.settled(), nodeB.bff.relay.settled()]);
        const [row] = await nodeA.bffSql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.upstream = 'pending'",
          [conversationId],
        );
        return row!.n;
      },
      (pending) => pending === 0,
      'every message forwarded',
      20_000,
    );
    const [row] = await nodeA.bffSql.query<{ engine_conversation_id: string }>(
      'SELECT engine_conversation_id FROM conversations WHERE uuid = $1',
      [conversationId],
    );
    const transcript = await request(`${nodeA.engineUrl}/v1/conversations/${row!.engine_conversation_id}/transcript`, {
      token: nodeA.apiKey,
    });
    const customerTurns = (transcript.body.turns as { role: string; text: string }[])
      .filter((turn) => turn.role === 'customer')
      .map((turn) => turn.text);
    expect(customerTurns).toEqual(questions);
    // One node at a time drained the outbox: each message was sent to the engine once, not by both nodes.
    expect(
      engineCalls.filter((call) => call === `POST /v1/conversations/${row!.engine_conversation_id}/messages`),
    ).toHaveLength(questions.length);
  });

  it('lets one relay at a time hold a conversation: a second is refused until the first lets go or its lease runs out', async () => {
    const { token } = await newVisitor(nodeA.url);
    const conversationId = (await openWidgetConversation(nodeA.url, token)).id;
    const [row] = await nodeA.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [
      conversationId,
    ]);
    const id = Number(row!.id);
    const now = new Date();
    const minuteLater = new Date(now.getTime() + 60_000);
    const claimed = (owner: string, at: Date, until: Date) =>
      claimOutbox(nodeA.bffSql, id, owner, at, until).then((work) => work !== undefined);
    expect(await claimed('relay_one', now, minuteLater)).toBe(true);
    expect(await claimed('relay_two', now, minuteLater)).toBe(false);
    expect(await claimed('relay_one', now, minuteLater)).toBe(true);
    // The holder died: once its lease has run out, another takes over.
    expect(await claimed('relay_two', new Date(now.getTime() + 61_000), new Date(now.getTime() + 121_000))).toBe(true);
    await releaseOutbox(nodeA.bffSql, id, 'relay_one');
    expect(await claimed('relay_one', new Date(now.getTime() + 62_000), new Date(now.getTime() + 122_000))).toBe(false);
    await releaseOutbox(nodeA.bffSql, id, 'relay_two');
    expect(await claimed('relay_one', now, minuteLater)).toBe(true);
    await releaseOutbox(nodeA.bffSql, id, 'relay_one');
  });

  it("renews a relay's own leases of the conversations it drains, and no other relay's", async () => {
    // Two conversations the tests before opened (a new one would spend the site-key limit counted below).
    const ids = (
      await nodeA.bffSql.query<{ id: number }>(
        'SELECT id FROM conversations WHERE relay_owner IS NULL ORDER BY id LIMIT 2',
      )
    ).map((row) => Number(row.id));
    const [mine, theirs] = ids as [number, number];
    const now = new Date();
    const soon = new Date(now.getTime() + LEASE_MS);
    expect(await claimOutbox(nodeA.bffSql, mine, 'relay_mine', now, soon)).toBeDefined();
    expect(await claimOutbox(nodeA.bffSql, theirs, 'relay_theirs', now, soon)).toBeDefined();
    const later = new Date(now.getTime() + 5 * LEASE_MS);
    await renewOutboxLeases(nodeA.bffSql, [mine, theirs], 'relay_mine', later);
    // Past the first lease: another relay cannot take the renewed one, and can take the one not renewed.
    const past = new Date(now.getTime() + LEASE_MS + 1_000);
    expect(await claimOutbox(nodeA.bffSql, mine, 'relay_other', past, later)).toBeUndefined();
    expect(await claimOutbox(nodeA.bffSql, theirs, 'relay_other', past, later)).toBeDefined();
    await releaseOutbox(nodeA.bffSql, mine, 'relay_mine');
    await releaseOutbox(nodeA.bffSql, theirs, 'relay_other');
  });

  it('holds the site-key limit across nodes: 20 requests an hour per address in all, the 21st refused on either node', async () => {
    // A fresh address for this test: the limit counts per client address, and node A's own tests used 127.0.0.1.
    const statuses: number[] = [];
    for (let index = 0; index < 20; index++) {
      statuses.push(
        (await request(`${(index % 2 ? nodeB : nodeA).url}/v1/widget-sessions`, { token: DEMO_SITE_KEY, body: {} }))
          .status,
      );
    }
    // The tests before made three site-key requests from this address already.
    expect(statuses.filter((status) => status === 201)).toHaveLength(17);
    for (const node of [nodeA, nodeB]) {
      const refused = await request(`${node.url}/v1/widget-sessions`, { token: DEMO_SITE_KEY, body: {} });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
