import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, type WidgetMessage } from '../../shared/index.ts';
import { request, startEngine, startStack, type TestEngine, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { placeUnplacedState } from '../store/environments.ts';

/**
 * Issue 12, "sandbox reaches live": the BFF holds one engine key per environment, each
 * conversation carries its environment, and goes to the engine with that environment's key only.
 * Attacks: a sandbox visitor and a live visitor of the same inbox ask the same question (the
 * sandbox fixture must answer only the first), each key tries to read the other's conversation,
 * and a BFF without a key of an environment is asked to serve it.
 */

const ORDER_QUESTION = 'Where is my order 12345?';

describe('sandbox and live customers of one inbox, on a BFF with a key per environment', () => {
  const liveSiteKey = `pk_live_${randomToken(24)}`;
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_LIVE_SITE_KEY: liveSiteKey });
  });
  afterAll(() => stack?.stop());

  const engineGet = (path: string, key: string) => request(`${stack.engineUrl}${path}`, { token: key });
  const messagesOf = async (token: string, conversationId: string) =>
    (await request(`${stack.url}/v1/widget/conversations/${conversationId}/messages`, { token })).body
      .messages as WidgetMessage[];
  const rowOf = async (uuid: string) =>
    (
      await stack.bffSql.query<{ environment: string; engine_conversation_id: string | null }>(
        'SELECT environment, engine_conversation_id FROM conversations WHERE uuid = $1',
        [uuid],
      )
    )[0]!;

  /** A visitor of `siteKey` (from the demo's own origin) who asks for their order; gives their conversation once the engine has it. */
  async function askForOrder(siteKey: string) {
    const visitor = await newVisitor(stack.url, siteKey, { origin: stack.url });
    const conversation = await openWidgetConversation(stack.url, visitor.token);
    expect((await sendWidgetMessage(stack.url, visitor.token, conversation.id, ORDER_QUESTION, 'order-1')).status).toBe(
      201,
    );
    await stack.bff.relay.settled();
    const row = await until(
      () => rowOf(conversation.id),
      (found) => found.engine_conversation_id !== null,
      'the engine conversation',
    );
    return {
      token: visitor.token,
      uuid: conversation.id,
      environment: row.environment,
      engineId: row.engine_conversation_id!,
    };
  }

  it("answers a sandbox visitor with the sandbox fixture, and never a live visitor's same question", async () => {
    const sandbox = await askForOrder(stack.siteKey);
    const live = await askForOrder(liveSiteKey);
    expect([sandbox.environment, live.environment]).toEqual(['sandbox', 'live']);

    const sandboxAnswer = await until(
      () => messagesOf(sandbox.token, sandbox.uuid),
      (messages) => messages.some((m) => m.author === 'ai'),
      'the sandbox answer',
    );
    expect(sandboxAnswer.find((m) => m.author === 'ai')!.text).toContain('DHL');
    // The live visitor's request waits for the shop's server: no fixture's carrier, ever.
    const liveMessages = await messagesOf(live.token, live.uuid);
    expect(liveMessages.map((m) => m.text).join('\n')).not.toContain('DHL');
    const liveRequests = await stack.bffSql.query<{ text: string }>(
      "SELECT text FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.private AND m.text LIKE 'The AI asked the site to run%'",
      [live.uuid],
    );
    expect(liveRequests).toHaveLength(1);
    expect(liveRequests[0]!.text).not.toContain('sandbox');
  });

  it("keeps each environment's conversations at the engine under its own key: neither key reads the other's", async () => {
    const sandbox = await askForOrder(stack.siteKey);
    const live = await askForOrder(liveSiteKey);
    expect((await engineGet(`/v1/conversations/${sandbox.engineId}/transcript`, stack.apiKey)).status).toBe(200);
    expect((await engineGet(`/v1/conversations/${sandbox.engineId}/transcript`, stack.liveApiKey!)).status).toBe(404);
    expect((await engineGet(`/v1/conversations/${live.engineId}/transcript`, stack.liveApiKey!)).status).toBe(200);
    expect((await engineGet(`/v1/conversations/${live.engineId}/transcript`, stack.apiKey)).status).toBe(404);
    // Each environment's feed (read with its own cursor) holds its own conversations only.
    const sandboxFeed = (await engineGet('/v1/events?limit=500', stack.apiKey)).body.events as {
      conversation_id: string;
    }[];
    expect(sandboxFeed.some((event) => event.conversation_id === sandbox.engineId)).toBe(true);
    expect(sandboxFeed.some((event) => event.conversation_id === live.engineId)).toBe(false);
  });

  it('makes Client API contacts live customers, whose conversations go up with the live key', async () => {
    const base = `${stack.url}/public/api/v1/inboxes/${stack.inboxIdentifier}`;
    const contact = (await request(`${base}/contacts`, { body: { name: 'Kim' } })).body as { source_id: string };
    const conversation = (await request(`${base}/contacts/${contact.source_id}/conversations`, { body: {} })).body as {
      id: number;
      uuid: string;
    };
    expect(
      (
        await request(`${base}/contacts/${contact.source_id}/conversations/${conversation.id}/messages`, {
          body: { content: 'How do I return an item?' },
        })
      ).status,
    ).toBe(200);
    await stack.bff.relay.settled();
    const row = await until(
      () => rowOf(conversation.uuid),
      (found) => found.engine_conversation_id !== null,
      'the engine conversation',
    );
    expect(row.environment).toBe('live');
    expect(
      (await engineGet(`/v1/conversations/${row.engine_conversation_id}/transcript`, stack.liveApiKey!)).status,
    ).toBe(200);
    expect((await engineGet(`/v1/conversations/${row.engine_conversation_id}/transcript`, stack.apiKey)).status).toBe(
      404,
    );
  });

  it("gives what was kept before (a conversation without an environment, the one feed cursor) to the first key's environment, once", async () => {
    const [inbox] = await stack.bffSql.query<{ id: string }>('SELECT id FROM inboxes ORDER BY created_at LIMIT 1');
    const uuid = crypto.randomUUID();
    await stack.bffSql.query(
      "INSERT INTO conversations (uuid, inbox_id, customer_ref, created_at, updated_at) VALUES ($1, $2, 'vis_before', now(), now())",
      [uuid, inbox!.id],
    );
    await stack.bffSql.query(
      "INSERT INTO settings (name, value) VALUES ('engine_feed_cursor', 'evt_before') ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
    );
    const cursorBefore = (
      await stack.bffSql.query<{ value: string }>(
        "SELECT value FROM settings WHERE name = 'engine_feed_cursor_sandbox'",
      )
    )[0]?.value;
    await placeUnplacedState(stack.bffSql, 'sandbox');
    expect((await rowOf(uuid)).environment).toBe('sandbox');
    // A cursor of this environment already kept wins; the old one is gone either way.
    const cursor = async (name: string) =>
      (await stack.bffSql.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name]))[0]?.value;
    expect(await cursor('engine_feed_cursor')).toBeUndefined();
    expect(await cursor('engine_feed_cursor_sandbox')).toBe(cursorBefore ?? 'evt_before');
    await placeUnplacedState(stack.bffSql, 'live');
    expect((await rowOf(uuid)).environment).toBe('sandbox');
  });
});

describe('a BFF without a key of an environment', () => {
  let engine: TestEngine;
  let liveOnly: TestStack;
  let sandboxOnly: TestStack;

  beforeAll(async () => {
    engine = await startEngine();
    [liveOnly, sandboxOnly] = await Promise.all([
      startStack(undefined, { AI_API_URL: engine.url, AI_API_KEY: engine.liveApiKey }, { feedPollMs: 0 }),
      startStack(undefined, { AI_API_URL: engine.url, AI_API_KEY: engine.apiKey }, { feedPollMs: 0 }),
    ]);
  });
  afterAll(async () => {
    await liveOnly?.stop();
    await sandboxOnly?.stop();
    await engine?.stop();
  });

  const conversationCount = async (stack: TestStack) =>
    (await stack.bffSql.query<{ n: number }>('SELECT count(*)::int AS n FROM conversations'))[0]!.n;

  it("refuses a sandbox site key's visitor with 503 not_configured, and a sandbox key's verified customer, keeping nothing", async () => {
    const visitor = await request(`${liveOnly.url}/v1/widget-sessions`, { token: liveOnly.siteKey, body: {} });
    expect(visitor.status).toBe(503);
    expect(visitor.body.error.code).toBe('not_configured');
    expect(visitor.body.error.message).toMatch(/sandbox/);
    const verified = await request(`${liveOnly.url}/v1/widget-sessions`, {
      token: engine.apiKey,
      body: { customer_ref: 'cust-1' },
    });
    expect(verified.status).toBe(503);
    expect(verified.body.error.code).toBe('not_configured');
    expect(await conversationCount(liveOnly)).toBe(0);
  });

  it('refuses to open a Client API (live) conversation with 503 not_configured when it holds only a sandbox key, keeping nothing', async () => {
    const base = `${sandboxOnly.url}/public/api/v1/inboxes/${sandboxOnly.inboxIdentifier}`;
    const contact = (await request(`${base}/contacts`, { body: { name: 'Kim' } })).body as { source_id: string };
    const opened = await request(`${base}/contacts/${contact.source_id}/conversations`, { body: {} });
    expect(opened.status).toBe(503);
    expect(opened.body.errors[0].code).toBe('not_configured');
    expect(await conversationCount(sandboxOnly)).toBe(0);
  });

  it('still serves the environment it has a key for', async () => {
    const visitor = await newVisitor(sandboxOnly.url, sandboxOnly.siteKey);
    const conversation = await openWidgetConversation(sandboxOnly.url, visitor.token);
    expect(
      (await sendWidgetMessage(sandboxOnly.url, visitor.token, conversation.id, 'How do I return an item?', 'm-1'))
        .status,
    ).toBe(201);
    await sandboxOnly.bff.relay.settled();
    const [row] = await sandboxOnly.bffSql.query<{ environment: string; engine_conversation_id: string | null }>(
      'SELECT environment, engine_conversation_id FROM conversations WHERE uuid = $1',
      [conversation.id],
    );
    expect(row).toMatchObject({ environment: 'sandbox', engine_conversation_id: expect.stringMatching(/^cnv_/) });
  });
});
