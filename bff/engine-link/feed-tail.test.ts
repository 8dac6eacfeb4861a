import { afterEach, describe, expect, it, vi } from 'vitest';
import { signWebhook, type WidgetMessage } from '../../shared/index.ts';
import {
  engineConversationOf,
  engineMove,
  request,
  startEngine,
  startStack,
  type TestEngine,
  type TestStack,
} from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { EngineClient } from '../index.ts';

/**
 * The engine's feed is the fallback (DESIGN "after any downtime"), not a standing poll: it is read
 * at start, and on a timer only while webhooks are quiet or not set up.
 */
describe("reading the engine's feed only when it is needed", () => {
  let stack: TestStack | undefined;
  let engine: TestEngine | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await stack?.stop();
    await engine?.stop();
    stack = undefined;
    engine = undefined;
  });

  const exchange = async (running: TestStack, text: string, messageId: string) => {
    const { token } = await newVisitor(running.url);
    const { id } = await openWidgetConversation(running.url, token);
    expect((await sendWidgetMessage(running.url, token, id, text, messageId)).status).toBe(201);
    await running.bff.relay.settled();
    const messages = async () =>
      (await request(`${running.url}/v1/widget/conversations/${id}/messages`, { token })).body
        .messages as WidgetMessage[];
    return { token, id, messages };
  };

  it('rests while the engine pushes by webhook: each answer comes again by webhook, and the feed is not read', async () => {
    // A grace a loaded machine's webhook worker keeps within; the test waits for the check, not a clock.
    stack = await startStack(undefined, {}, { webhookGraceMs: 2_000 });
    await stack.bff.feed.catchUp();
    const feedReads = vi.spyOn(EngineClient.prototype, 'events');

    const { messages } = await exchange(stack, 'How do I return an item?', 'rest-1');
    expect((await messages()).map((message) => message.author)).toEqual(['customer', 'ai']);
    // The reply came in the engine's answer; the engine's webhook brings it again.
    await until(
      () =>
        stack!.bffSql.query<{ webhook_at: Date | null }>(
          "SELECT webhook_at FROM engine_events_seen WHERE seen_at > now() - interval '1 minute'",
        ),
      (rows) => rows.length > 0 && rows.every((row) => row.webhook_at !== null),
      'every event to come again by webhook',
    );
    // Past the grace period the BFF has checked every watched event: webhooks work, so the feed stays unread.
    await until(
      () => stack!.bff.feed.watching,
      (watching) => watching === 0,
      'the webhook check after the grace period',
    );
    expect(stack.bff.feed.polling).toBe(false);
    expect(feedReads).not.toHaveBeenCalled();
  });

  it('reads the feed while webhooks are quiet, which brings a person’s answer, and rests again once a webhook arrives', async () => {
    // A secret the engine was never given: the BFF expects webhooks that never come.
    const secret = 'quiet-webhook-secret-0123456789';
    stack = await startStack(
      undefined,
      { ENGINE_WEBHOOK_SECRET: secret, FEED_POLL_MS: '100' },
      { webhookGraceMs: 200 },
    );
    expect(stack.bff.feed.polling).toBe(false);

    const { id, messages } = await exchange(stack, 'How do I return an item?', 'quiet-1');
    await until(
      () => stack!.bff.feed.polling,
      (polling) => polling,
      'webhooks to count as quiet',
    );

    const engineId = await engineConversationOf(stack, id);
    expect((await engineMove(stack, engineId, 'handover')).status).toBe(200);
    expect(
      (await engineMove(stack, engineId, 'human-messages', { text: 'Hi, Sam here.', author_name: 'Sam' })).status,
    ).toBe(200);
    await until(
      messages,
      (list) => list.some((message) => message.text === 'Hi, Sam here.'),
      "the person's answer, from the feed",
    );

    const body = JSON.stringify({
      id: 'evt_0000000000000000ping',
      type: 'ping',
      created_at: new Date().toISOString(),
      conversation_id: null,
      data: {},
      environment: 'sandbox',
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const response = await fetch(`${stack.url}/v1/engine-webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-timestamp': String(timestamp),
        'x-service-signature': await signWebhook(secret, timestamp, body),
      },
      body,
    });
    expect(response.status).toBe(200);
    expect(stack.bff.feed.polling).toBe(false);
  });

  it('reads the feed on a timer when no webhooks are set up, the only way to hear of what the BFF did not cause', async () => {
    engine = await startEngine();
    stack = await startStack(undefined, { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys, FEED_POLL_MS: '100' });
    expect(stack.bff.feed.polling).toBe(true);
    const { id, messages } = await exchange(stack, 'How do I return an item?', 'nohooks-1');
    const engineId = await engineConversationOf(stack, id);
    expect(
      (await request(`${engine.url}/v1/conversations/${engineId}/handover`, { token: engine.apiKey, body: {} })).status,
    ).toBe(200);
    await until(
      messages,
      (list) => list.some((message) => message.author === 'system'),
      'the handover notice, from the feed',
    );
  });
});
