import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, signWebhook } from '../../shared/index.ts';
import {
  DRIVERS,
  request,
  startEngine,
  startStack,
  type Driver,
  type TestEngine,
  type TestStack,
} from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { readSetting } from '../index.ts';
import {
  QUESTIONS,
  FAST_RETRIES,
  connect,
  closeSockets,
  widgetClient,
  engineIdOf,
  engineFeed,
  atEngine,
  ids,
  authors,
  byAuthor,
} from '../../test/upstream-fixture.ts';

/**
 * Engine events that reach the BFF by signed webhook and from the engine's feed, each recorded
 * once whichever way came first.
 */

describe.each(DRIVERS)('engine events by signed webhook and from the feed, on $name', (driver: Driver) => {
  const secret = `whsec_${randomToken(32)}`;
  // The BFF's clock stands still on a whole second, so the 300-second tolerance can be tested to the second.
  const bffNow = new Date(Math.floor(Date.now() / 1000) * 1000);
  const nowS = Math.floor(bffNow.getTime() / 1000);
  let engine: TestEngine;
  let stack: TestStack;
  const widget = widgetClient(
    () => stack.url,
    () => stack.siteKey,
  );

  beforeAll(async () => {
    engine = await startEngine(driver);
    stack = await startStack(
      driver,
      { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys },
      { relayRetryDelaysMs: FAST_RETRIES, feedPollMs: 0, engineWebhookSecret: secret, now: () => bffNow },
    );
  });
  afterAll(async () => {
    closeSockets();
    await stack?.stop();
    await engine?.stop();
  });

  const signedHeaders = async (body: string, at = nowS, key = secret) => ({
    'x-service-timestamp': String(at),
    'x-service-signature': await signWebhook(key, at, body),
  });
  const postWebhook = (body: string, headers: Record<string, string>) =>
    request(`${stack.url}/v1/engine-webhooks`, { rawBody: body, headers });
  const seen = async (eventId: string) =>
    (await stack.bffSql.query('SELECT 1 FROM engine_events_seen WHERE event_id = $1', [eventId])).length > 0;

  /** A customer whose first question the AI has answered, with a tab open. */
  async function answeredCustomer() {
    const token = await widget.visitor();
    const conversationId = await widget.openConversation(token);
    const tab = await connect(stack.url, token);
    expect((await widget.send(token, conversationId, QUESTIONS[0].text, 'first')).status).toBe(201);
    await until(
      () => byAuthor(tab.created, 'ai').length,
      (count) => count === 1,
      'the first answer',
    );
    await stack.bff.relay.settled();
    return { token, conversationId, tab, engineId: await engineIdOf(stack, conversationId) };
  }

  /** The events of one conversation from the engine's feed, as its sandbox webhook endpoint would post them (with the environment). */
  const feedEventsOf = async (engineId: string, types: string[]) =>
    (await engineFeed(engine))
      .filter((event) => event.conversation_id === engineId && types.includes(event.type))
      .map((event) => ({ ...event, environment: 'sandbox' }));

  it("stores a signed webhook's event as exactly one message, pushed once; the same webhook again and the feed add nothing", async () => {
    const { token, conversationId, tab, engineId } = await answeredCustomer();
    await atEngine(engine, engineId, 'handover', { reason: 'the customer asked for a person' });
    await atEngine(engine, engineId, 'human-messages', {
      text: "Hi, I'm Sam from the team. I'll look into it.",
      author_name: 'Sam',
    });
    const events = await feedEventsOf(engineId, ['conversation.handover', 'conversation.human_message']);
    expect(events.map((event) => event.type)).toEqual(['conversation.handover', 'conversation.human_message']);
    const bodies = events.map((event) => JSON.stringify(event));

    for (const body of bodies) {
      const delivered = await postWebhook(body, await signedHeaders(body));
      expect(delivered.status).toBe(200);
      expect(delivered.body).toEqual({ received: true });
    }
    await tab.barrier(conversationId);
    const pushed = [...tab.created];
    expect(authors(pushed)).toEqual(['customer', 'ai', 'system', 'human']);
    expect(pushed[3]).toMatchObject({
      author: 'human',
      author_name: 'Sam',
      text: "Hi, I'm Sam from the team. I'll look into it.",
    });
    expect((await request(`${stack.url}/v1/widget/conversations/${conversationId}`, { token })).body.handled_by).toBe(
      'human',
    );

    // The engine delivers again (a retry after a lost answer), and the feed carries the same events.
    for (const body of bodies) {
      const again = await postWebhook(body, await signedHeaders(body));
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ received: true });
    }
    await stack.bff.feed.catchUp();
    await tab.barrier(conversationId);

    expect(tab.created).toEqual(pushed);
    const stored = await widget.messages(token, conversationId);
    expect(ids(stored)).toEqual(ids(pushed));
    expect(byAuthor(stored, 'human')).toHaveLength(1);
    expect(byAuthor(stored, 'system')).toHaveLength(1);
  });

  it('refuses webhooks that are not genuine with 401 and stores nothing; broken JSON with a good signature is a 400', async () => {
    const { token, conversationId, tab, engineId } = await answeredCustomer();
    await atEngine(engine, engineId, 'handover');
    const [handover] = await feedEventsOf(engineId, ['conversation.handover']);
    const handoverBody = JSON.stringify(handover);
    expect((await postWebhook(handoverBody, await signedHeaders(handoverBody))).status).toBe(200);
    await atEngine(engine, engineId, 'human-messages', { text: 'A person answers here.', author_name: 'Kim' });
    const [event] = await feedEventsOf(engineId, ['conversation.human_message']);
    const body = JSON.stringify(event);
    const reserialised = JSON.stringify(event, null, 2);
    await tab.barrier(conversationId);
    const before = await widget.messages(token, conversationId);
    const pushedBefore = tab.created.length;

    const good = await signedHeaders(body);
    const cases: [string, string, Record<string, string>][] = [
      ['signed with another secret', body, await signedHeaders(body, nowS, `whsec_${randomToken(32)}`)],
      // A receiver that checked a re-serialisation of the parsed body, not the raw bytes, would take this one.
      ['the body re-serialised after signing', reserialised, good],
      ['a signature over a re-serialised body', body, await signedHeaders(reserialised)],
      ['a timestamp 301 s old', body, await signedHeaders(body, nowS - 301)],
      ['a timestamp 301 s ahead', body, await signedHeaders(body, nowS + 301)],
      ['a malformed signature', body, { ...good, 'x-service-signature': 'sha256=not-hex' }],
      ['no timestamp', body, { 'x-service-signature': good['x-service-signature'] }],
      ['no signature', body, { 'x-service-timestamp': good['x-service-timestamp'] }],
      ['no headers', body, {}],
    ];
    for (const [name, sentBody, headers] of cases) {
      const refused = await postWebhook(sentBody, headers);
      expect({ name, status: refused.status, code: refused.body?.error?.code }).toEqual({
        name,
        status: 401,
        code: 'unauthorized',
      });
    }

    const broken = '{"id": "evt_';
    const invalid = await postWebhook(broken, await signedHeaders(broken));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_json');

    // Genuinely signed, but naming the other environment: a sandbox conversation takes nothing from a live endpoint.
    const otherEnvironment = JSON.stringify({ ...event, environment: 'live' });
    expect((await postWebhook(otherEnvironment, await signedHeaders(otherEnvironment))).status).toBe(200);

    await tab.barrier(conversationId);
    expect(tab.created).toHaveLength(pushedBefore);
    expect(await widget.messages(token, conversationId)).toEqual(before);
    expect(await seen(event!.id)).toBe(false);

    // The same bytes, genuinely signed 300 s ago (the edge of the tolerance), are taken, once.
    const accepted = await postWebhook(body, await signedHeaders(body, nowS - 300));
    expect(accepted.status).toBe(200);
    await tab.barrier(conversationId);
    expect(tab.created.slice(pushedBefore).map((message) => [message.author, message.text])).toEqual([
      ['human', 'A person answers here.'],
    ]);
    expect(await widget.messages(token, conversationId)).toHaveLength(before.length + 1);
  });

  it('brings an event only the feed carries to the widget, keeps its cursor, and reads nothing twice', async () => {
    const { token, conversationId, tab, engineId } = await answeredCustomer();
    await stack.bff.feed.catchUp();
    await tab.barrier(conversationId);
    const pushedBefore = tab.created.length;

    // A person answers at the engine: the BFF hears of it only through the feed.
    await atEngine(engine, engineId, 'handover');
    await atEngine(engine, engineId, 'human-messages', { text: 'Your parcel is on its way.', author_name: 'Alex' });
    await tab.barrier(conversationId);
    expect(tab.created).toHaveLength(pushedBefore);
    expect(await widget.messages(token, conversationId)).toHaveLength(2);

    await stack.bff.feed.catchUp();
    await tab.barrier(conversationId);
    expect(tab.created.slice(pushedBefore).map((message) => [message.author, message.text])).toEqual([
      ['system', expect.stringContaining('person')],
      ['human', 'Your parcel is on its way.'],
    ]);
    const feed = await engineFeed(engine);
    const cursor = await readSetting(stack.bffSql, 'engine_feed_cursor_sandbox');
    expect(cursor).toBe(feed.at(-1)!.id);

    // A second catch-up starts after the cursor: there is nothing after it, and nothing changes.
    const after = await request(`${engine.url}/v1/events?after=${cursor}`, { token: engine.apiKey });
    expect(after.body.events).toEqual([]);
    const stored = await widget.messages(token, conversationId);
    await stack.bff.feed.catchUp();
    await tab.barrier(conversationId);
    expect(tab.created).toHaveLength(pushedBefore + 2);
    expect(await widget.messages(token, conversationId)).toEqual(stored);
    expect(await readSetting(stack.bffSql, 'engine_feed_cursor_sandbox')).toBe(cursor);

    // The next event moves the cursor on by exactly that one.
    const [next] = await atEngine(engine, engineId, 'human-messages', {
      text: 'It arrives tomorrow.',
      author_name: 'Alex',
    });
    await stack.bff.feed.catchUp();
    await tab.barrier(conversationId);
    expect(tab.created.slice(pushedBefore + 2).map((message) => message.text)).toEqual(['It arrives tomorrow.']);
    expect(await readSetting(stack.bffSql, 'engine_feed_cursor_sandbox')).toBe(next!.id);
    expect(await widget.messages(token, conversationId)).toHaveLength(stored.length + 1);
  });
});
