import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawCable, type RawCable } from '../../test/cable-client.ts';
import { DRIVERS, request, startBffAndEngine, type BffNode, type TestStack } from '../../test/stack.ts';

/**
 * `/cable` on two BFF nodes sharing PostgreSQL and Redis (the machine's real ones): a push
 * published on one node reaches a client connected to the other, through the Socket.IO adapter;
 * a node that stops tells its clients to reconnect, and what they missed is in the Client API.
 */
const REDIS_URL = process.env['REDIS_TEST_URL'] ?? 'redis://127.0.0.1:6379';

describe('/cable on two BFF nodes sharing PostgreSQL and Redis', () => {
  let nodeA: TestStack;
  let nodeB: BffNode | undefined;
  const cables: RawCable[] = [];

  beforeAll(async () => {
    nodeA = await startBffAndEngine({
      driver: DRIVERS[1],
      env: { REDIS_URL, SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc', FEED_POLL_MS: '500' },
    });
    nodeB = await nodeA.startAnotherNode();
  });
  afterAll(async () => {
    for (const cable of cables) cable.close();
    await nodeB?.stop();
    await nodeA?.stop();
  });

  it('carries a message sent through node A to the contact’s /cable client on node B, once; a stopping node says server_restart and the client finds what it missed', async () => {
    const base = `${nodeA.url}/public/api/v1/inboxes/${nodeA.inboxIdentifier}`;
    const contact = (await request(`${base}/contacts`, { body: { name: 'Ines' } })).body as {
      source_id: string;
      pubsub_token: string;
    };
    const conversation = (await request(`${base}/contacts/${contact.source_id}/conversations`, { body: {} })).body as {
      id: number;
    };
    const messagesUrl = (node: string) =>
      `${node}/public/api/v1/inboxes/${nodeA.inboxIdentifier}/contacts/${contact.source_id}/conversations/${conversation.id}/messages`;

    const onB = await openRawCable(nodeB!.url, ['actioncable-v1-json']);
    cables.push(onB);
    onB.subscribe(contact.pubsub_token);
    await onB.frame((frame) => frame.type === 'confirm_subscription', 'the confirmation on node B');

    const sent = await request(messagesUrl(nodeA.url), {
      body: { content: 'How do I return an item?', echo_id: 'ab-1' },
    });
    expect(sent.status).toBe(200);
    const own = await onB.event('message.created', (data) => data.id === sent.body.id, 'the message on node B');
    expect(own).toMatchObject({ echo_id: 'ab-1', message_type: 0 });
    const answer = await onB.event('message.created', (data) => data.message_type === 1, 'the answer on node B');
    expect(onB.events('message.created').filter(({ data }) => data.id === sent.body.id)).toHaveLength(1);

    // Node B stops under its client: it is told to reconnect, does so on node A, and reads by cursor what it missed.
    await nodeB!.stop();
    nodeB = undefined;
    expect(onB.frames).toContainEqual({ type: 'disconnect', reason: 'server_restart', reconnect: true });
    await onB.closed;
    const whileAway = await request(messagesUrl(nodeA.url), { body: { content: 'Is it free?', echo_id: 'ab-2' } });
    expect(whileAway.status).toBe(200);
    const onA = await openRawCable(nodeA.url);
    cables.push(onA);
    onA.subscribe(contact.pubsub_token);
    await onA.frame((frame) => frame.type === 'confirm_subscription', 'the confirmation on node A');
    const listed = await request(messagesUrl(nodeA.url));
    expect((listed.body as { id: number }[]).map((message) => message.id)).toEqual(
      expect.arrayContaining([sent.body.id, answer.id, whileAway.body.id]),
    );
  });
});
