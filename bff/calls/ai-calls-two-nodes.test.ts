import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallAccepted, CallJoined } from '../../shared/index.ts';
import { User } from '../../shared/schemas/helpdesk/index.ts';
import { customer, openStream } from '../../test/ai-call-clients.ts';
import { fakeTranscriber } from '../../test/fake-stt.ts';
import { fakeSpeaker } from '../../test/fake-tts.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { wavOf } from '../../test/recording-fixtures.ts';
import { DRIVERS, engineConversationOf, request, startStack, type BffNode, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { connectWidget } from '../../test/widget-client.ts';
import { connectConsole, emit, heard } from './call-clients.ts';
import { writeCallsEnabled } from './calls-setting.ts';

/**
 * Calls with the AI across two BFF nodes sharing PostgreSQL and Redis (the machine's real ones),
 * with stand-ins for the transcription and speech servers (test/fake-stt.ts, fake-tts.ts): a call
 * lives on the node that began it, yet its conversation takes no second call on the other node
 * (the call's row in the store, ai-call-claims.ts), and a person who accepts its handover on the
 * other node ends it there (a server-side event of the adapter, ai-call-hand-on.ts).
 */
const REDIS_URL = process.env['REDIS_TEST_URL'] ?? 'redis://127.0.0.1:6379';
const SECRETS_KEYS = 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc';

describe('calls with the AI between two BFF nodes', () => {
  let nodeA: TestStack;
  let nodeB: BffNode;
  let stt: Awaited<ReturnType<typeof fakeTranscriber>>;
  let tts: Awaited<ReturnType<typeof fakeSpeaker>>;
  let admin: User;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    [stt, tts] = await Promise.all([fakeTranscriber(), fakeSpeaker()]);
    nodeA = await startStack(DRIVERS[1], {
      REDIS_URL,
      SECRETS_KEYS,
      DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN,
      STT_BASE_URL: stt.baseUrl,
      TTS_BASE_URL: tts.baseUrl,
    });
    nodeB = await nodeA.startAnotherNode();
    await writeCallsEnabled(nodeA.bffSql, nodeA.inboxId, true);
    const platform = (path: string, body: unknown) =>
      desk(`${nodeA.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@ai-two-nodes.example' })).body);
    await platform(`/accounts/${nodeA.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
    await desk(`${nodeA.url}/api/v1/profile`, admin.access_token!, {
      method: 'PATCH',
      body: { account_id: nodeA.accountId, availability: 'online' },
    });
  }, 180_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await nodeB?.stop();
    await nodeA?.stop();
    await stt?.close();
    await tts?.close();
  });

  /** A customer's call with the AI begun on node A, its stream joined there. */
  const callOnA = async () => {
    const ann = await customer(nodeA, sockets);
    const started = await emit<CallJoined>(ann.socket, 'call:start', { conversation_id: ann.conversation.id });
    if (!started.ok) throw new Error(started.error.message);
    expect(started.data.with).toBe('ai');
    const stream = await openStream(nodeA.url, started.data.call_id);
    stream.socket.send(JSON.stringify({ type: 'join', token: ann.visitor.token }));
    await stream.waitFor('ready');
    return { ...ann, stream };
  };

  it("refuses a second call with the AI from a tab on node B while the conversation's call is on node A", async () => {
    const ann = await callOnA();
    const tabB = await connectWidget(nodeB.url, ann.visitor.token);
    sockets.push(tabB.socket);
    const again = await emit(tabB.socket, 'call:start', { conversation_id: ann.conversation.id });
    expect(again).toEqual({ ok: false, error: expect.objectContaining({ code: 'conflict' }) });
    ann.stream.socket.close(1000);
    expect(await ann.stream.closing()).toBe(1000);
  });

  it('ends the call with the AI on node A, at the engine too, when a person on node B accepts its handover', async () => {
    stt.answer(() => ({ body: { text: 'I would like to talk to a person, please.' } }));
    const agentB = await connectConsole(nodeB.url, admin.access_token!, nodeA.accountId);
    sockets.push(agentB.socket);
    const ann = await callOnA();
    const accepted = heard<CallAccepted>(ann.socket, 'call:accepted');
    ann.stream.socket.send(wavOf(1, 16_000));
    const [ringing] = await ann.stream.waitFor('ringing');
    const callId = (ringing as { call_id: string }).call_id;
    await until(
      () => agentB.rings.filter((ring) => ring.call_id === callId),
      (rings) => rings.length > 0,
      'the ring on node B',
    );
    expect(await emit(agentB.socket, 'call:accept', { call_id: callId })).toMatchObject({ ok: true });

    expect(await ann.stream.closing()).toBe(1000);
    await until(
      () => accepted,
      (found) => found.length > 0,
      'the acceptance on node A',
    );
    const engineId = await engineConversationOf(nodeA, ann.conversation.id);
    await until(
      async () =>
        (
          (await request(`${nodeA.engineUrl}/v1/events?limit=1000`, { token: nodeA.apiKey })).body.events as {
            type: string;
            conversation_id: string;
          }[]
        ).filter((event) => event.conversation_id === engineId && event.type === 'call.ended'),
      (ended) => ended.length === 1,
      "the AI's call ended at the engine",
    );
    expect(await emit(agentB.socket, 'call:hang_up', { call_id: callId })).toEqual({ ok: true, data: null });
    // Both calls leave their line before the nodes stop (so that no push of it races their Redis closing).
    await until(
      () =>
        nodeA.bffSql.query<{ text: string }>(
          "SELECT m.text FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.author = 'system'",
          [ann.conversation.id],
        ),
      (rows) => rows.filter((row) => row.text.startsWith('Call, ')).length === 2,
      'the lines of both calls',
    );
  });
});
