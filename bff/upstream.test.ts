import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { randomToken, signWebhook, WIDGET_NAMESPACE, type EngineEvent, type MessageUpdate, type WidgetMessage } from '../shared/index.ts';
import { parseSessionKeys, SessionTokens } from '../shared/server/index.ts';
import { closeServer, DRIVERS, logger, request, startEngine, startStack, type Driver, type TestEngine, type TestStack } from '../test/stack.ts';
import { until } from '../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../test/widget-client.ts';
import { createBff, EngineClient, readSetting, type Bff } from './index.ts';

/**
 * The BFF's way up to the engine, on a real engine that goes away, slows the BFF down, refuses,
 * and pushes events by webhook and through its feed. Nothing a customer sends may be lost or doubled.
 */

const QUESTIONS = [
  { text: 'How do I return an item?', answer: 'within 30 days of delivery' },
  { text: 'Do you ship abroad?', answer: 'Norway' },
  { text: 'Which payment methods do you accept?', answer: 'PayPal' },
  { text: 'How do I reset my password?', answer: 'Forgot password' },
] as const;

const FAST_RETRIES = [100, 200, 500] as const;

/** One browser tab of a customer: what the BFF pushed to it. */
interface Tab {
  socket: Socket;
  created: WidgetMessage[];
  updated: MessageUpdate[];
  /** Resolves once everything the BFF pushed to this tab before now has arrived (a round trip on the same socket). */
  barrier(conversationId: string): Promise<void>;
}

const sockets: Socket[] = [];

function connect(baseUrl: string, token: string): Promise<Tab> {
  const socket = io(baseUrl + WIDGET_NAMESPACE, { auth: { token }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  const tab: Tab = {
    socket,
    created: [],
    updated: [],
    async barrier(conversationId) {
      const ack = (await socket.timeout(5_000).emitWithAck('read:mark', { conversation_id: conversationId, last_read_id: 0 })) as { ok: boolean };
      expect(ack.ok).toBe(true);
    },
  };
  socket.on('message:created', (message: WidgetMessage) => tab.created.push(message));
  socket.on('message:updated', (update: MessageUpdate) => tab.updated.push(update));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(tab));
    socket.once('connect_error', reject);
  });
}

function closeSockets(): void {
  for (const socket of sockets.splice(0)) socket.close();
}

/** The widget's side of a stack: sessions, conversations, messages, as the widget calls them. */
function widgetClient(baseUrl: () => string, siteKey: () => string) {
  return {
    visitor: async (): Promise<string> => (await newVisitor(baseUrl(), siteKey())).token,
    openConversation: async (token: string): Promise<string> => (await openWidgetConversation(baseUrl(), token)).id,
    send: (token: string, conversationId: string, text: string, messageId: string) => sendWidgetMessage(baseUrl(), token, conversationId, text, messageId),
    async messages(token: string, conversationId: string, url = baseUrl()): Promise<WidgetMessage[]> {
      const response = await request(`${url}/v1/widget/conversations/${conversationId}/messages`, { token });
      expect(response.status).toBe(200);
      return response.body.messages as WidgetMessage[];
    },
  };
}

/** The message_ids of a conversation's customer messages that wait in the BFF's outbox. */
async function pendingOf(stack: TestStack, conversationId: string): Promise<string[]> {
  const rows = await stack.bffSql.query<{ message_id: string }>(
    "SELECT m.message_id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.upstream = 'pending' ORDER BY m.id",
    [conversationId],
  );
  return rows.map((row) => row.message_id);
}

async function engineIdOf(stack: TestStack, conversationId: string): Promise<string> {
  const [row] = await stack.bffSql.query<{ engine_conversation_id: string | null }>('SELECT engine_conversation_id FROM conversations WHERE uuid = $1', [conversationId]);
  if (!row?.engine_conversation_id) throw new Error(`conversation ${conversationId} has no engine conversation yet`);
  return row.engine_conversation_id;
}

/** What the engine itself received from the customer, in order. */
async function customerTurns(engine: TestEngine, engineId: string): Promise<string[]> {
  const transcript = await request(`${engine.url}/v1/conversations/${engineId}/transcript`, { token: engine.apiKey });
  expect(transcript.status).toBe(200);
  return (transcript.body.turns as { role: string; text: string }[]).filter((turn) => turn.role === 'customer').map((turn) => turn.text);
}

/** The engine's whole event feed, oldest first. */
async function engineFeed(engine: TestEngine): Promise<EngineEvent[]> {
  const events: EngineEvent[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await request(`${engine.url}/v1/events?limit=1000${after ? `&after=${after}` : ''}`, { token: engine.apiKey });
    expect(page.status).toBe(200);
    events.push(...(page.body.events as EngineEvent[]));
    if (!page.body.has_more) return events;
    after = page.body.next as string;
  }
}

/** A move made at the engine directly, as the helpdesk would; the BFF is not told. */
async function atEngine(engine: TestEngine, engineId: string, move: 'handover' | 'human-messages' | 'close', body: object = {}): Promise<EngineEvent[]> {
  const response = await request(`${engine.url}/v1/conversations/${engineId}/${move}`, { token: engine.apiKey, body });
  expect(response.status).toBe(200);
  return response.body.events as EngineEvent[];
}

const ids = (messages: readonly WidgetMessage[]) => messages.map((message) => message.id);
const authors = (messages: readonly WidgetMessage[]) => messages.map((message) => message.author);
const byAuthor = (messages: readonly WidgetMessage[], author: WidgetMessage['author']) => messages.filter((message) => message.author === author);
const statusesOf = (updates: readonly MessageUpdate[], id: number) => updates.filter((update) => update.id === id).map((update) => update.status);

describe.each(DRIVERS)('the BFF when the engine goes away or refuses, on $name', (driver: Driver) => {
  let engine: TestEngine;
  let stack: TestStack;
  const widget = widgetClient(() => stack.url, () => stack.siteKey);

  beforeAll(async () => {
    engine = await startEngine(driver);
    stack = await startStack(driver, { AI_API_URL: engine.url, AI_API_KEY: engine.apiKey }, { relayRetryDelaysMs: FAST_RETRIES, feedPollMs: 0 });
  });
  // A test that fails while the engine is down must not leave it down for the next one.
  afterEach(() => engine.resume());
  afterAll(async () => {
    closeSockets();
    await stack?.stop();
    await engine?.stop();
  });

  it('keeps what the customer sends while the engine is down for 10 s, then forwards each message once and in order, and answers each once', { timeout: 60_000 }, async () => {
    const token = await widget.visitor();
    const conversationId = await widget.openConversation(token);
    const tab = await connect(stack.url, token);
    const messageIds = QUESTIONS.map((_, index) => `q${index}-${randomUUID()}`);
    const [a, ...later] = QUESTIONS.map((question, index) => ({ ...question, messageId: messageIds[index]! }));

    expect((await widget.send(token, conversationId, a!.text, a!.messageId)).status).toBe(201);
    await until(() => byAuthor(tab.created, 'ai').length, (count) => count === 1, 'the answer to the first question');
    await stack.bff.relay.settled();

    await engine.pause();
    for (const question of later) {
      const sent = await widget.send(token, conversationId, question.text, question.messageId);
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ author: 'customer', text: question.text, message_id: question.messageId, status: 'sent' });
    }
    // The relay keeps trying in the background; the messages wait in the BFF's store.
    await until(() => stack.bff.relay.backlog, (backlog) => backlog >= 1, 'the relay to schedule a retry');
    expect(await pendingOf(stack, conversationId)).toEqual(later.map((question) => question.messageId));
    // The scenario itself: the engine stays down for 10 seconds.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const whileDown = await widget.messages(token, conversationId);
    expect(byAuthor(whileDown, 'customer').map((message) => [message.text, message.status])).toEqual([
      [a!.text, 'read'],
      ...later.map((question) => [question.text, 'sent']),
    ]);
    expect(byAuthor(whileDown, 'ai')).toHaveLength(1);

    await engine.resume();
    await until(() => byAuthor(tab.created, 'ai').length, (count) => count >= QUESTIONS.length, 'an answer to every question', 15_000);
    await until(() => stack.bff.relay.backlog, (backlog) => backlog === 0, 'the retries to run out');
    await stack.bff.relay.settled();
    // The feed carries every event again: reading it must add nothing.
    await stack.bff.feed.catchUp();
    await tab.barrier(conversationId);

    // The engine got every message exactly once, in the order written.
    expect(await customerTurns(engine, await engineIdOf(stack, conversationId))).toEqual(QUESTIONS.map((question) => question.text));

    // The connected tab got every message once: the three written while the engine was down as they were sent, then one answer to each, in order.
    expect(new Set(ids(tab.created)).size).toBe(tab.created.length);
    expect(authors(tab.created)).toEqual(['customer', 'ai', 'customer', 'customer', 'customer', 'ai', 'ai', 'ai']);
    const answers = byAuthor(tab.created, 'ai').map((message) => message.text);
    QUESTIONS.forEach((question, index) => expect(answers[index]).toContain(question.answer));

    // The widget's list has each message exactly once, the same ones the tab was pushed.
    const stored = await widget.messages(token, conversationId);
    expect(ids(stored)).toEqual([...ids(tab.created)].sort((x, y) => x - y));
    expect(stored.filter((message) => message.message_id !== null).map((message) => message.message_id)).toEqual(messageIds);
    expect(byAuthor(stored, 'customer').map((message) => message.status)).toEqual(['read', 'read', 'read', 'read']);
    // Delivered and read came in one step (the answer): one push, read.
    for (const message of byAuthor(stored, 'customer')) expect(statusesOf(tab.updated, message.id)).toEqual(['read']);
  });

  it('keeps one retry going for a conversation while the engine is down, however many of its messages wait', async () => {
    const token = await widget.visitor();
    const conversationId = await widget.openConversation(token);
    await engine.pause();
    try {
      for (const [index, question] of QUESTIONS.slice(0, 3).entries()) {
        expect((await widget.send(token, conversationId, question.text, `waiting-${index}`)).status).toBe(201);
      }
      await until(() => stack.bff.relay.backlog, (backlog) => backlog >= 1, 'the relay to schedule a retry');
      // Once no pass is running, every attempt is waiting on its timer: one conversation, one retry.
      await stack.bff.relay.settled();
      expect(stack.bff.relay.backlog).toBe(1);
    } finally {
      await engine.resume();
      await until(() => pendingOf(stack, conversationId), (waiting) => waiting.length === 0, 'the waiting messages to be forwarded', 15_000);
      await until(() => stack.bff.relay.backlog, (backlog) => backlog === 0, 'the retries to run out');
    }
  });

  it('marks a message the engine refuses for good as failed, and stops trying it', async () => {
    const token = await widget.visitor();
    const conversationId = await widget.openConversation(token);
    const tab = await connect(stack.url, token);
    expect((await widget.send(token, conversationId, QUESTIONS[0].text, 'first')).status).toBe(201);
    await until(() => byAuthor(tab.created, 'ai').length, (count) => count === 1, 'the first answer');
    await stack.bff.relay.settled();

    // Someone closes the conversation at the engine; the BFF does not know yet.
    const engineId = await engineIdOf(stack, conversationId);
    await atEngine(engine, engineId, 'close');

    const sent = await widget.send(token, conversationId, QUESTIONS[1].text, 'after-close');
    expect(sent.status).toBe(201);
    expect(sent.body.status).toBe('sent');
    await until(() => statusesOf(tab.updated, sent.body.id as number), (statuses) => statuses.length > 0, 'the verdict on the refused message');
    await stack.bff.relay.settled();
    await tab.barrier(conversationId);

    expect(statusesOf(tab.updated, sent.body.id as number)).toEqual(['failed']);
    expect(stack.bff.relay.backlog).toBe(0);
    const stored = await widget.messages(token, conversationId);
    expect(stored.map((message) => [message.author, message.status])).toEqual([
      ['customer', 'read'],
      ['ai', 'sent'],
      ['customer', 'failed'],
    ]);
    expect(await customerTurns(engine, engineId)).toEqual([QUESTIONS[0].text]);
    expect(await pendingOf(stack, conversationId)).toEqual([]);
  });

  it('refuses engine webhooks with 503 not_configured while it has no webhook secret', async () => {
    const body = JSON.stringify({ id: `evt_${randomToken(22)}`, type: 'ping', created_at: new Date().toISOString(), conversation_id: `cnv_${randomToken(22)}`, data: {} });
    const at = Math.floor(Date.now() / 1000);
    const response = await request(`${stack.url}/v1/engine-webhooks`, {
      rawBody: body,
      headers: { 'x-service-timestamp': String(at), 'x-service-signature': await signWebhook('whsec_anything', at, body) },
    });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('not_configured');
  });
});

describe.each(DRIVERS)('a BFF restarted while the engine is down, on $name', (driver: Driver) => {
  let engine: TestEngine;
  let stack: TestStack;
  let restarted: { bff: Bff; server: Server; url: string } | undefined;
  const widget = widgetClient(() => stack.url, () => stack.siteKey);

  beforeAll(async () => {
    engine = await startEngine(driver);
    stack = await startStack(driver, { AI_API_URL: engine.url, AI_API_KEY: engine.apiKey }, { relayRetryDelaysMs: FAST_RETRIES, feedPollMs: 0 });
  });
  afterAll(async () => {
    closeSockets();
    if (restarted) {
      await restarted.bff.close();
      await closeServer(restarted.server);
    }
    await stack?.stop();
    await engine?.stop();
  });

  /** A new BFF process over the same store, as after a crash or a deploy. */
  async function restartBff(): Promise<{ bff: Bff; server: Server; url: string }> {
    const sessionKeys = await readSetting(stack.bffSql, 'session_keys');
    const bff = await createBff({
      sql: stack.bffSql,
      logger,
      engine: new EngineClient({ baseUrl: engine.url, apiKey: engine.apiKey }),
      tokens: new SessionTokens(parseSessionKeys(sessionKeys!)),
      widgetAssetsDir: fileURLToPath(new URL('../dist/widget/', import.meta.url)),
      defaultInboxId: await readSetting(stack.bffSql, 'demo_inbox_id'),
      relayRetryDelaysMs: FAST_RETRIES,
      feedPollMs: 0,
    });
    const server = createServer(bff.app.callback());
    bff.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { bff, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it('forwards the messages it stored while the engine was down once the BFF has restarted and the engine is back', { timeout: 60_000 }, async () => {
    const token = await widget.visitor();
    const conversationId = await widget.openConversation(token);
    expect((await widget.send(token, conversationId, QUESTIONS[0].text, 'before')).status).toBe(201);
    await until(() => widget.messages(token, conversationId), (list) => list.length === 2, 'the first answer');
    await stack.bff.relay.settled();

    await engine.pause();
    for (const [index, question] of [QUESTIONS[1], QUESTIONS[2]].entries()) {
      const sent = await widget.send(token, conversationId, question.text, `down-${index}`);
      expect(sent.status).toBe(201);
      expect(sent.body.status).toBe('sent');
    }
    await until(() => stack.bff.relay.backlog, (backlog) => backlog >= 1, 'the relay to schedule a retry');

    // The BFF stops (its retries die with it); only the store remembers the two messages.
    await stack.bff.close();
    expect(await pendingOf(stack, conversationId)).toEqual(['down-0', 'down-1']);

    const bff = (restarted = await restartBff());
    // At start it picks the waiting work up, and keeps at it while the engine is still down.
    await until(() => bff.bff.relay.backlog, (backlog) => backlog === 1, 'the restarted relay to retry');
    const tab = await connect(bff.url, token);
    await engine.resume();
    await until(() => byAuthor(tab.created, 'ai').length, (count) => count >= 2, 'the answers after the restart');
    await bff.bff.relay.settled();
    await tab.barrier(conversationId);
    expect(bff.bff.relay.backlog).toBe(0);

    expect(await customerTurns(engine, await engineIdOf(stack, conversationId))).toEqual([QUESTIONS[0].text, QUESTIONS[1].text, QUESTIONS[2].text]);
    expect(authors(tab.created)).toEqual(['ai', 'ai']);
    expect(tab.created[0]!.text).toContain(QUESTIONS[1].answer);
    expect(tab.created[1]!.text).toContain(QUESTIONS[2].answer);
    const stored = await widget.messages(token, conversationId, bff.url);
    expect(stored.map((message) => [message.author, message.status])).toEqual([
      ['customer', 'read'],
      ['ai', 'sent'],
      ['customer', 'read'],
      ['customer', 'read'],
      ['ai', 'sent'],
      ['ai', 'sent'],
    ]);
  });
});

describe.each(DRIVERS)('the BFF when the engine answers 429, on $name', (driver: Driver) => {
  let engine: TestEngine;
  let stack: TestStack;
  // The engine's clock stands two seconds before a minute starts, so its Retry-After is 2 s.
  let engineNow = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000 - 2_000);
  const widget = widgetClient(() => stack.url, () => stack.siteKey);

  beforeAll(async () => {
    engine = await startEngine(driver, () => engineNow);
    stack = await startStack(driver, { AI_API_URL: engine.url, AI_API_KEY: engine.apiKey }, { relayRetryDelaysMs: FAST_RETRIES, feedPollMs: 0 });
  });
  afterAll(async () => {
    closeSockets();
    await stack?.stop();
    await engine?.stop();
  });

  it('retries after Retry-After with the same Idempotency-Key, and the message reaches the engine once and is answered once', { timeout: 30_000 }, async () => {
    const token = await widget.visitor();
    const conversationId = await widget.openConversation(token);
    const tab = await connect(stack.url, token);
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    expect((await widget.send(token, conversationId, QUESTIONS[0].text, a)).status).toBe(201);
    await until(() => byAuthor(tab.created, 'ai').length, (count) => count === 1, 'the first answer');
    await stack.bff.relay.settled();

    // The BFF opened the conversation and sent a message this minute: with a limit of 2, its key is spent.
    await engine.setRequestsPerMinute(2);
    const probe = await request(`${engine.url}/v1/me`, { token: engine.apiKey });
    expect(probe.status).toBe(429);
    expect(probe.headers.get('retry-after')).toBe('2');

    const started = Date.now();
    const sent = await widget.send(token, conversationId, QUESTIONS[1].text, b);
    expect(sent.status).toBe(201);
    expect(sent.body.status).toBe('sent');
    await until(() => stack.bff.relay.backlog, (backlog) => backlog === 1, 'the relay to wait for Retry-After');
    // The 429 changed nothing at the engine; the message waits in the BFF.
    expect((await widget.messages(token, conversationId)).find((message) => message.message_id === b)?.status).toBe('sent');
    // The engine's next minute begins (as it would in the 2 s the BFF now waits).
    engineNow = new Date(engineNow.getTime() + 2_000);

    await until(() => byAuthor(tab.created, 'ai').length, (count) => count >= 2, 'the answer after the retry');
    const waited = Date.now() - started;
    await stack.bff.relay.settled();
    await tab.barrier(conversationId);
    expect(stack.bff.relay.backlog).toBe(0);
    // Not retried at the BFF's own 100 ms pace: it waited the 2 s the engine asked for.
    expect(waited).toBeGreaterThanOrEqual(1_950);

    await engine.setRequestsPerMinute(100_000);
    const engineId = await engineIdOf(stack, conversationId);
    expect(await customerTurns(engine, engineId)).toEqual([QUESTIONS[0].text, QUESTIONS[1].text]);
    // One Idempotency-Key per message, each settled once: the relay's `send-<uuid>-<message_id>`.
    const keys = await engine.sql.query<{ idempotency_key: string; state: string; status: number }>(
      'SELECT idempotency_key, state, status FROM idempotency_keys WHERE route = $1 ORDER BY created_at, idempotency_key',
      [`POST /v1/conversations/${engineId}/messages`],
    );
    expect(keys).toEqual([
      { idempotency_key: `send-${conversationId}-${a}`, state: 'done', status: 200 },
      { idempotency_key: `send-${conversationId}-${b}`, state: 'done', status: 200 },
    ]);

    expect(new Set(ids(tab.created)).size).toBe(tab.created.length);
    expect(authors(tab.created)).toEqual(['customer', 'ai', 'customer', 'ai']);
    expect(tab.created[3]!.text).toContain(QUESTIONS[1].answer);
    const stored = await widget.messages(token, conversationId);
    expect(stored.map((message) => [message.author, message.status])).toEqual([
      ['customer', 'read'],
      ['ai', 'sent'],
      ['customer', 'read'],
      ['ai', 'sent'],
    ]);
    expect(statusesOf(tab.updated, sent.body.id as number)).toEqual(['read']);
  });
});

describe.each(DRIVERS)('engine events by signed webhook and from the feed, on $name', (driver: Driver) => {
  const secret = `whsec_${randomToken(32)}`;
  // The BFF's clock stands still on a whole second, so the 300-second tolerance can be tested to the second.
  const bffNow = new Date(Math.floor(Date.now() / 1000) * 1000);
  const nowS = Math.floor(bffNow.getTime() / 1000);
  let engine: TestEngine;
  let stack: TestStack;
  const widget = widgetClient(() => stack.url, () => stack.siteKey);

  beforeAll(async () => {
    engine = await startEngine(driver);
    stack = await startStack(driver, { AI_API_URL: engine.url, AI_API_KEY: engine.apiKey }, { relayRetryDelaysMs: FAST_RETRIES, feedPollMs: 0, engineWebhookSecret: secret, now: () => bffNow });
  });
  afterAll(async () => {
    closeSockets();
    await stack?.stop();
    await engine?.stop();
  });

  const signedHeaders = async (body: string, at = nowS, key = secret) => ({ 'x-service-timestamp': String(at), 'x-service-signature': await signWebhook(key, at, body) });
  const postWebhook = (body: string, headers: Record<string, string>) => request(`${stack.url}/v1/engine-webhooks`, { rawBody: body, headers });
  const seen = async (eventId: string) => (await stack.bffSql.query('SELECT 1 FROM engine_events_seen WHERE event_id = $1', [eventId])).length > 0;

  /** A customer whose first question the AI has answered, with a tab open. */
  async function answeredCustomer() {
    const token = await widget.visitor();
    const conversationId = await widget.openConversation(token);
    const tab = await connect(stack.url, token);
    expect((await widget.send(token, conversationId, QUESTIONS[0].text, 'first')).status).toBe(201);
    await until(() => byAuthor(tab.created, 'ai').length, (count) => count === 1, 'the first answer');
    await stack.bff.relay.settled();
    return { token, conversationId, tab, engineId: await engineIdOf(stack, conversationId) };
  }

  /** The events of one conversation from the engine's feed, after the ones already known. */
  const feedEventsOf = async (engineId: string, types: string[]) => (await engineFeed(engine)).filter((event) => event.conversation_id === engineId && types.includes(event.type));

  it("stores a signed webhook's event as exactly one message, pushed once; the same webhook again and the feed add nothing", async () => {
    const { token, conversationId, tab, engineId } = await answeredCustomer();
    await atEngine(engine, engineId, 'handover', { reason: 'the customer asked for a person' });
    await atEngine(engine, engineId, 'human-messages', { text: "Hi, I'm Sam from the team. I'll look into it.", author_name: 'Sam' });
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
    expect(pushed[3]).toMatchObject({ author: 'human', author_name: 'Sam', text: "Hi, I'm Sam from the team. I'll look into it." });
    expect((await request(`${stack.url}/v1/widget/conversations/${conversationId}`, { token })).body.handled_by).toBe('human');

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
      expect({ name, status: refused.status, code: refused.body?.error?.code }).toEqual({ name, status: 401, code: 'unauthorized' });
    }

    const broken = '{"id": "evt_';
    const invalid = await postWebhook(broken, await signedHeaders(broken));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_json');

    await tab.barrier(conversationId);
    expect(tab.created).toHaveLength(pushedBefore);
    expect(await widget.messages(token, conversationId)).toEqual(before);
    expect(await seen(event!.id)).toBe(false);

    // The same bytes, genuinely signed 300 s ago (the edge of the tolerance), are taken, once.
    const accepted = await postWebhook(body, await signedHeaders(body, nowS - 300));
    expect(accepted.status).toBe(200);
    await tab.barrier(conversationId);
    expect(tab.created.slice(pushedBefore).map((message) => [message.author, message.text])).toEqual([['human', 'A person answers here.']]);
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
    const cursor = await readSetting(stack.bffSql, 'engine_feed_cursor');
    expect(cursor).toBe(feed.at(-1)!.id);

    // A second catch-up starts after the cursor: there is nothing after it, and nothing changes.
    const after = await request(`${engine.url}/v1/events?after=${cursor}`, { token: engine.apiKey });
    expect(after.body.events).toEqual([]);
    const stored = await widget.messages(token, conversationId);
    await stack.bff.feed.catchUp();
    await tab.barrier(conversationId);
    expect(tab.created).toHaveLength(pushedBefore + 2);
    expect(await widget.messages(token, conversationId)).toEqual(stored);
    expect(await readSetting(stack.bffSql, 'engine_feed_cursor')).toBe(cursor);

    // The next event moves the cursor on by exactly that one.
    const [next] = await atEngine(engine, engineId, 'human-messages', { text: 'It arrives tomorrow.', author_name: 'Alex' });
    await stack.bff.feed.catchUp();
    await tab.barrier(conversationId);
    expect(tab.created.slice(pushedBefore + 2).map((message) => message.text)).toEqual(['It arrives tomorrow.']);
    expect(await readSetting(stack.bffSql, 'engine_feed_cursor')).toBe(next!.id);
    expect(await widget.messages(token, conversationId)).toHaveLength(stored.length + 1);
  });
});
