import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_NAMESPACE, type Ack, type DeskConversationChanged } from '../../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { DeskConversation, DeskConversationList, Inbox, InboxList, User } from '../../shared/schemas/helpdesk/index.ts';

interface DeskTab {
  socket: Socket;
  changes: DeskConversationChanged[];
  typing: { conversation_id: number; typing: boolean }[];
  reads: { conversation_id: number; last_read_id: number }[];
}

/**
 * The people's socket (`/desk`): only a person (or bot) of the account connects, never with a
 * widget token; each hears of the inboxes they may see, and only the conversation they watch
 * brings the customer's typing and read marks.
 */
describe('the /desk socket for the agent console', () => {
  let stack: TestStack;
  let admin: User;
  let otherAdmin: User;
  let agent: User;
  let outsider: User;
  let inbox: Inbox;
  let otherInbox: Inbox;
  const tabs: Socket[] = [];

  beforeAll(async () => {
    // On PostgreSQL, where an agent's inbox query is a round trip that a command sent at connect can overtake.
    stack = await startStack(DRIVERS[1], { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN }, { feedPollMs: 0 });
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    const person = async (name: string, email: string, role?: 'administrator' | 'agent', account = stack.accountId) => {
      const user = User.parse((await platform('/users', { name, email })).body);
      if (role) await platform(`/accounts/${account}/account_users`, { user_id: user.id, role });
      return user;
    };
    admin = await person('Ada', 'ada@socket.example', 'administrator');
    otherAdmin = await person('Bea', 'bea@socket.example', 'administrator');
    agent = await person('Sam', 'sam@socket.example', 'agent');
    const elsewhere = (await platform('/accounts', { name: 'Another shop' })).body as { id: number };
    outsider = await person('Kim', 'kim@socket.example', 'administrator', elsewhere.id);
    inbox = InboxList.parse((await app('/inboxes', admin.access_token)).body).payload[0] as Inbox;
    otherInbox = Inbox.parse((await app('/inboxes', admin.access_token, { body: { name: 'Wholesale' } })).body);
    // Sam answers the other inbox only.
    await app('/inbox_members', admin.access_token, { body: { inbox_id: otherInbox.id, user_ids: [agent.id] } });
  });
  afterAll(async () => {
    for (const socket of tabs) socket.close();
    await stack?.stop();
  });

  const app = (path: string, token: string | undefined, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);

  function connect(auth: Record<string, unknown>): Promise<DeskTab> {
    const socket = io(stack.url + DESK_NAMESPACE, { auth, transports: ['websocket'], reconnection: false });
    tabs.push(socket);
    const tab: DeskTab = { socket, changes: [], typing: [], reads: [] };
    socket.on('conversation:changed', (change: DeskConversationChanged) => tab.changes.push(change));
    socket.on('typing:changed', (change: DeskTab['typing'][number]) => tab.typing.push(change));
    socket.on('read:changed', (change: DeskTab['reads'][number]) => tab.reads.push(change));
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(tab));
      socket.once('connect_error', reject);
    });
  }

  const refused = (auth: Record<string, unknown>) =>
    connect(auth).then(
      () => 'connected',
      (error: Error) => error.message,
    );

  function emit<T>(socket: Socket, event: string, payload: unknown): Promise<Ack<T>> {
    return new Promise((resolve) => socket.emit(event, payload, resolve));
  }

  /** A visitor of the demo inbox writes; gives the conversation's number and the visitor's token. */
  async function customerWrites(text: string) {
    const { token } = await newVisitor(stack.url);
    const { id: uuid } = await openWidgetConversation(stack.url, token);
    expect((await sendWidgetMessage(stack.url, token, uuid, text, `m-${uuid}`)).status).toBe(201);
    await stack.bff.relay.settled();
    const found = DeskConversationList.parse(
      (await app('/conversations?status=all', admin.access_token)).body,
    ).data.payload.find((conversation) => conversation.uuid === uuid)!;
    return { id: found.id, uuid, token };
  }

  it('lets in only people of the account with their token: not a widget token, not another account, not a stranger', async () => {
    const { token: widgetToken } = await newVisitor(stack.url);
    expect(await refused({ token: widgetToken, account_id: stack.accountId })).toMatch(/^unauthorized/);
    expect(await refused({ token: outsider.access_token, account_id: stack.accountId })).toMatch(/^unauthorized/);
    expect(await refused({ token: 'not-a-token', account_id: stack.accountId })).toMatch(/^unauthorized/);
    expect(await refused({ token: admin.access_token })).toMatch(/^unauthorized/);
    expect(await refused({ token: admin.access_token, account_id: 'one; DROP TABLE' })).toMatch(/^unauthorized/);
    expect(await refused({})).toMatch(/^unauthorized/);
    expect(await refused({ token: admin.access_token, account_id: stack.accountId })).toBe('connected');
  });

  it('tells every console that sees the inbox what changed, live: a new conversation, a handover, an assignment', async () => {
    const first = await connect({ token: admin.access_token, account_id: stack.accountId });
    const second = await connect({ token: otherAdmin.access_token, account_id: stack.accountId });
    const sam = await connect({ token: agent.access_token, account_id: stack.accountId });
    const { id } = await customerWrites('I want to talk to a person');
    await until(
      () => first.changes.some((change) => change.id === id && change.what === 'status'),
      Boolean,
      'the push',
    );
    expect(first.changes.filter((change) => change.id === id).map((change) => change.what)).toEqual(
      expect.arrayContaining(['created', 'message', 'status']),
    );
    expect(first.changes.every((change) => change.inbox_id === inbox.id || change.inbox_id === otherInbox.id)).toBe(
      true,
    );

    // One person assigns it to themselves; the other person's console hears it at once.
    expect(
      (await app(`/conversations/${id}/assignments`, admin.access_token, { body: { assignee_id: admin.id } })).status,
    ).toBe(200);
    await until(
      () => second.changes.some((change) => change.id === id && change.what === 'assignee'),
      Boolean,
      'the push',
    );
    // Sam does not answer this inbox: he hears nothing of it.
    expect(sam.changes.filter((change) => change.id === id)).toEqual([]);
  });

  it('answers a command sent the moment the console connects', async () => {
    let lost = 0;
    for (let attempt = 0; attempt < 20; attempt++) {
      // An agent: their console's rooms come from a query about the inboxes they answer.
      const socket = io(stack.url + DESK_NAMESPACE, {
        auth: { token: agent.access_token, account_id: stack.accountId },
        transports: ['websocket'],
        reconnection: false,
      });
      // Sent in the same tick as the connect event, as a console that opens on a conversation does.
      const ack = await new Promise<Ack<{ conversation_id: number | null }> | undefined>((resolve) => {
        socket.once('connect', () =>
          socket
            .timeout(5_000)
            .emit(
              'conversation:watch',
              { conversation_id: null },
              (error: Error | null, answer: Ack<{ conversation_id: number | null }>) =>
                resolve(error ? undefined : answer),
            ),
        );
        socket.once('connect_error', () => resolve(undefined));
      });
      socket.close();
      if (ack) expect(ack).toEqual({ ok: true, data: { conversation_id: null } });
      else lost++;
    }
    expect(lost, 'commands sent right after connect that were never answered, of 20').toBe(0);
  });

  it("lets a console watch only a conversation it may see, and then brings the customer's typing and read marks; the person's typing reaches the widget", async () => {
    const { id, uuid, token } = await customerWrites('Hello?');
    const sam = await connect({ token: agent.access_token, account_id: stack.accountId });
    const refusedWatch = await emit(sam.socket, 'conversation:watch', { conversation_id: id });
    expect(refusedWatch).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await emit(sam.socket, 'conversation:watch', { conversation_id: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await emit(sam.socket, 'typing:set', { conversation_id: id, typing: true })).toMatchObject({
      ok: false,
      error: { code: 'invalid_state' },
    });

    const ada = await connect({ token: admin.access_token, account_id: stack.accountId });
    expect(await emit(ada.socket, 'conversation:watch', { conversation_id: id })).toEqual({
      ok: true,
      data: { conversation_id: id },
    });
    await request(`${stack.url}/v1/widget/conversations/${uuid}/typing`, { token, body: { typing: true } });
    await until(() => ada.typing.some((change) => change.conversation_id === id && change.typing), Boolean, 'the push');
    expect(sam.typing).toEqual([]);

    // The person types: the customer's widget hears typing:changed from a human.
    const widget = io(`${stack.url}/widget`, { auth: { token }, transports: ['websocket'], reconnection: false });
    tabs.push(widget);
    const seen: { who: string; typing: boolean }[] = [];
    widget.on('typing:changed', (change: { who: string; typing: boolean }) => seen.push(change));
    await new Promise<void>((resolve) => widget.once('connect', () => resolve()));
    expect(await emit(ada.socket, 'typing:set', { conversation_id: id, typing: true })).toEqual({
      ok: true,
      data: null,
    });
    await until(() => seen.some((change) => change.who === 'human' && change.typing), Boolean, 'the push');

    // The customer reads, and then people read: each side sees the other's read mark.
    const messages = (await request(`${stack.url}/v1/widget/conversations/${uuid}/messages`, { token })).body
      .messages as { id: number }[];
    await request(`${stack.url}/v1/widget/conversations/${uuid}/read`, {
      token,
      body: { last_read_id: messages.at(-1)!.id },
    });
    await until(
      () => ada.reads.some((change) => change.conversation_id === id && change.last_read_id === messages.at(-1)!.id),
      Boolean,
      'the push',
    );
    const before = DeskConversation.parse((await app(`/conversations/${id}`, admin.access_token)).body);
    expect(before.unread_count).toBe(1);
    const read = DeskConversation.parse(
      (await app(`/conversations/${id}/update_last_seen`, admin.access_token, { body: {} })).body,
    );
    expect(read.unread_count).toBe(0);
    const statuses = (await request(`${stack.url}/v1/widget/conversations/${uuid}/messages`, { token })).body
      .messages as { author: string; status: string }[];
    expect(statuses.filter((message) => message.author === 'customer').map((message) => message.status)).toEqual([
      'read',
    ]);

    // A console that closes while its person types: the widget hears that they stopped.
    ada.socket.close();
    await until(
      () => seen.at(-1),
      (last) => last?.who === 'human' && last.typing === false,
      'the end of the typing',
    );
  });
});
