import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { VoiceStreamServerMessage } from '../../shared/index.ts';
import { fakeTranscriber } from '../../test/fake-stt.ts';
import { fakeSpeaker, speechOf } from '../../test/fake-tts.ts';
import { wavOf } from '../../test/recording-fixtures.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { speakable } from './speech-pieces.ts';

type Received = VoiceStreamServerMessage | { type: 'audio'; bytes: Buffer };

/** A client of the AI call's stream, as the BFF or a browser is: every message kept in order. */
async function openStream(url: string, callId: string, token: string) {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/v1/voice-sessions/stream?call_id=${callId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const received: Received[] = [];
  let closed: number | undefined;
  socket.on('message', (data, isBinary) => {
    const bytes = data as Buffer;
    received.push(isBinary ? { type: 'audio', bytes } : (JSON.parse(bytes.toString('utf8')) as Received));
  });
  socket.on('close', (code) => (closed = code));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('unexpected-response', reject));
  const waitFor = (type: Received['type'], count = 1) =>
    until(
      () => received.filter((message) => message.type === type),
      (found) => found.length >= count,
      `${count} ${type} message(s) on the stream`,
      30_000,
    );
  return { socket, received, waitFor, closed: () => closed };
}

/** The status a refused upgrade answers with. */
function refusedStatus(url: string, callId: string, token: string): Promise<number> {
  const socket = new WebSocket(
    `${url.replace('http', 'ws')}/v1/voice-sessions/stream?call_id=${callId}&token=${token}`,
  );
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('open', () => reject(new Error('the stream opened')));
    socket.once('error', () => undefined);
  });
}

describe.each(DRIVERS)('a call with the AI through speech APIs on $name', (driver) => {
  let engine: TestEngine;
  let stt: Awaited<ReturnType<typeof fakeTranscriber>>;
  let tts: Awaited<ReturnType<typeof fakeSpeaker>>;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });

  async function aiCall(customerRef: string) {
    const conversationId = (await api('/v1/conversations', { body: { customer_ref: customerRef } })).body.id as string;
    const token = (await api(`/v1/conversations/${conversationId}/voice-sessions`, { body: {} })).body.token as string;
    const connected = await request(`${engine.url}/v1/voice-sessions/connect`, { body: { token, mode: 'ai' } });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    return { conversationId, token, callId: connected.body.call_id as string };
  }

  const endingsOf = async (conversationId: string) =>
    ((await api('/v1/events?limit=1000')).body.events as { type: string; conversation_id: string; data: any }[])
      .filter((event) => event.conversation_id === conversationId && event.type === 'call.ended')
      .map((event) => event.data);

  beforeAll(async () => {
    // Stand-ins for whisper.cpp's server and a speech server (no speech model runs here): real HTTP,
    // the real OpenAI protocols, real WAV bytes.
    stt = await fakeTranscriber();
    tts = await fakeSpeaker();
    engine = await startEngine(driver, undefined, {
      media: { stt: { baseUrl: stt.baseUrl, model: 'whisper-1' } },
      tts: { baseUrl: tts.baseUrl, model: 'tts-1', voice: 'alloy', apiKey: 'sk-tts' },
    });
  });
  afterAll(async () => {
    tts?.release();
    await engine?.stop();
    await stt?.close();
    await tts?.close();
  });

  it('hears a spoken question, answers it with the brain, speaks the answer back, and keeps the turns as messages', async () => {
    stt.answer(() => ({ body: { text: 'How do I return an item?' } }));
    const { conversationId, token, callId } = await aiCall('ai-caller-1');
    const stream = await openStream(engine.url, callId, token);
    await stream.waitFor('ready');
    const question = wavOf(2, 16_000);
    stream.socket.send(question);

    await stream.waitFor('answer_end');
    expect(stt.requests.at(-1)!.bytes.equals(question)).toBe(true);
    const kinds = stream.received.map((message) => message.type);
    expect(kinds.slice(0, 3)).toEqual(['ready', 'transcript', 'answer']);
    expect(stream.received[1]).toEqual({ type: 'transcript', text: 'How do I return an item?' });
    const answer = (stream.received[2] as { text: string }).text;
    expect(answer.length).toBeGreaterThan(0);
    const audio = stream.received.filter((message) => message.type === 'audio');
    const spoken = tts.requests.slice(-audio.length);
    // Each piece is the stand-in's WAV for the words asked, and together they say the whole answer.
    expect(audio.map((message) => message.bytes)).toEqual(spoken.map((piece) => speechOf(piece.input)));
    expect(spoken.map((piece) => piece.input).join(' ')).toBe(speakable(answer));
    expect(spoken[0]).toMatchObject({
      model: 'tts-1',
      voice: 'alloy',
      responseFormat: 'wav',
      authorization: 'Bearer sk-tts',
    });
    expect(stream.received.at(-1)).toEqual({ type: 'answer_end', interrupted: false });

    const turns = (await api(`/v1/conversations/${conversationId}/transcript`)).body.turns as {
      role: string;
      text: string;
    }[];
    const asked = turns.findIndex((turn) => turn.role === 'customer' && turn.text === 'How do I return an item?');
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(
      turns
        .slice(asked + 1)
        .filter((turn) => turn.role === 'ai')
        .map((turn) => turn.text)
        .join('\n\n'),
    ).toBe(answer);

    // Hanging up ends the call, once; the token opens no second stream.
    stream.socket.close(1000);
    const endings = await until(
      () => endingsOf(conversationId),
      (found) => found.length > 0,
      'call.ended',
    );
    expect(endings).toEqual([
      { call_id: callId, conversation_id: conversationId, duration_s: expect.any(Number), ended_by: 'customer' },
    ]);
    expect(await refusedStatus(engine.url, callId, token)).toBe(401);
  }, 120_000);

  it('stops the speech when the customer barges in, and takes audio sent in pieces with turn_end', async () => {
    stt.answer(() => ({ body: { text: 'How long does delivery take?' } }));
    const { conversationId, token, callId } = await aiCall('ai-caller-2');
    const stream = await openStream(engine.url, callId, token);
    await stream.waitFor('ready');
    // The speech server is slow: the answer's first words are still being made when the customer talks over it.
    tts.hold();
    const before = tts.requests.length;
    const question = wavOf(1, 16_000);
    stream.socket.send(question.subarray(0, 1000));
    stream.socket.send(question.subarray(1000));
    stream.socket.send(JSON.stringify({ type: 'turn_end' }));
    await stream.waitFor('answer');
    await until(
      () => tts.requests.length,
      (count) => count > before,
      'the speech asked for',
    );
    stream.socket.send(JSON.stringify({ type: 'barge_in' }));

    await stream.waitFor('answer_end');
    expect(stream.received.at(-1)).toEqual({ type: 'answer_end', interrupted: true });
    expect(stream.received.some((message) => message.type === 'audio')).toBe(false);
    expect(stt.requests.at(-1)!.bytes.equals(question)).toBe(true);
    await until(() => tts.requests.at(-1)!.aborted, Boolean, 'the speech request given up');
    tts.release();

    // A dropped connection ends the call as the network's doing.
    stream.socket.terminate();
    const endings = await until(
      () => endingsOf(conversationId),
      (found) => found.length > 0,
      'call.ended',
    );
    expect(endings[0]).toMatchObject({ call_id: callId, ended_by: 'network' });
  });

  it('closes the stream when the call is ended through the API, and refuses bad messages without ending the call', async () => {
    const { conversationId, token, callId } = await aiCall('ai-caller-3');
    const stream = await openStream(engine.url, callId, token);
    await stream.waitFor('ready');
    stream.socket.send('not json');
    stream.socket.send(JSON.stringify({ type: 'turn_end' }));
    stream.socket.send(Buffer.from('this is no audio at all'));
    stream.socket.send(JSON.stringify({ type: 'turn_end' }));
    const errors = await stream.waitFor('error', 3);
    expect(errors.map((message) => (message as { code: string }).code)).toEqual([
      'invalid_request',
      'invalid_request',
      'unsupported_media_type',
    ]);
    const ended = await api(`/v1/calls/${callId}/end`, { body: { ended_by: 'person' } });
    expect(ended.status).toBe(200);
    await until(
      () => stream.closed(),
      (code) => code === 1000,
      'the stream closed',
    );
    expect(stream.received.at(-1)).toEqual({ type: 'call_ended', ended_by: 'person' });
    expect(await endingsOf(conversationId)).toHaveLength(1);
  });

  it('hands the conversation to people when the customer asks for one during the call, with the usual handover event', async () => {
    stt.answer(() => ({ body: { text: 'I would like to talk to a person, please.' } }));
    const { conversationId, token, callId } = await aiCall('ai-caller-6');
    const stream = await openStream(engine.url, callId, token);
    await stream.waitFor('ready');
    stream.socket.send(wavOf(1, 16_000));
    const [handover] = await stream.waitFor('handover');
    expect(handover).toMatchObject({ type: 'handover', reason: expect.any(String) });
    const events = (await api('/v1/events?limit=1000')).body.events as { type: string; conversation_id: string }[];
    expect(
      events.some((event) => event.conversation_id === conversationId && event.type === 'conversation.handover'),
    ).toBe(true);
    stream.socket.close(1000);
    await until(
      () => endingsOf(conversationId),
      (found) => found.length > 0,
      'call.ended',
    );
  });

  it('refuses a stream for a call with a person, for another call, and without a token', async () => {
    const conversationId = (await api('/v1/conversations', { body: { customer_ref: 'ai-caller-4' } })).body.id;
    const token = (await api(`/v1/conversations/${conversationId}/voice-sessions`, { body: {} })).body.token;
    const person = (await request(`${engine.url}/v1/voice-sessions/connect`, { body: { token } })).body.call_id;
    expect(await refusedStatus(engine.url, person, token)).toBe(401);
    const other = await aiCall('ai-caller-5');
    expect(await refusedStatus(engine.url, other.callId, token)).toBe(401);
    expect(await refusedStatus(engine.url, other.callId, '')).toBe(401);
    const plain = await request(`${engine.url}/v1/voice-sessions/stream?call_id=${other.callId}`);
    // Served on upgrades only: a plain GET finds no route.
    expect(plain.status).toBe(404);
  });
});
