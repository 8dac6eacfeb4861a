import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_NAMESPACE, WidgetConfig, type Ack, type CallJoined, type CallRinging } from '../../shared/index.ts';
import { Inbox, InboxList, User } from '../../shared/schemas/helpdesk/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { connectWidget, newVisitor, openWidgetConversation } from '../../test/widget-client.ts';

const emit = <T>(socket: Socket, event: string, payload: unknown): Promise<Ack<T>> =>
  new Promise((resolve) => socket.emit(event, payload, resolve));

/**
 * Person calls over the sockets (issue 30), against the real BFF and engine: a call is offered
 * and rings only where the inbox allows calls and someone is there; a customer reaches only their
 * own conversations and calls; a call is taken once; signalling goes between exactly its two sides.
 */
describe('person calls over the widget and desk sockets', () => {
  let stack: TestStack;
  let admin: User;
  let inbox: Inbox;
  const sockets: Socket[] = [];

  const app = (path: string, token: string, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);
  const setCalls = (on: boolean) =>
    app(`/inboxes/${inbox.id}`, admin.access_token!, { method: 'PATCH', body: { calls_enabled: on } });
  const customer = async () => {
    const visitor = await newVisitor(stack.url);
    const conversation = await openWidgetConversation(stack.url, visitor.token);
    const { socket } = await connectWidget(stack.url, visitor.token);
    sockets.push(socket);
    return { visitor, conversation, socket };
  };
  const console = async (token: string) => {
    const socket = io(stack.url + DESK_NAMESPACE, {
      auth: { token, account_id: stack.accountId },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    const rings: CallRinging[] = [];
    socket.on('call:ringing', (ringing: CallRinging) => rings.push(ringing));
    await new Promise((resolve, reject) => socket.once('connect', () => resolve(null)).once('connect_error', reject));
    return { socket, rings };
  };

  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
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

  it('refuses a call or a signal on a conversation or call of another customer', async () => {
    await setCalls(true);
    const ann = await customer();
    const bob = await customer();
    const notYours = await emit(bob.socket, 'call:start', { conversation_id: ann.conversation.id });
    expect(notYours).toEqual({ ok: false, error: expect.objectContaining({ code: 'not_found' }) });
    const started = await emit<CallJoined>(ann.socket, 'call:start', { conversation_id: ann.conversation.id });
    expect(started.ok).toBe(true);
    const callId = started.ok ? started.data.call_id : '';
    const signal = { call_id: callId, signal: { type: 'offer', sdp: 'v=0' } };
    expect(await emit(bob.socket, 'call:signal', signal)).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'not_found' }),
    });
    expect(await emit(bob.socket, 'call:hang_up', { call_id: callId })).toMatchObject({ ok: false });
    const bad = await emit(ann.socket, 'call:signal', { call_id: callId, signal: { type: 'offer' } });
    expect(bad).toEqual({ ok: false, error: expect.objectContaining({ code: 'invalid_request' }) });
    expect(await emit(ann.socket, 'call:hang_up', { call_id: callId })).toEqual({ ok: true, data: null });
  });

  it('rings the consoles, is taken once, relays between its two sides only, and ends with a line in the transcript', async () => {
    await setCalls(true);
    const first = await console(admin.access_token!);
    const second = await console(admin.access_token!);
    const ann = await customer();
    const accepted: unknown[] = [];
    ann.socket.on('call:accepted', (event: unknown) => accepted.push(event));
    const started = await emit<CallJoined>(ann.socket, 'call:start', { conversation_id: ann.conversation.id });
    if (!started.ok) throw new Error(started.error.message);
    const callId = started.data.call_id;
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

    const heard: unknown[] = [];
    first.socket.on('call:signalled', (event: unknown) => heard.push(event));
    second.socket.on('call:signalled', (event: unknown) => heard.push(event));
    const offer = { call_id: callId, signal: { type: 'offer', sdp: 'v=0' } };
    expect(await emit(ann.socket, 'call:signal', offer)).toEqual({ ok: true, data: null });
    await until(
      () => heard.length,
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
    expect(heard).toHaveLength(1);
  });
});
