import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallEnded, CallJoined } from '../../shared/index.ts';
import { Inbox, InboxList, User } from '../../shared/schemas/helpdesk/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { connectWidget, newVisitor, openWidgetConversation } from '../../test/widget-client.ts';
import { connectConsole, emit, heard } from './call-clients.ts';

/**
 * The longest a person call may last (CALL_MAX_S, here 1 s): once answered and past it, the BFF
 * ends it for both sides with the reason `too_long`, and the call leaves its line in the transcript.
 */
describe('a person call past CALL_MAX_S', () => {
  let stack: TestStack;
  let admin: User;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN }, { callMaxS: 1, callLeaseMs: 1_500 });
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@limits.example' })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
    const app = (path: string, options: { method?: string; body?: unknown } = {}) =>
      desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, admin.access_token!, options);
    const inbox = InboxList.parse((await app('/inboxes')).body).payload[0] as Inbox;
    await app(`/inboxes/${inbox.id}`, { method: 'PATCH', body: { calls_enabled: true } });
    await desk(`${stack.url}/api/v1/profile`, admin.access_token!, {
      method: 'PATCH',
      body: { account_id: stack.accountId, availability: 'online' },
    });
  }, 180_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
  });

  it('ends the call for both sides as too_long, and writes its line', async () => {
    const agent = await connectConsole(stack.url, admin.access_token!, stack.accountId);
    const { token } = await newVisitor(stack.url);
    const conversation = await openWidgetConversation(stack.url, token);
    const { socket } = await connectWidget(stack.url, token);
    sockets.push(agent.socket, socket);
    const customerEnded = heard<CallEnded>(socket, 'call:ended');
    const started = await emit<CallJoined>(socket, 'call:start', { conversation_id: conversation.id });
    if (!started.ok) throw new Error(started.error.message);
    const callId = started.data.call_id;
    await until(
      () => agent.rings.length,
      (count) => count > 0,
      'the ring',
    );
    expect(await emit(agent.socket, 'call:accept', { call_id: callId })).toMatchObject({ ok: true });

    await until(
      () => customerEnded.length + agent.ended.length,
      (count) => count === 2,
      'the end on both sides',
    );
    for (const ended of [customerEnded[0], agent.ended[0]]) {
      expect(ended).toEqual({
        call_id: callId,
        duration_s: expect.any(Number),
        ended_by: 'network',
        missed: false,
        reason: 'too_long',
      });
      expect(ended!.duration_s).toBeGreaterThanOrEqual(1);
    }
    // Over: neither side may hang up or signal in it any more.
    expect(await emit(socket, 'call:hang_up', { call_id: callId })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const lines = () =>
      stack.bffSql.query<{ text: string }>(
        "SELECT m.text FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.author = 'system'",
        [conversation.id],
      );
    await until(lines, (rows) => rows.some((row) => /^Call, \d+ s$/.test(row.text)), 'the call line');
  });
});
