import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiRoutes, errorBoundary } from '../../shared/server/index.ts';
import { closeServer, logger, request, startEngine, type TestEngine } from '../../test/stack.ts';
import { callerOf, requireApiKey, type EngineState } from '../auth.ts';
import { AccountBrainTime } from '../brain/account-brain-time.ts';
import { KnowledgeCache } from '../brain/knowledge-cache.ts';
import type { RequestState } from '../rate-limit.ts';
import { addConversationRoutes } from '../routes/conversations.ts';
import { createConversationService } from './index.ts';

interface Event {
  type: string;
  conversation_id: string;
  data: { text?: string };
}

/**
 * Issue 28: a question the customer asks while people have the conversation is answered by the AI
 * when they hand it back, unless a person answered it. The engine alone, over HTTP, with the shop's
 * knowledge (test/shop-fixtures.ts).
 */
describe('handing a conversation back to the AI', () => {
  let engine: TestEngine;
  const api = (path: string, body?: unknown) => request(engine.url + path, { token: engine.apiKey, body });
  const types = (events: Event[]) => events.map((event) => event.type);

  /** A conversation whose customer asked for a person: people have it, and the AI said it hands over. */
  async function withPeople(): Promise<string> {
    const id = (await api('/v1/conversations', { customer_ref: 'hand-back-customer' })).body.id as string;
    const asked = await say(id, 'I want to talk to a person');
    expect(types(asked)).toEqual(['conversation.reply', 'conversation.handover']);
    return id;
  }
  async function say(id: string, text: string): Promise<Event[]> {
    const response = await api(`/v1/conversations/${id}/messages`, { text });
    expect(response.status).toBe(200);
    return response.body.events as Event[];
  }
  async function handBack(id: string) {
    const response = await api(`/v1/conversations/${id}/handback`, {});
    expect(response.status).toBe(200);
    return response.body as { conversation: { state: string }; events: Event[] };
  }
  const feedOf = async (id: string) =>
    ((await api('/v1/events?limit=1000')).body.events as Event[]).filter((event) => event.conversation_id === id);
  const turnsOf = async (id: string) =>
    ((await api(`/v1/conversations/${id}/transcript`)).body.turns as { role: string; text: string }[]).filter(
      (turn) => turn.role !== 'system',
    );

  beforeAll(async () => {
    engine = await startEngine();
  });
  afterAll(() => engine?.stop());

  it('answers the question the customer asked while people had the conversation, in the hand-back, and the feed has the answer', async () => {
    const id = await withPeople();
    expect(await say(id, 'How do I return an item?')).toEqual([]);

    const back = await handBack(id);
    expect(types(back.events)).toEqual(['conversation.handback', 'conversation.reply']);
    expect(back.events[1]!.data.text).toContain('within 30 days');
    expect(back.conversation.state).toBe('ai');
    const fed = await feedOf(id);
    expect(types(fed).slice(-2)).toEqual(['conversation.handback', 'conversation.reply']);
    expect(fed.at(-1)!.data.text).toContain('within 30 days');
    expect((await turnsOf(id)).slice(-2)).toEqual([
      { role: 'customer', text: 'How do I return an item?', created_at: expect.any(String) },
      { role: 'ai', text: expect.stringContaining('within 30 days'), created_at: expect.any(String) },
    ]);
  });

  it("answers only the customer's last message when several waited", async () => {
    const id = await withPeople();
    await say(id, 'Hello? Anyone there?');
    await say(id, 'Do you ship abroad?');

    const back = await handBack(id);
    expect(types(back.events)).toEqual(['conversation.handback', 'conversation.reply']);
    expect(back.events[1]!.data.text).toContain('Norway');
  });

  it('adds no answer when a person answered after the customer', async () => {
    const id = await withPeople();
    await say(id, 'How do I return an item?');
    const relayed = await api(`/v1/conversations/${id}/human-messages`, {
      text: 'Send it back within 30 days with the form in the parcel.',
      author_name: 'Sam',
    });
    expect(relayed.status).toBe(200);

    const back = await handBack(id);
    expect(types(back.events)).toEqual(['conversation.handback']);
    expect((await turnsOf(id)).at(-1)).toMatchObject({ role: 'human' });
    expect(types(await feedOf(id)).at(-1)).toBe('conversation.handback');
  });

  it('adds nothing when the customer wrote nothing while people had the conversation', async () => {
    const id = await withPeople();
    const before = await turnsOf(id);

    const back = await handBack(id);
    expect(types(back.events)).toEqual(['conversation.handback']);
    expect(await turnsOf(id)).toEqual(before);
    // The AI answers the next message as usual.
    expect((await say(id, 'How do I return an item?'))[0]!.data.text).toContain('within 30 days');
  });

  it('hands over again when the message left waiting asks for a person', async () => {
    const id = await withPeople();
    await say(id, 'Still waiting, I want to talk to a person');

    const back = await handBack(id);
    expect(types(back.events)).toEqual(['conversation.handback', 'conversation.reply', 'conversation.handover']);
    expect(back.conversation.state).toBe('human');
  });
});

/**
 * The answer a hand-back gives takes the brain's time, counted as a message's (issue 26). As in
 * engine/brain-time.security.test.ts, the conversation routes run as createEngine mounts them on a
 * service given a small budget and a clock of the test's (createEngine takes no AccountBrainTime).
 */
describe("a hand-back when the account spent its minute's brain time", () => {
  let engine: TestEngine;
  let url: string;
  let server: ReturnType<typeof createServer>;
  // Each reading of the clock moves it `step` ms: 0 while the test sets things up, so no time is spent.
  const clock = { at: 0, step: 0 };

  beforeAll(async () => {
    engine = await startEngine();
    const tick = () => (clock.at += clock.step);
    const brainTime = new AccountBrainTime({ clock: tick, workClock: tick, perMinuteMs: 100 });
    const conversations = createConversationService({
      sql: engine.sql,
      knowledge: new KnowledgeCache(),
      now: () => new Date(),
      brainTime,
    });
    const keyed = new ApiRoutes<EngineState>({ middleware: [requireApiKey()] });
    addConversationRoutes(keyed, conversations, logger);
    const app = new Koa<RequestState>();
    app.use(async (ctx, next) => {
      ctx.state.caller = await callerOf(engine.sql, ctx);
      await next();
    });
    app.use(errorBoundary(logger));
    app.use(keyed.router.routes() as Koa.Middleware<RequestState>);
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (server) await closeServer(server);
    await engine?.stop();
  });

  const api = (path: string, body?: unknown) => request(url + path, { token: engine.apiKey, body });

  it('is refused with 429 rate_limited and changes nothing; in the next minute it goes through and answers', async () => {
    const id = (await api('/v1/conversations', { customer_ref: 'busy-customer' })).body.id as string;
    expect((await api(`/v1/conversations/${id}/handover`, { reason: 'a person took it' })).status).toBe(200);
    expect((await api(`/v1/conversations/${id}/messages`, { text: 'How do I return an item?' })).status).toBe(200);
    // Another conversation's answers spend the account's minute.
    const other = (await api('/v1/conversations', { customer_ref: 'other-customer' })).body.id as string;
    clock.step = 60;
    expect((await api(`/v1/conversations/${other}/messages`, { text: 'Do you ship abroad?' })).status).toBe(200);
    clock.step = 0;

    const refused = await api(`/v1/conversations/${id}/handback`, {});
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    const transcript = (await api(`/v1/conversations/${id}/transcript`)).body as { state: string; turns: unknown[] };
    expect(transcript.state).toBe('human');
    expect(transcript.turns.at(-1)).toMatchObject({ role: 'customer', text: 'How do I return an item?' });

    clock.at += 60_000;
    const back = await api(`/v1/conversations/${id}/handback`, {});
    expect(back.status).toBe(200);
    expect(back.body.events.map((event: Event) => event.type)).toEqual(['conversation.handback', 'conversation.reply']);
    expect(back.body.events[1].data.text).toContain('within 30 days');
  });
});
