import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, WidgetConfig, type CallJoined } from '../../shared/index.ts';
import { Inbox, InboxList, User } from '../../shared/schemas/helpdesk/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import {
  DRIVERS,
  engineConversationOf,
  request,
  startEngine,
  startStack,
  type TestEngine,
  type TestStack,
} from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.ts';
import { connectWidget, newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { connectConsole, emit, heard } from './call-clients.ts';

type FeedEvent = { type: string; conversation_id: string | null; data: Record<string, unknown> };

/**
 * Person calls over the sockets (issue 30), against the real BFF in front of a real engine, on
 * both stores: a call is offered and rings only where the inbox allows calls and someone is there;
 * a customer reaches only their own conversations and calls, one at a time; a call is taken once;
 * signalling goes between exactly its two sides; the engine's feed and a site's signed webhook
 * carry `call.started` and `call.ended`.
 */
describe.each(DRIVERS)('person calls over the widget and desk sockets on $name', (driver) => {
  let receiver: WebhookReceiver;
  let engine: TestEngine;
  let stack: TestStack;
  let admin: User;
  let inbox: Inbox;
  let webhookSecret: string;
  const sockets: Socket[] = [];

  const app = (path: string, token: string, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);
  const setCalls = (on: boolean) =>
    app(`/inboxes/${inbox.id}`, admin.access_token!, { method: 'PATCH', body: { calls_enabled: on } });
  /** A customer with a conversation (the engine's too, once they wrote) and a tab's socket. */
  const customer = async (wrote = false) => {
    const visitor = await newVisitor(stack.url);
    const conversation = await openWidgetConversation(stack.url, visitor.token);
    if (wrote) await sendWidgetMessage(stack.url, visitor.token, conversation.id, 'Can I call you?', 'call-1');
    const { socket } = await connectWidget(stack.url, visitor.token);
    sockets.push(socket);
    return { visitor, conversation, socket };
  };
  const console = async () => {
    const agent = await connectConsole(stack.url, admin.access_token!, stack.accountId);
    sockets.push(agent.socket);
    return agent;
  };
  const callOf = async (socket: Socket, conversationId: string) => {
    const started = await emit<CallJoined>(socket, 'call:start', { conversation_id: conversationId });
    if (!started.ok) throw new Error(started.error.message);
    return started.data.call_id;
  };
  const feedOf = async (engineConversationId: string) =>
    ((await request(`${engine.url}/v1/events?limit=1000`, { token: engine.apiKey })).body.events as FeedEvent[])
      .filter((event) => event.conversation_id === engineConversationId && event.type.startsWith('call.'))
      .map(({ type, data }) => ({ type, data }));

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    engine = await startEngine(driver, undefined, { webhooks: { allowedPrivateOrigins: [receiver.origin] } });
    stack = await startStack(driver, {
      DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN,
      AI_API_URL: engine.url,
      AI_API_KEY: engine.apiKeys,
    });
    const endpoint = await request(`${engine.url}/v1/webhook-endpoints`, {
      token: engine.apiKey,
      body: { url: receiver.url },
    });
    webhookSecret = endpoint.body.secret as string;
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@calls.example' })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
    inbox = InboxList.parse((await app('/inboxes', admin.access_token!)).body).payload[0] as Inbox;
    await desk(`${stack.url}/api/v1/profile`, admin.access_token!, {
      method: 'PATCH',
      body: { account_id: stack.accountId, availability: 'online' },
    });
  }, 180_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
    await engine?.stop();
    await receiver?.close();
  });

  it('refuses a call while the inbox does not take calls, and the widget is not offered one', async () => {
    expect((await setCalls(false)).status).toBe(200);
    const { visitor, conversation, socket } = await customer();
    const config = WidgetConfig.parse((await request(`${stack.url}/v1/widget/config`, { token: visitor.token })).body);
    expect(config.features.calls).toBeUndefined();
    const refused = await emit(socket, 'call:start', { conversation_id: conversation.id });
    expect(refused).toEqual({ ok: false, error: expect.objectContaining({ code: 'not_available' }) });
  });

  it('keeps the setting on the inbox and offers calls while someone is available', async () => {
    const changed = await setCalls(true);
    expect(Inbox.parse(changed.body).calls_enabled).toBe(true);
    expect(Inbox.parse((await app(`/inboxes/${inbox.id}`, admin.access_token!)).body).calls_enabled).toBe(true);
    const { token } = await newVisitor(stack.url);
    const config = WidgetConfig.parse((await request(`${stack.url}/v1/widget/config`, { token })).body);
    expect(config.features.calls).toBe(true);
  });

  it('refuses a call or a signal on a conversation or call of another customer, and a second call at once', async () => {
    await setCalls(true);
    const ann = await customer();
    const bob = await customer();
    const notYours = await emit(bob.socket, 'call:start', { conversation_id: ann.conversation.id });
    expect(notYours).toEqual({ ok: false, error: expect.objectContaining({ code: 'not_found' }) });
    const callId = await callOf(ann.socket, ann.conversation.id);
    const signal = { call_id: callId, signal: { type: 'offer', sdp: 'v=0' } };
    expect(await emit(bob.socket, 'call:signal', signal)).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'not_found' }),
    });
    expect(await emit(bob.socket, 'call:hang_up', { call_id: callId })).toMatchObject({ ok: false });
    // The same conversation from a second tab while the first call rings.
    const secondTab = await connectWidget(stack.url, ann.visitor.token);
    sockets.push(secondTab.socket);
    const second = await emit(secondTab.socket, 'call:start', { conversation_id: ann.conversation.id });
    expect(second).toEqual({ ok: false, error: expect.objectContaining({ code: 'conflict' }) });
    const bad = await emit(ann.socket, 'call:signal', { call_id: callId, signal: { type: 'offer' } });
    expect(bad).toEqual({ ok: false, error: expect.objectContaining({ code: 'invalid_request' }) });
    expect(await emit(ann.socket, 'call:hang_up', { call_id: callId })).toEqual({ ok: true, data: null });
    // Once it ended, the conversation may be called again.
    const again = await callOf(secondTab.socket, ann.conversation.id);
    expect(await emit(secondTab.socket, 'call:hang_up', { call_id: again })).toEqual({ ok: true, data: null });
  });

  it('rings the consoles, is taken once, relays between its two sides only, and ends with a line in the transcript', async () => {
    await setCalls(true);
    const first = await console();
    const second = await console();
    const ann = await customer();
    const accepted = heard(ann.socket, 'call:accepted');
    const callId = await callOf(ann.socket, ann.conversation.id);
    await until(
      () => first.rings.length + second.rings.length,
      (count) => count === 2,
      'the rings',
    );
    expect(first.rings[0]).toMatchObject({ call_id: callId });

    expect(await emit(first.socket, 'call:accept', { call_id: callId })).toMatchObject({ ok: true });
    const again = await emit(second.socket, 'call:accept', { call_id: callId });
    expect(again).toEqual({ ok: false, error: expect.objectContaining({ code: 'conflict' }) });
    await until(
      () => accepted.length,
      (count) => count > 0,
      'the acceptance',
    );

    const offer = { call_id: callId, signal: { type: 'offer', sdp: 'v=0' } };
    expect(await emit(ann.socket, 'call:signal', offer)).toEqual({ ok: true, data: null });
    await until(
      () => first.signalled.length,
      (count) => count > 0,
      'the offer',
    );
    // Only the console that accepted may signal back.
    expect(await emit(second.socket, 'call:signal', offer)).toMatchObject({ ok: false });

    expect(await emit(ann.socket, 'call:hang_up', { call_id: callId })).toEqual({ ok: true, data: null });
    const lines = () =>
      stack.bffSql.query<{ text: string }>(
        "SELECT m.text FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.author = 'system'",
        [ann.conversation.id],
      );
    await until(lines, (rows) => rows.some((row) => /^Call, \d+ s$/.test(row.text)), 'the call line');
    expect(first.signalled).toHaveLength(1);
    expect(second.signalled).toHaveLength(0);
  });

  it("tells the engine: call.started when a person answers, call.ended with its length and who ended it, in the engine's feed and a signed webhook", async () => {
    await setCalls(true);
    const agent = await console();
    const ann = await customer(true);
    const engineConversationId = await engineConversationOf(stack, ann.conversation.id);
    const callId = await callOf(ann.socket, ann.conversation.id);
    await until(
      () => agent.rings.length,
      (count) => count > 0,
      'the ring',
    );
    expect(await emit(agent.socket, 'call:accept', { call_id: callId })).toMatchObject({ ok: true });
    const started = await until(
      () => feedOf(engineConversationId),
      (events) => events.length > 0,
      'call.started in the feed',
    );
    expect(started).toEqual([
      {
        type: 'call.started',
        data: { call_id: expect.stringMatching(/^call_/), conversation_id: engineConversationId, mode: 'person' },
      },
    ]);
    const engineCallId = started[0]!.data['call_id'] as string;

    expect(await emit(agent.socket, 'call:hang_up', { call_id: callId })).toEqual({ ok: true, data: null });
    const events = await until(
      () => feedOf(engineConversationId),
      (list) => list.length > 1,
      'call.ended in the feed',
    );
    const ended = { call_id: engineCallId, conversation_id: engineConversationId, ended_by: 'person' };
    expect(events[1]).toEqual({ type: 'call.ended', data: { ...ended, duration_s: expect.any(Number) } });
    expect(events[1]!.data['duration_s']).toBeGreaterThanOrEqual(0);
    expect(agent.ended).toEqual([
      { call_id: callId, duration_s: expect.any(Number), ended_by: 'person', missed: false },
    ]);

    await engine.engine.webhooks.drain();
    const deliveries = receiver.received.filter((delivery) => delivery.body.includes(engineCallId));
    expect(deliveries.map((delivery) => JSON.parse(delivery.body).type)).toEqual(['call.started', 'call.ended']);
    for (const { headers, body } of deliveries) {
      const signature = [headers['x-service-timestamp'], headers['x-service-signature']] as string[];
      expect(await verifyWebhook(webhookSecret, signature[0], signature[1], body, Date.now())).toBeUndefined();
    }
    expect(JSON.parse(deliveries[1]!.body).data).toEqual({ ...ended, duration_s: events[1]!.data['duration_s'] });
  });
});
