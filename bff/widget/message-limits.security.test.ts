import { randomInt } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/index.ts';
import { engineConversationOf, request, startStack, type TestStack } from '../../test/stack.ts';
import { expectDeskError } from '../../test/client-api-fixture.ts';
import { MESSAGE_LIMITS } from './message-limits.ts';

type Response = Awaited<ReturnType<typeof request>>;

/** An IPv4 client address of its own (documentation and private ranges are all one to the BFF). */
const newAddress = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;
/** A /64 of its own, and an address in it: the same network with many addresses (RFC 8981). */
const newNetwork = () => `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}`;
const inNetwork = (network: string) =>
  `${network}:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}::${randomInt(1, 0xffff).toString(16)}`;

/**
 * Issue 26: one client address opened 20 visitor sessions (the site-key limit allows 20 an hour)
 * and sent 30 messages a minute in each, 600 a minute to the AI, twice the engine's default live
 * quota. New messages are now also counted per client address and inbox (an IPv6 client by its
 * /64): 60 a minute by default, from visitors and unproved Client API contacts together. One
 * trusted proxy is in front (X-Forwarded-For names the client); the BFF's clock is frozen a second
 * into a minute, so that a test's messages fall in one window, and each test sends from addresses
 * of its own.
 */
describe('new messages a minute from one client address', () => {
  const PER_ADDRESS = MESSAGE_LIMITS.perAddressPerMinute;
  let stack: TestStack;
  const clock: { frozenAt: number | undefined } = { frozenAt: undefined };
  const now = () => new Date(clock.frozenAt ?? Date.now());

  beforeAll(async () => {
    // The real per-address default (test stacks lift it for every other test).
    stack = await startStack(
      undefined,
      {},
      { now, trustProxyHops: 1, messageLimits: { perAddressPerMinute: PER_ADDRESS } },
    );
  });
  afterAll(() => stack?.stop());
  beforeEach(() => {
    clock.frozenAt = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
  });
  afterEach(() => {
    clock.frozenAt = undefined;
  });

  const from = (address: string) => ({ 'x-forwarded-for': address });

  /** A visitor of the demo inbox whose every request comes from `address`, with a conversation open. */
  async function visitorFrom(address: string, token?: string) {
    if (!token) {
      const session = await request(`${stack.url}/v1/widget-sessions`, {
        token: stack.siteKey,
        body: {},
        headers: from(address),
      });
      expect(session.status).toBe(201);
      token = session.body.token as string;
    }
    const opened = await request(`${stack.url}/v1/widget/conversations`, { token, body: {}, headers: from(address) });
    expect(opened.status).toBe(201);
    const id = opened.body.id as string;
    const send = (text: string, messageId = `m-${randomToken(12)}`) =>
      request(`${stack.url}/v1/widget/conversations/${id}/messages`, {
        token,
        body: { text, message_id: messageId },
        headers: from(address),
      });
    return { id, send };
  }

  /** The customer's messages the BFF keeps in these conversations (what the relay may forward). */
  async function kept(conversations: readonly string[]): Promise<string[]> {
    const rows = await stack.bffSql.query<{ text: string }>(
      "SELECT m.text FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = ANY($1) AND m.author = 'customer'",
      [conversations],
    );
    return rows.map((row) => row.text);
  }

  /** What the engine was told by the customers of these conversations. */
  async function atTheEngine(conversations: readonly string[]): Promise<string[]> {
    await stack.bff.relay.settled();
    const turns = await Promise.all(
      conversations.map(async (uuid) => {
        const transcript = await request(
          `${stack.engineUrl}/v1/conversations/${await engineConversationOf(stack, uuid)}/transcript`,
          { token: stack.apiKey },
        );
        return (transcript.body.turns as { role: string; text: string }[])
          .filter((turn) => turn.role === 'customer')
          .map((turn) => turn.text);
      }),
    );
    return turns.flat();
  }

  function expectLimited(response: Response): void {
    expect(response.status, JSON.stringify(response.body)).toBe(429);
    expect(response.body.error.code).toBe('rate_limited');
    // The seconds to the end of the frozen minute, as the per-customer limit says them.
    expect(response.headers.get('retry-after')).toBe('59');
  }

  it(
    `lets one address with many visitor sessions send the AI ${MESSAGE_LIMITS.perAddressPerMinute} new messages a minute: the rest are 429, kept nowhere and never at the engine, while other addresses are served`,
    { timeout: 120_000 },
    async () => {
      expect(PER_ADDRESS).toBe(60);
      const attacker = newAddress();
      // Four visitors, 20 messages each: every one within its own 30 a minute, 80 from the address.
      const visitors = await Promise.all([1, 2, 3, 4].map(() => visitorFrom(attacker)));
      const answers: Response[] = [];
      for (let round = 0; round < 20; round++) {
        for (const [index, visitor] of visitors.entries())
          answers.push(await visitor.send(`visitor ${index} message ${round}`));
      }
      expect(answers.slice(0, PER_ADDRESS).map((answer) => answer.status)).toEqual(Array(PER_ADDRESS).fill(201));
      for (const answer of answers.slice(PER_ADDRESS)) expectLimited(answer);

      // A visitor from elsewhere is served meanwhile; a new visitor from the attacker's address is not.
      const neighbour = await visitorFrom(newAddress());
      expect((await neighbour.send('How do I return an item?')).status).toBe(201);
      const another = await visitorFrom(attacker);
      expectLimited(await another.send('one more voice'));

      // A verified customer's session is made by the shop's server: it is not counted by address.
      const verified = await request(`${stack.url}/v1/widget-sessions`, {
        token: stack.apiKey,
        body: { customer_ref: `cust-${randomToken(8)}` },
      });
      expect(verified.status).toBe(201);
      const customer = await visitorFrom(attacker, verified.body.token as string);
      expect((await customer.send('Where is my order?')).status).toBe(201);

      // A retry of a message already kept is not a new one, and is answered as before.
      const first = answers[0]!.body as { message_id: string; text: string };
      expect((await visitors[0]!.send(first.text, first.message_id)).status).toBe(200);

      const conversations = visitors.map((visitor) => visitor.id);
      const accepted = answers.slice(0, PER_ADDRESS).map((answer) => answer.body.text as string);
      expect((await kept(conversations)).sort()).toEqual([...accepted].sort());
      expect(await kept([another.id])).toEqual([]);
      expect((await atTheEngine(conversations)).sort()).toEqual([...accepted].sort());

      // The next minute the address is served again.
      clock.frozenAt! += 60_000;
      expect((await another.send('a new minute')).status).toBe(201);
    },
  );

  it('counts the addresses of one IPv6 /64 as one client, and another /64 apart', async () => {
    const network = newNetwork();
    // Three visitors, each from an address of its own in the network, 21 messages each: 63.
    const visitors = await Promise.all([1, 2, 3].map(() => visitorFrom(inNetwork(network))));
    const statuses: number[] = [];
    for (let round = 0; round < 21; round++)
      for (const visitor of visitors) statuses.push((await visitor.send(`round ${round}`)).status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(PER_ADDRESS);
    expect(statuses.slice(PER_ADDRESS)).toEqual([429, 429, 429]);
    expectLimited(await (await visitorFrom(inNetwork(network))).send('a fresh address of the same network'));
    expect((await (await visitorFrom(inNetwork(newNetwork()))).send('another network')).status).toBe(201);
  });

  it('holds the Client API to the same count: unproved contacts from one address get 429 in the bad_request_error shape, and nothing is kept', async () => {
    const base = `${stack.url}/public/api/v1/inboxes/${stack.inboxIdentifier}`;
    const address = newAddress();
    const contacts = await Promise.all(
      [1, 2, 3].map(async () => {
        const contact = await request(`${base}/contacts`, { body: {}, headers: from(address) });
        expect(contact.status).toBe(200);
        const source = contact.body.source_id as string;
        const conversation = await request(`${base}/contacts/${source}/conversations`, {
          body: {},
          headers: from(address),
        });
        expect(conversation.status).toBe(200);
        return {
          url: `${base}/contacts/${source}/conversations/${conversation.body.id}/messages`,
          uuid: conversation.body.uuid as string,
        };
      }),
    );
    const answers: Response[] = [];
    for (let round = 0; round < 21; round++) {
      for (const contact of contacts)
        answers.push(
          await request(contact.url, { body: { content: `contact round ${round}` }, headers: from(address) }),
        );
    }
    expect(answers.slice(0, PER_ADDRESS).map((answer) => answer.status)).toEqual(Array(PER_ADDRESS).fill(200));
    for (const answer of answers.slice(PER_ADDRESS)) {
      expectDeskError(answer, 429, 'rate_limited');
      expect(answer.headers.get('retry-after')).toBe('59');
    }
    expect(await kept(contacts.map((contact) => contact.uuid))).toHaveLength(PER_ADDRESS);
    // The widget's visitors from the same address share the count: the address has had its minute.
    expectLimited(await (await visitorFrom(address)).send('and from the widget'));
  });
});
