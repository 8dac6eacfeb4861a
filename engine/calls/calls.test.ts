import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../shared/index.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../../test/stack.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.ts';

type FeedEvent = { id: string; type: string; conversation_id: string | null; data: any };

describe.each(DRIVERS)('calls begun by a voice session token on $name', (driver) => {
  let engine: TestEngine;
  let receiver: WebhookReceiver;
  let clock = Date.now();
  const now = () => new Date(clock);
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const eventsOf = async (conversationId: string): Promise<FeedEvent[]> =>
    ((await api('/v1/events?limit=1000')).body.events as FeedEvent[]).filter(
      (event) => event.conversation_id === conversationId,
    );

  /** A conversation and its voice token, as the BFF asks for them when a call is answered. */
  async function voiceToken(customerRef: string) {
    const conversationId = (await api('/v1/conversations', { body: { customer_ref: customerRef } })).body.id as string;
    const session = await api(`/v1/conversations/${conversationId}/voice-sessions`, { body: {} });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    return { conversationId, token: session.body.token as string };
  }

  const connect = (body: unknown) => request(`${engine.url}/v1/voice-sessions/connect`, { body });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    engine = await startEngine(driver, now, { webhooks: { allowedPrivateOrigins: [receiver.origin] } });
  });
  afterAll(async () => {
    await engine?.stop();
    await receiver?.close();
  });

  it('begins a call with call.started, ends it once with call.ended and its length, and leaves a line in the messages', async () => {
    const { conversationId, token } = await voiceToken('caller-1');
    const connected = await connect({ token });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    expect(connected.body).toEqual({
      conversation_id: conversationId,
      customer_ref: 'caller-1',
      state: 'ai',
      call_id: expect.stringMatching(/^call_/),
    });
    const callId = connected.body.call_id as string;
    const started = (await eventsOf(conversationId)).filter((event) => event.type === 'call.started');
    expect(started.map((event) => event.data)).toEqual([
      { call_id: callId, conversation_id: conversationId, mode: 'person' },
    ]);

    clock += 192_000;
    const ended = await api(`/v1/calls/${callId}/end`, { body: { ended_by: 'person' } });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toEqual({
      call_id: callId,
      conversation_id: conversationId,
      duration_s: 192,
      ended_by: 'person',
    });

    const again = await api(`/v1/calls/${callId}/end`, { body: { ended_by: 'customer' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('call_ended');
    const endings = (await eventsOf(conversationId)).filter((event) => event.type === 'call.ended');
    expect(endings.map((event) => event.data)).toEqual([ended.body]);

    const turns = (await api(`/v1/conversations/${conversationId}/transcript`)).body.turns as {
      role: string;
      text: string;
    }[];
    // A system line: shown to the team, never read by the AI as the customer's words.
    expect(turns.filter((turn) => turn.text.startsWith('Call,'))).toEqual([
      { role: 'system', text: 'Call, 3 min 12 s', created_at: expect.any(String) },
    ]);
  });

  it('refuses a second use of the token, and begins no second call', async () => {
    const { conversationId, token } = await voiceToken('caller-2');
    expect((await connect({ token })).status).toBe(200);
    const second = await connect({ token, mode: 'person' });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('token_used');
    expect((await eventsOf(conversationId)).filter((event) => event.type === 'call.started')).toHaveLength(1);
    const unknown = await connect({ token: 'vst_not-a-token' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('unauthorized');
  });

  it('refuses a call with the AI as not_available when no speech is configured, keeping the token usable', async () => {
    const { token } = await voiceToken('caller-3');
    const refused = await connect({ token, mode: 'ai' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('not_available');
    expect((await connect({ token, mode: 'person' })).status).toBe(200);
  });

  it("answers 404 for another account's call and for the same account's call from the other environment", async () => {
    const { token } = await voiceToken('caller-4');
    const callId = (await connect({ token })).body.call_id as string;
    const other = await engine.issueKey({ otherAccount: true });
    const foreign = await request(`${engine.url}/v1/calls/${callId}/end`, {
      token: other.key,
      body: { ended_by: 'customer' },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const live = await request(`${engine.url}/v1/calls/${callId}/end`, {
      token: engine.liveApiKey,
      body: { ended_by: 'customer' },
    });
    expect(live.status).toBe(404);
    expect((await api('/v1/calls/call_unknown/end', { body: { ended_by: 'customer' } })).status).toBe(404);
    // Still the owner's to end.
    expect((await api(`/v1/calls/${callId}/end`, { body: { ended_by: 'customer' } })).status).toBe(200);
  });

  it('refuses bad bodies with a stable 4xx code, never a 500', async () => {
    const { token } = await voiceToken('caller-5');
    const callId = (await connect({ token })).body.call_id as string;
    const badBodies = [
      {},
      { ended_by: 'martian' },
      { ended_by: 'customer', extra: 1 },
      { ended_by: 'network', reason: 'bored' },
    ];
    for (const body of [...badBodies, []]) {
      const answer = await api(`/v1/calls/${callId}/end`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
    }
    const broken = await api(`/v1/calls/${callId}/end`, { rawBody: '{"ended_by":' });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('invalid_json');
    for (const body of [{ token, mode: 'robot' }, { token: '' }, { mode: 'ai' }]) {
      const answer = await connect(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
    }
  });

  it('carries the reason the BFF ended a call for in call.ended, and none when it gave none', async () => {
    const first = await voiceToken('caller-7');
    const tooLong = (await connect({ token: first.token })).body.call_id as string;
    const ended = await api(`/v1/calls/${tooLong}/end`, { body: { ended_by: 'network', reason: 'too_long' } });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toMatchObject({ call_id: tooLong, ended_by: 'network', reason: 'too_long' });
    const endings = (await eventsOf(first.conversationId)).filter((event) => event.type === 'call.ended');
    expect(endings.map((event) => event.data)).toEqual([ended.body]);

    const second = await voiceToken('caller-8');
    const plain = (await connect({ token: second.token })).body.call_id as string;
    const hungUp = await api(`/v1/calls/${plain}/end`, { body: { ended_by: 'customer' } });
    expect(hungUp.body).not.toHaveProperty('reason');
  });

  it('sends call.started and call.ended to a webhook endpoint, signed', async () => {
    const endpoint = (await api('/v1/webhook-endpoints', { body: { url: receiver.url } })).body as {
      secret: string;
    };
    const { conversationId, token } = await voiceToken('caller-6');
    const callId = (await connect({ token })).body.call_id as string;
    clock += 5_000;
    await api(`/v1/calls/${callId}/end`, { body: { ended_by: 'network' } });
    await engine.engine.webhooks.drain();
    const calls = receiver.received.filter((delivery) => delivery.body.includes(callId));
    expect(calls.map((delivery) => JSON.parse(delivery.body).type)).toEqual(['call.started', 'call.ended']);
    for (const { headers, body } of calls) {
      const problem = await verifyWebhook(
        endpoint.secret,
        headers['x-service-timestamp'] as string,
        headers['x-service-signature'] as string,
        body,
        clock,
      );
      expect(problem).toBeUndefined();
    }
    expect(JSON.parse(calls[1]!.body)).toMatchObject({
      conversation_id: conversationId,
      data: { call_id: callId, conversation_id: conversationId, duration_s: 5, ended_by: 'network' },
    });
  });
});
