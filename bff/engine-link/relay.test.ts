import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, signWebhook } from '../../shared/index.ts';
import { openSecretBox, SessionTokens } from '../../shared/server/index.ts';
import { ensureSessionKeys } from '../widget/session-keys.ts';
import {
  closeServer,
  DRIVERS,
  logger,
  request,
  startEngine,
  startStack,
  type Driver,
  type TestEngine,
  type TestStack,
} from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { createBff, EngineClient, type Bff } from '../index.ts';
import {
  QUESTIONS,
  FAST_RETRIES,
  connect,
  closeSockets,
  widgetClient,
  pendingOf,
  engineIdOf,
  customerTurns,
  atEngine,
  ids,
  authors,
  byAuthor,
  statusesOf,
} from '../../test/upstream-fixture.ts';

/**
 * The BFF's way up to the engine, on a real engine that goes away, slows the BFF down, refuses,
 * and pushes events by webhook and through its feed. Nothing a customer sends may be lost or doubled.
 */

describe.each(DRIVERS)('the BFF when the engine goes away or refuses, on $name', (driver: Driver) => {
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
      { relayRetryDelaysMs: FAST_RETRIES, feedPollMs: 0 },
    );
  });
  // A test that fails while the engine is down must not leave it down for the next one.
  afterEach(() => engine.resume());
  afterAll(async () => {
    closeSockets();
    await stack?.stop();
    await engine?.stop();
  });

  it(
    'keeps what the customer sends while the engine is down for 3 s (several retries), then forwards each message once and in order, and answers each once',
    { timeout: 60_000 },
    async () => {
      const token = await widget.visitor();
      const conversationId = await widget.openConversation(token);
      const tab = await connect(stack.url, token);
      const messageIds = QUESTIONS.map((_, index) => `q${index}-${randomUUID()}`);
      const [a, ...later] = QUESTIONS.map((question, index) => ({ ...question, messageId: messageIds[index]! }));

      expect((await widget.send(token, conversationId, a!.text, a!.messageId)).status).toBe(201);
      await until(
        () => byAuthor(tab.created, 'ai').length,
        (count) => count === 1,
        'the answer to the first question',
      );
      await stack.bff.relay.settled();

      await engine.pause();
      for (const question of later) {
        const sent = await widget.send(token, conversationId, question.text, question.messageId);
        expect(sent.status).toBe(201);
        expect(sent.body).toMatchObject({
          author: 'customer',
          text: question.text,
          message_id: question.messageId,
          status: 'sent',
        });
      }
      // The relay keeps trying in the background; the messages wait in the BFF's store.
      await until(
        () => stack.bff.relay.backlog,
        (backlog) => backlog >= 1,
        'the relay to schedule a retry',
      );
      expect(await pendingOf(stack, conversationId)).toEqual(later.map((question) => question.messageId));
      // The scenario itself: the engine stays down for 3 seconds, long enough for several retries at
      // FAST_RETRIES (the chaos suite, npm run test:chaos, keeps it down for 30 s at the real delays).
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const whileDown = await widget.messages(token, conversationId);
      expect(byAuthor(whileDown, 'customer').map((message) => [message.text, message.status])).toEqual([
        [a!.text, 'read'],
        ...later.map((question) => [question.text, 'sent']),
      ]);
      expect(byAuthor(whileDown, 'ai')).toHaveLength(1);

      await engine.resume();
      await until(
        () => byAuthor(tab.created, 'ai').length,
        (count) => count >= QUESTIONS.length,
        'an answer to every question',
        15_000,
      );
      await until(
        () => stack.bff.relay.backlog,
        (backlog) => backlog === 0,
        'the retries to run out',
      );
      await stack.bff.relay.settled();
      // The feed carries every event again: reading it must add nothing.
      await stack.bff.feed.catchUp();
      await tab.barrier(conversationId);

      // The engine got every message exactly once, in the order written.
      expect(await customerTurns(engine, await engineIdOf(stack, conversationId))).toEqual(
        QUESTIONS.map((question) => question.text),
      );

      // The connected tab got every message once: the three written while the engine was down as they were sent, then one answer to each, in order.
      expect(new Set(ids(tab.created)).size).toBe(tab.created.length);
      expect(authors(tab.created)).toEqual(['customer', 'ai', 'customer', 'customer', 'customer', 'ai', 'ai', 'ai']);
      const answers = byAuthor(tab.created, 'ai').map((message) => message.text);
      QUESTIONS.forEach((question, index) => expect(answers[index]).toContain(question.answer));

      // The widget's list has each message exactly once, the same ones the tab was pushed.
      const stored = await widget.messages(token, conversationId);
      expect(ids(stored)).toEqual([...ids(tab.created)].sort((x, y) => x - y));
      expect(stored.filter((message) => message.message_id !== null).map((message) => message.message_id)).toEqual(
        messageIds,
      );
      expect(byAuthor(stored, 'customer').map((message) => message.status)).toEqual(['read', 'read', 'read', 'read']);
      // Delivered and read came in one step, with the AI's answer, which says so by itself: no status push.
      for (const message of byAuthor(stored, 'customer')) expect(statusesOf(tab.updated, message.id)).toEqual([]);
    },
  );

  it('keeps one retry going for a conversation while the engine is down, however many of its messages wait', async () => {
    const token = await widget.visitor();
    const conversationId = await widget.openConversation(token);
    await engine.pause();
    try {
      for (const [index, question] of QUESTIONS.slice(0, 3).entries()) {
        expect((await widget.send(token, conversationId, question.text, `waiting-${index}`)).status).toBe(201);
      }
      await until(
        () => stack.bff.relay.backlog,
        (backlog) => backlog >= 1,
        'the relay to schedule a retry',
      );
      // Once no pass is running, every attempt is waiting on its timer: one conversation, one retry.
      await stack.bff.relay.settled();
      expect(stack.bff.relay.backlog).toBe(1);
    } finally {
      await engine.resume();
      await until(
        () => pendingOf(stack, conversationId),
        (waiting) => waiting.length === 0,
        'the waiting messages to be forwarded',
        15_000,
      );
      await until(
        () => stack.bff.relay.backlog,
        (backlog) => backlog === 0,
        'the retries to run out',
      );
    }
  });

  it('marks a message the engine refuses for good as failed, and stops trying it', async () => {
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

    // Someone closes the conversation at the engine; the BFF does not know yet.
    const engineId = await engineIdOf(stack, conversationId);
    await atEngine(engine, engineId, 'close');

    const sent = await widget.send(token, conversationId, QUESTIONS[1].text, 'after-close');
    expect(sent.status).toBe(201);
    expect(sent.body.status).toBe('sent');
    await until(
      () => statusesOf(tab.updated, sent.body.id as number),
      (statuses) => statuses.length > 0,
      'the verdict on the refused message',
    );
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
    const body = JSON.stringify({
      id: `evt_${randomToken(22)}`,
      type: 'ping',
      created_at: new Date().toISOString(),
      conversation_id: `cnv_${randomToken(22)}`,
      data: {},
    });
    const at = Math.floor(Date.now() / 1000);
    const response = await request(`${stack.url}/v1/engine-webhooks`, {
      rawBody: body,
      headers: {
        'x-service-timestamp': String(at),
        'x-service-signature': await signWebhook('whsec_anything', at, body),
      },
    });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('not_configured');
  });
});

describe.each(DRIVERS)('a BFF restarted while the engine is down, on $name', (driver: Driver) => {
  let engine: TestEngine;
  let stack: TestStack;
  let restarted: { bff: Bff; server: Server; url: string } | undefined;
  const widget = widgetClient(
    () => stack.url,
    () => stack.siteKey,
  );

  beforeAll(async () => {
    engine = await startEngine(driver);
    stack = await startStack(
      driver,
      { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys },
      { relayRetryDelaysMs: FAST_RETRIES, feedPollMs: 0 },
    );
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
    // The stored session keys, opened as a new process on this store opens them (the stack's DATA_DIR is memory://).
    const secrets = openSecretBox(undefined, 'memory://');
    const bff = await createBff({
      sql: stack.bffSql,
      logger,
      engine: new EngineClient({ baseUrl: engine.url, apiKey: engine.apiKey }),
      tokens: new SessionTokens(await ensureSessionKeys(stack.bffSql, undefined, secrets)),
      secrets,
      widgetAssetsDir: fileURLToPath(new URL('../../dist/widget/', import.meta.url)),
      defaultInboxId: stack.inboxId,
      relayRetryDelaysMs: FAST_RETRIES,
      feedPollMs: 0,
    });
    const server = createServer(bff.app.callback());
    bff.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { bff, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it(
    'forwards the messages it stored while the engine was down once the BFF has restarted and the engine is back',
    { timeout: 60_000 },
    async () => {
      const token = await widget.visitor();
      const conversationId = await widget.openConversation(token);
      expect((await widget.send(token, conversationId, QUESTIONS[0].text, 'before')).status).toBe(201);
      await until(
        () => widget.messages(token, conversationId),
        (list) => list.length === 2,
        'the first answer',
      );
      await stack.bff.relay.settled();

      await engine.pause();
      for (const [index, question] of [QUESTIONS[1], QUESTIONS[2]].entries()) {
        const sent = await widget.send(token, conversationId, question.text, `down-${index}`);
        expect(sent.status).toBe(201);
        expect(sent.body.status).toBe('sent');
      }
      await until(
        () => stack.bff.relay.backlog,
        (backlog) => backlog >= 1,
        'the relay to schedule a retry',
      );

      // The BFF stops (its retries die with it); only the store remembers the two messages.
      await stack.bff.close();
      expect(await pendingOf(stack, conversationId)).toEqual(['down-0', 'down-1']);

      const bff = (restarted = await restartBff());
      // At start it picks the waiting work up, and keeps at it while the engine is still down.
      await until(
        () => bff.bff.relay.backlog,
        (backlog) => backlog === 1,
        'the restarted relay to retry',
      );
      const tab = await connect(bff.url, token);
      await engine.resume();
      await until(
        () => byAuthor(tab.created, 'ai').length,
        (count) => count >= 2,
        'the answers after the restart',
      );
      await bff.bff.relay.settled();
      await tab.barrier(conversationId);
      expect(bff.bff.relay.backlog).toBe(0);

      expect(await customerTurns(engine, await engineIdOf(stack, conversationId))).toEqual([
        QUESTIONS[0].text,
        QUESTIONS[1].text,
        QUESTIONS[2].text,
      ]);
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
    },
  );
});

describe.each(DRIVERS)('the BFF when the engine answers 429, on $name', (driver: Driver) => {
  let engine: TestEngine;
  let stack: TestStack;
  // The engine's clock stands two seconds before a minute starts, so its Retry-After is 2 s.
  let engineNow = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000 - 2_000);
  const widget = widgetClient(
    () => stack.url,
    () => stack.siteKey,
  );

  beforeAll(async () => {
    engine = await startEngine(driver, () => engineNow);
    stack = await startStack(
      driver,
      { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys },
      { relayRetryDelaysMs: FAST_RETRIES, feedPollMs: 0 },
    );
  });
  afterAll(async () => {
    closeSockets();
    await stack?.stop();
    await engine?.stop();
  });

  it(
    'retries after Retry-After with the same Idempotency-Key, and the message reaches the engine once and is answered once',
    { timeout: 30_000 },
    async () => {
      const token = await widget.visitor();
      const conversationId = await widget.openConversation(token);
      const tab = await connect(stack.url, token);
      const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
      expect((await widget.send(token, conversationId, QUESTIONS[0].text, a)).status).toBe(201);
      await until(
        () => byAuthor(tab.created, 'ai').length,
        (count) => count === 1,
        'the first answer',
      );
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
      await until(
        () => stack.bff.relay.backlog,
        (backlog) => backlog === 1,
        'the relay to wait for Retry-After',
      );
      // The 429 changed nothing at the engine; the message waits in the BFF.
      expect((await widget.messages(token, conversationId)).find((message) => message.message_id === b)?.status).toBe(
        'sent',
      );
      // The engine's next minute begins (as it would in the 2 s the BFF now waits).
      engineNow = new Date(engineNow.getTime() + 2_000);

      await until(
        () => byAuthor(tab.created, 'ai').length,
        (count) => count >= 2,
        'the answer after the retry',
      );
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
      // Read with the AI's answer, which says so by itself: no status push.
      expect(statusesOf(tab.updated, sent.body.id as number)).toEqual([]);
    },
  );
});
