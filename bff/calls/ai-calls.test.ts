import WebSocket from 'ws';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_CALL_FRAME_BYTES, type Ack, type CallJoined } from '../../shared/index.ts';
import { fakeTranscriber } from '../../test/fake-stt.ts';
import { fakeSpeaker } from '../../test/fake-tts.ts';
import { wavOf } from '../../test/recording-fixtures.ts';
import { DRIVERS, engineConversationOf, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { writeCallsEnabled } from './calls-setting.ts';
import { MESSAGES_PER_MINUTE } from './ai-call-bridge.ts';
import { configOf, customer, openStream } from '../../test/ai-call-clients.ts';

const emit = <T>(socket: Socket, event: string, payload: unknown): Promise<Ack<T>> =>
  new Promise((resolve) => socket.emit(event, payload, resolve));

/**
 * Calls with the AI from the widget (issue 30), against the real BFF and engine, with stand-ins for
 * the transcription and speech servers (no speech model runs here; test/fake-stt.ts, fake-tts.ts):
 * the BFF relays the widget's stream to the engine's, keeps the turns, and refuses what it must; on
 * both stores, since a call's row there keeps one call per conversation (ai-call-claims.ts).
 */
describe.each(DRIVERS)('calls with the AI through the BFF on $name', (driver) => {
  let stack: TestStack;
  let stt: Awaited<ReturnType<typeof fakeTranscriber>>;
  let tts: Awaited<ReturnType<typeof fakeSpeaker>>;
  const sockets: Socket[] = [];

  const callTheAi = async (who: Awaited<ReturnType<typeof customer>>) => {
    const started = await emit<CallJoined>(who.socket, 'call:start', { conversation_id: who.conversation.id });
    if (!started.ok) throw new Error(started.error.message);
    expect(started.data.with).toBe('ai');
    return started.data.call_id;
  };
  const joined = async (callId: string, token: string) => {
    const stream = await openStream(stack.url, callId);
    stream.socket.send(JSON.stringify({ type: 'join', token }));
    await stream.waitFor('ready');
    return stream;
  };
  const messagesOf = (uuid: string) =>
    stack.bffSql.query<{ author: string; text: string; message_id: string | null }>(
      'SELECT m.author, m.text, m.message_id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 ORDER BY m.id',
      [uuid],
    );

  beforeAll(async () => {
    [stt, tts] = await Promise.all([fakeTranscriber(), fakeSpeaker()]);
    stack = await startStack(driver, { STT_BASE_URL: stt.baseUrl, TTS_BASE_URL: tts.baseUrl });
    await writeCallsEnabled(stack.bffSql, stack.inboxId, true);
  }, 180_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
    await stt?.close();
    await tts?.close();
  });

  it('offers Call and the AI takes it although nobody is available', async () => {
    const ann = await customer(stack, sockets);
    const config = await configOf(stack.url, ann.visitor.token);
    expect(config.inbox.people_available).not.toBe(true);
    expect(config.features.calls).toBe(true);
    const stream = await joined(await callTheAi(ann), ann.visitor.token);
    stream.socket.close(1000);
  });

  it('relays a spoken turn and the spoken answer, keeps both as messages, and ends with the call line', async () => {
    stt.answer(() => ({ body: { text: 'How do I return an item?' } }));
    const ann = await customer(stack, sockets);
    const callId = await callTheAi(ann);
    const stream = await joined(callId, ann.visitor.token);
    stream.socket.send(wavOf(1, 16_000));
    await stream.waitFor('answer_end');
    const kinds = stream.received.map((message) => message.type);
    expect(kinds.slice(0, 3)).toEqual(['ready', 'transcript', 'answer']);
    expect(kinds).toContain('audio');
    const answer = (stream.received[2] as { text: string }).text;

    await until(
      () => messagesOf(ann.conversation.id),
      (rows) => rows.some((row) => row.author === 'ai' && row.text === answer),
      "the AI's answer kept",
    );
    const rows = await messagesOf(ann.conversation.id);
    expect(rows).toContainEqual({
      author: 'customer',
      text: 'How do I return an item?',
      message_id: `${callId}.turn.1`,
    });

    stream.socket.close(1000);
    await until(
      () => messagesOf(ann.conversation.id),
      (found) => found.some((row) => row.author === 'system' && /^Call, \d+ s$/.test(row.text)),
      'the call line',
    );
    const engineId = await engineConversationOf(stack, ann.conversation.id);
    const events = await until(
      async () =>
        (
          (await request(`${stack.engineUrl}/v1/events?limit=1000`, { token: stack.apiKey })).body.events as {
            type: string;
            conversation_id: string;
            data: { ended_by?: string };
          }[]
        ).filter((event) => event.conversation_id === engineId && event.type.startsWith('call.')),
      (found) => found.length === 2,
      'call.started and call.ended',
    );
    expect(events.map((event) => event.type)).toEqual(['call.started', 'call.ended']);
    expect(events[1]!.data.ended_by).toBe('customer');
  }, 120_000);

  it('refuses a stream without a join, with a token that is not one, or for the call of another customer', async () => {
    const ann = await customer(stack, sockets);
    const bob = await customer(stack, sockets);
    const callId = await callTheAi(ann);

    const silent = await openStream(stack.url, callId);
    silent.socket.send(wavOf(1, 16_000));
    expect(await silent.closing()).toBe(4400);
    const forged = await openStream(stack.url, callId);
    forged.socket.send(JSON.stringify({ type: 'join', token: 'wst_not-a-token' }));
    expect(await forged.closing()).toBe(4401);
    expect(forged.received).toEqual([expect.objectContaining({ type: 'error', code: 'unauthorized' })]);
    const other = await openStream(stack.url, callId);
    other.socket.send(JSON.stringify({ type: 'join', token: bob.visitor.token }));
    expect(await other.closing()).toBe(4404);

    // None of them took the call: its customer still joins it.
    const stream = await joined(callId, ann.visitor.token);
    stream.socket.close(1000);
  });

  it('refuses a call on the conversation of another customer, a second call, and a second window on one call', async () => {
    const ann = await customer(stack, sockets);
    const bob = await customer(stack, sockets);
    const notYours = await emit(bob.socket, 'call:start', { conversation_id: ann.conversation.id });
    expect(notYours).toEqual({ ok: false, error: expect.objectContaining({ code: 'not_found' }) });
    const callId = await callTheAi(ann);
    const again = await emit(ann.socket, 'call:start', { conversation_id: ann.conversation.id });
    expect(again).toEqual({ ok: false, error: expect.objectContaining({ code: 'conflict' }) });

    const stream = await joined(callId, ann.visitor.token);
    const second = await openStream(stack.url, callId);
    second.socket.send(JSON.stringify({ type: 'join', token: ann.visitor.token }));
    expect(await second.closing()).toBe(4409);
    stream.socket.close(1000);
  });

  it('holds its conversation in the store while the call is on, and lets it call the AI again once it ended', async () => {
    const ann = await customer(stack, sockets);
    const callId = await callTheAi(ann);
    const held = () =>
      stack.bffSql.query<{ id: string }>(
        'SELECT a.id FROM ai_calls a JOIN conversations c ON c.id = a.conversation_id WHERE c.uuid = $1',
        [ann.conversation.id],
      );
    expect(await held()).toEqual([{ id: callId }]);
    const stream = await joined(callId, ann.visitor.token);
    stream.socket.close(1000);
    await until(held, (rows) => rows.length === 0, "the call's row let go");

    const next = await callTheAi(ann);
    expect(await held()).toEqual([{ id: next }]);
    (await joined(next, ann.visitor.token)).socket.close(1000);
  });

  it('refuses a turn over the size cap and messages over the rate cap without ending the call; a far larger frame closes it', async () => {
    const ann = await customer(stack, sockets);
    const stream = await joined(await callTheAi(ann), ann.visitor.token);
    stream.socket.send(Buffer.alloc(AI_CALL_FRAME_BYTES + 1));
    await stream.waitFor('error');
    expect(stream.received.at(-1)).toMatchObject({ type: 'error', code: 'payload_too_large' });
    for (let i = 0; i <= MESSAGES_PER_MINUTE; i++) stream.socket.send(JSON.stringify({ type: 'barge_in' }));
    const errors = await stream.waitFor('error', 2);
    expect(errors[1]).toMatchObject({ code: 'rate_limited' });
    expect(stream.socket.readyState).toBe(WebSocket.OPEN);

    stream.socket.send(Buffer.alloc(3 * AI_CALL_FRAME_BYTES));
    expect(await stream.closing()).toBe(1009);
  });
});

describe('calls from the widget when the engine has no speech', () => {
  let stack: TestStack;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startStack();
    await writeCallsEnabled(stack.bffSql, stack.inboxId, true);
  }, 180_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
  });

  it('reaches people only: with nobody available the call is not offered, although the AI has the conversation', async () => {
    const ann = await customer(stack, sockets);
    expect((await configOf(stack.url, ann.visitor.token)).features.calls).toBeUndefined();
    const refused = await emit(ann.socket, 'call:start', { conversation_id: ann.conversation.id });
    expect(refused).toEqual({ ok: false, error: expect.objectContaining({ code: 'not_available' }) });
  });
});
