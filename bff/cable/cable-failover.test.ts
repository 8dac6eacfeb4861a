import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { adapters, createConsumer, type Consumer } from '@rails/actioncable';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { User } from '../../shared/schemas/helpdesk/index.ts';
import { openRawCable, type RawCable } from '../../test/cable-client.ts';
import { desk } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startBffAndEngine, type BffNode, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';

/**
 * `/cable` for a person (Chatwoot's agents) and a contact on two BFF nodes sharing PostgreSQL and
 * Redis (the machine's real ones): a person's push published on one node reaches their client on
 * the other; and a node that dies under connected clients — no `disconnect` frame, the connection
 * just drops — leaves Rails' own client to reconnect by itself, through the site's balancer, to the
 * node left, and to fetch what it missed by cursor. (bff/cable/cable-nodes.test.ts stops a node
 * politely: `server_restart`.)
 */
const REDIS_URL = process.env['REDIS_TEST_URL'] ?? 'redis://127.0.0.1:6379';

Object.assign(globalThis, {
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  document: { visibilityState: 'visible' },
});
adapters.WebSocket = WebSocket;

/**
 * The site's TCP balancer in front of the nodes: a new connection goes to the node it points at;
 * `kill` drops every connection it carries at once, as a node that dies does.
 */
async function startBalancer(target: string) {
  const piped = new Set<Socket>();
  let port = Number(new URL(target).port);
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      piped.add(socket);
      socket.on('close', () => piped.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const kill = () => {
    for (const socket of piped) socket.destroy();
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pointAt: (node: string) => void (port = Number(new URL(node).port)),
    kill,
    close: () => {
      kill();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('/cable for a person and a contact on two BFF nodes, one of which dies', () => {
  let nodeA: TestStack;
  let nodeB: BffNode | undefined;
  let admin: User;
  const cables: RawCable[] = [];
  const consumers: Consumer[] = [];

  beforeAll(async () => {
    nodeA = await startBffAndEngine({
      driver: DRIVERS[1],
      env: { REDIS_URL, SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc', FEED_POLL_MS: '500' },
    });
    nodeB = await nodeA.startAnotherNode();
    const platform = (path: string, body: unknown) =>
      desk(`${nodeA.url}/platform/api/v1${path}`, nodeA.newPlatformToken, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@nodes.example' })).body);
    await platform(`/accounts/${nodeA.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
  });
  afterAll(async () => {
    for (const cable of cables) cable.close();
    for (const consumer of consumers) consumer.disconnect();
    await nodeB?.stop();
    await nodeA?.stop();
  });

  const personParams = () => ({
    channel: 'RoomChannel',
    pubsub_token: admin.pubsub_token,
    account_id: nodeA.accountId,
    user_id: admin.id,
  });
  async function contactWithConversation(name: string) {
    const base = `${nodeA.url}/public/api/v1/inboxes/${nodeA.inboxIdentifier}`;
    const contact = (await request(`${base}/contacts`, { body: { name } })).body as {
      source_id: string;
      pubsub_token: string;
    };
    const conversation = (await request(`${base}/contacts/${contact.source_id}/conversations`, { body: {} })).body as {
      id: number;
      uuid: string;
    };
    const [row] = await nodeA.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [
      conversation.uuid,
    ]);
    const url = `${base}/contacts/${contact.source_id}/conversations/${conversation.id}/messages`;
    return { contact, number: row!.id, url };
  }

  it("carries a message sent through node A to a person's /cable client on node B, once, with the AI's answer", async () => {
    expect(admin.pubsub_token).toMatch(/^[0-9a-f]{64}$/);
    const onB = await openRawCable(nodeB!.url, ['actioncable-v1-json']);
    cables.push(onB);
    onB.send({ command: 'subscribe', identifier: JSON.stringify(personParams()) });
    await onB.frame((frame) => frame.type === 'confirm_subscription', "the person's confirmation on node B");

    const { number, url } = await contactWithConversation('Ines');
    await onB.event('conversation.created', (data) => data.id === number, 'conversation.created on node B');
    const sent = await request(url, { body: { content: 'How do I return an item?', echo_id: 'p-ab-1' } });
    expect(sent.status).toBe(200);
    const own = await onB.event('message.created', (data) => data.id === sent.body.id, 'the message on node B');
    expect(own).toMatchObject({ echo_id: 'p-ab-1', message_type: 0, conversation_id: number });
    await onB.event(
      'message.created',
      (data) => data.conversation_id === number && data.message_type === 1,
      "the AI's answer on node B",
    );
    expect(onB.events('message.created').filter(({ data }) => data.id === sent.body.id)).toHaveLength(1);
  });

  it("reconnects Rails' client of a person and of a contact to node A when node B dies under them, and they fetch what they missed", async () => {
    const balancer = await startBalancer(nodeB!.url);
    const { contact, number, url } = await contactWithConversation('Noor');
    const subscribe = (params: object) => {
      const consumer = createConsumer(`${balancer.url.replace(/^http/, 'ws')}/cable`);
      consumers.push(consumer);
      const seen = { connected: 0, disconnected: 0, received: [] as any[] };
      consumer.subscriptions.create(params, {
        connected: () => void seen.connected++,
        disconnected: () => void seen.disconnected++,
        received: (data) => void seen.received.push(data),
      });
      return seen;
    };
    const person = subscribe(personParams());
    const contactClient = subscribe({ channel: 'RoomChannel', pubsub_token: contact.pubsub_token });
    await until(
      () => person.connected + contactClient.connected,
      (count) => count === 2,
      'both connected on node B',
    );
    const created = (seen: { received: any[] }, id: number) =>
      seen.received.some((data) => data.event === 'message.created' && data.data.id === id);

    const before = await request(url, { body: { content: 'Hello?' } });
    await until(() => created(person, before.body.id) && created(contactClient, before.body.id), Boolean, 'Hello?');

    // Node B dies: its connections drop without a word, and the balancer sends newcomers to node A.
    balancer.pointAt(nodeA.url);
    balancer.kill();
    await nodeB!.stop();
    nodeB = undefined;
    await until(
      () => person.disconnected + contactClient.disconnected,
      (count) => count === 2,
      'both disconnected',
    );
    const whileAway = await request(url, { body: { content: 'Is anyone there?', echo_id: 'p-away' } });
    expect(whileAway.status).toBe(200);

    // Rails' ConnectionMonitor finds the connection stale (no ping for 6 s) and opens it again.
    await until(
      () => person.connected + contactClient.connected,
      (count) => count === 4,
      'both reconnected',
      45_000,
    );
    const after = await request(url, { body: { content: 'Back again', echo_id: 'p-back' } });
    await until(() => created(person, after.body.id) && created(contactClient, after.body.id), Boolean, 'live again');

    // What came while away: the contact pages back from the latest messages with before=<id> to the last it saw,
    // the person reads the conversation; both find it.
    const seenIds = (seen: { received: any[] }) =>
      new Set(seen.received.filter((data) => data.event === 'message.created').map((data) => data.data.id));
    const missedByContact = await fetchBackTo(url, before.body.id);
    expect(missedByContact.map((message) => message.id)).toContain(whileAway.body.id);
    expect(missedByContact.filter((message) => !seenIds(contactClient).has(message.id)).length).toBeGreaterThan(0);
    const desked = await desk(
      `${nodeA.url}/api/v1/accounts/${nodeA.accountId}/conversations/${number}/messages`,
      admin.access_token,
    );
    expect(desked.status).toBe(200);
    expect((desked.body.payload as { id: number }[]).map((message) => message.id)).toEqual(
      expect.arrayContaining([before.body.id, whileAway.body.id, after.body.id]),
    );
    for (const consumer of consumers.splice(0)) consumer.disconnect();
    await balancer.close();
  }, 90_000);
});

/** A Client API reader's catch-up: the latest page, then `before=<oldest>` until it reaches `lastSeen`; gives what is newer. */
async function fetchBackTo(url: string, lastSeen: number): Promise<{ id: number }[]> {
  const found: { id: number }[] = [];
  for (let before: number | undefined; ;) {
    const page = (await request(before === undefined ? url : `${url}?before=${before}`)).body as { id: number }[];
    found.unshift(...page.filter((message) => message.id > lastSeen));
    if (page.length === 0 || page.some((message) => message.id <= lastSeen)) return found;
    before = page[0]!.id;
  }
}
