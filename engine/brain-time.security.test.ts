import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiRoutes, errorBoundary } from '../shared/server/index.ts';
import { closeServer, logger, request, startEngine, type TestEngine } from '../test/stack.ts';
import { callerOf, requireApiKey, type EngineState } from './auth.ts';
import { AccountBrainTime } from './brain/account-brain-time.ts';
import { KnowledgeCache } from './brain/knowledge-cache.ts';
import { createConversationService } from './conversations/index.ts';
import type { RequestState } from './rate-limit.ts';
import { addConversationRoutes } from './routes/conversations.ts';

/**
 * Issue 26: the brain's time is the engine's one thread, which every account shares, so each
 * account has a budget of it a minute. Burning a real minute's budget would take seconds of CPU,
 * so the conversation routes run here as createEngine mounts them (key, error boundary, routes,
 * on the real store and knowledge), on a conversation service given a small budget and a clock of
 * the test's that moves 10 ms at each reading (createEngine takes no AccountBrainTime of its own).
 */
describe("an account over its minute's brain time", () => {
  let engine: TestEngine;
  let url: string;
  let server: ReturnType<typeof createServer>;
  const clock = { at: 0 };

  beforeAll(async () => {
    engine = await startEngine();
    const tick = () => (clock.at += 10);
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

  const open = async (token: string) =>
    (await request(`${url}/v1/conversations`, { token, body: { customer_ref: 'busy-customer' } })).body.id as string;
  const send = (token: string, id: string, text: string, messageId: string) =>
    request(`${url}/v1/conversations/${id}/messages`, { token, body: { text, message_id: messageId } });

  it('is refused with 429 rate_limited and Retry-After before anything is kept, while another account is served; the same message goes through in the next minute', async () => {
    const id = await open(engine.apiKey);
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    for (let index = 0; index < 50 && !refused; index++) {
      const response = await send(engine.apiKey, id, 'How do I return an item?', `m${index}`);
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
    }
    expect(refused?.body.error).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(
        /^This account's AI used its 0\.1 s of thinking for this minute\. Try again in \d+ s\.$/,
      ),
    });
    const retryAfter = Number(refused?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const refusedText = 'Do you ship abroad?';
    expect((await send(engine.apiKey, id, refusedText, 'refused-once')).status).toBe(429);
    const turns = async () =>
      (await request(`${url}/v1/conversations/${id}/transcript`, { token: engine.apiKey })).body.turns as {
        role: string;
        text: string;
      }[];
    expect((await turns()).map((turn) => turn.text)).not.toContain(refusedText);

    const other = await engine.issueKey({ otherAccount: true });
    const served = await send(other.key, await open(other.key), 'How do I return an item?', 'other-1');
    expect(served.status).toBe(200);
    expect(served.body.events.map((event: { type: string }) => event.type)).toEqual(['conversation.reply']);

    // The BFF's outbox sends the refused message again, with its id, once the minute is over.
    clock.at += 60_000;
    const later = await send(engine.apiKey, id, refusedText, 'refused-once');
    expect(later.status).toBe(200);
    expect(later.body.events[0].data.text).toContain('Norway');
    expect((await turns()).filter((turn) => turn.text === refusedText)).toHaveLength(1);
  });
});
