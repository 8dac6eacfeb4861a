import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallAccepted, CallJoined, CallSignalCommand } from '../../shared/index.ts';
import { User } from '../../shared/schemas/helpdesk/index.ts';
import { fakeTranscriber } from '../../test/fake-stt.ts';
import { fakeSpeaker } from '../../test/fake-tts.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { wavOf } from '../../test/recording-fixtures.ts';
import { DRIVERS, engineConversationOf, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { customer, openStream } from '../../test/ai-call-clients.ts';
import { connectConsole, emit, heard } from './call-clients.ts';
import { writeCallsEnabled } from './calls-setting.ts';

/**
 * A handover during a call with the AI (issue 30), against the real BFF and engine with stand-ins
 * for the transcription and speech servers (no speech model runs here; test/fake-stt.ts,
 * fake-tts.ts): the customer asks for a person in a spoken turn, the engine hands over, and the
 * BFF rings the consoles for a person call of the customer's widget socket, or tells the widget
 * that nobody can take it now. A person who accepts ends the call with the AI: the BFF closes its
 * stream. On both stores.
 */
describe.each(DRIVERS)('a handover during a call with the AI on $name', (driver) => {
  let stack: TestStack;
  let stt: Awaited<ReturnType<typeof fakeTranscriber>>;
  let tts: Awaited<ReturnType<typeof fakeSpeaker>>;
  let admin: User;
  const sockets: Socket[] = [];

  const setAvailability = (availability: 'online' | 'offline') =>
    desk(`${stack.url}/api/v1/profile`, admin.access_token!, {
      method: 'PATCH',
      body: { account_id: stack.accountId, availability },
    });
  /** A customer on a call with the AI, joined, who asks for a person in their first turn. */
  const askingForPerson = async () => {
    stt.answer(() => ({ body: { text: 'I would like to talk to a person, please.' } }));
    const ann = await customer(stack, sockets);
    const started = await emit<CallJoined>(ann.socket, 'call:start', { conversation_id: ann.conversation.id });
    if (!started.ok) throw new Error(started.error.message);
    expect(started.data.with).toBe('ai');
    const stream = await openStream(stack.url, started.data.call_id);
    stream.socket.send(JSON.stringify({ type: 'join', token: ann.visitor.token }));
    await stream.waitFor('ready');
    stream.socket.send(wavOf(1, 16_000));
    await stream.waitFor('handover');
    return { ...ann, stream };
  };

  beforeAll(async () => {
    [stt, tts] = await Promise.all([fakeTranscriber(), fakeSpeaker()]);
    stack = await startStack(driver, {
      STT_BASE_URL: stt.baseUrl,
      TTS_BASE_URL: tts.baseUrl,
      DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN,
    });
    await writeCallsEnabled(stack.bffSql, stack.inboxId, true);
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@ai-calls.example' })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
  }, 180_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
    await stt?.close();
    await tts?.close();
  });

  it("rings the console; the person who accepts takes the call on, the BFF closes the AI's stream and signalling passes", async () => {
    expect((await setAvailability('online')).status).toBe(200);
    const agent = await connectConsole(stack.url, admin.access_token!, stack.accountId);
    sockets.push(agent.socket);
    const ann = await askingForPerson();
    const accepted = heard<CallAccepted>(ann.socket, 'call:accepted');
    const signalled = heard<CallSignalCommand>(ann.socket, 'call:signalled');

    const [ringing] = await ann.stream.waitFor('ringing');
    const callId = (ringing as { call_id: string }).call_id;
    await until(
      () => agent.rings,
      (rings) => rings.length > 0,
      "the console's ring",
    );
    expect(agent.rings).toEqual([expect.objectContaining({ call_id: callId })]);
    expect(await emit(agent.socket, 'call:accept', { call_id: callId })).toMatchObject({ ok: true });
    await until(
      () => accepted,
      (found) => found.length > 0,
      'the acceptance',
    );
    expect(accepted[0]).toMatchObject({ call_id: callId, person_name: 'Ada' });

    // The BFF closes the AI's stream on the acceptance (the widget does not here), and the engine ends its call.
    expect(await ann.stream.closing()).toBe(1000);
    const engineId = await engineConversationOf(stack, ann.conversation.id);
    await until(
      async () =>
        (
          (await request(`${stack.engineUrl}/v1/events?limit=1000`, { token: stack.apiKey })).body.events as {
            type: string;
            conversation_id: string;
          }[]
        ).filter((event) => event.conversation_id === engineId && event.type === 'call.ended'),
      (ended) => ended.length === 1,
      "the AI's call ended at the engine",
    );

    // The person call goes on: signalling passes both ways between the customer's socket and the console.
    const offer = { call_id: callId, signal: { type: 'offer', sdp: 'v=0' } };
    expect(await emit(ann.socket, 'call:signal', offer)).toEqual({ ok: true, data: null });
    await until(
      () => agent.signalled,
      (found) => found.length > 0,
      'the offer at the console',
    );
    const reply = { call_id: callId, signal: { type: 'answer', sdp: 'v=0' } };
    expect(await emit(agent.socket, 'call:signal', reply)).toEqual({ ok: true, data: null });
    await until(
      () => signalled,
      (found) => found.length > 0,
      'the answer at the widget',
    );
    expect(signalled[0]).toEqual(reply);
    expect(await emit(agent.socket, 'call:hang_up', { call_id: callId })).toEqual({ ok: true, data: null });
  });

  it('tells the widget that a person will answer in the chat when nobody is available, and rings nobody', async () => {
    expect((await setAvailability('offline')).status).toBe(200);
    const agent = await connectConsole(stack.url, admin.access_token!, stack.accountId);
    sockets.push(agent.socket);
    const ann = await askingForPerson();
    await ann.stream.waitFor('nobody_available');
    expect(ann.stream.received.some((message) => message.type === 'ringing')).toBe(false);
    expect(agent.rings).toEqual([]);
    ann.stream.socket.close(1000);
    expect(await ann.stream.closing()).toBe(1000);
  });
});
