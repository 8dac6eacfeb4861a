import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startBffAndEngine, type BffNode, type TestStack } from '../../test/stack.ts';
import { MESSAGE_LIMITS } from './message-limits.ts';

const REDIS_URL = process.env['REDIS_TEST_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * The per-address limit of new messages (issue 26) holds for a site served by two BFF nodes on one
 * PostgreSQL and one Redis (the machine's real ones): the count is in Redis, so an address that
 * spreads its visitors over the nodes gets no more than from one. One trusted proxy in front (the
 * load balancer) names the client; both nodes run on one clock, frozen a second into a minute.
 */
describe('new messages a minute from one address, over two BFF nodes', () => {
  let nodeA: TestStack;
  let nodeB: BffNode;
  const frozenAt = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
  const now = () => new Date(frozenAt);

  beforeAll(async () => {
    const bff = { now, feedPollMs: 0 };
    nodeA = await startBffAndEngine({
      driver: DRIVERS[1],
      env: { REDIS_URL, SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc', TRUST_PROXY_HOPS: '1' },
      bff,
    });
    nodeB = await nodeA.startAnotherNode(bff);
  }, 120_000);
  afterAll(async () => {
    await nodeB?.stop();
    await nodeA?.stop();
  });

  it(
    `lets an address whose visitors alternate between the nodes send ${MESSAGE_LIMITS.perAddressPerMinute} new messages a minute in all, not that many on each`,
    { timeout: 120_000 },
    async () => {
      const limit = MESSAGE_LIMITS.perAddressPerMinute;
      const headers = { 'x-forwarded-for': `192.0.2.${randomInt(1, 255)}` };
      const nodes = [nodeA, nodeB];
      // Four visitors, two made on each node, 20 messages each, sent through both nodes in turn.
      const visitors = await Promise.all(
        [0, 1, 2, 3].map(async (index) => {
          const node = nodes[index % 2]!;
          const session = await request(`${node.url}/v1/widget-sessions`, { token: node.siteKey, body: {}, headers });
          expect(session.status, JSON.stringify(session.body)).toBe(201);
          const opened = await request(`${node.url}/v1/widget/conversations`, {
            token: session.body.token,
            body: {},
            headers,
          });
          expect(opened.status).toBe(201);
          return { token: session.body.token as string, id: opened.body.id as string };
        }),
      );
      const statuses: number[] = [];
      let sent = 0;
      for (let round = 0; round < 20; round++) {
        for (const visitor of visitors) {
          const node = nodes[sent++ % 2]!;
          const answer = await request(`${node.url}/v1/widget/conversations/${visitor.id}/messages`, {
            token: visitor.token,
            body: { text: `message ${sent}`, message_id: `m-${sent}` },
            headers,
          });
          statuses.push(answer.status);
          if (answer.status === 429) expect(answer.body.error.code).toBe('rate_limited');
        }
      }
      expect(statuses).toEqual([...Array(limit).fill(201), ...Array(80 - limit).fill(429)]);
      const [row] = await nodeA.bffSql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = ANY($1) AND m.author = 'customer'",
        [visitors.map((visitor) => visitor.id)],
      );
      expect(row!.n).toBe(limit);
    },
  );
});
