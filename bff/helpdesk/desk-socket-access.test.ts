import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_NAMESPACE, type Ack, type DeskConversationChanged } from '../../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { DeskConversationList, Inbox, InboxList, User } from '../../shared/schemas/helpdesk/index.ts';
import { hashToken } from './store/credentials.ts';

interface DeskTab {
  socket: Socket;
  changes: DeskConversationChanged[];
  typing: { conversation_id: number; typing: boolean }[];
  /** Why the server closed it, once it did. */
  closed: string | undefined;
}

/**
 * A `/desk` socket lives only as long as what let it in: signing out, a new password, removal from
 * the account, deletion and a session's end close it; other inboxes or another role move it
 * between rooms. Before, a socket kept hearing (and typing) after all of these.
 */
describe('the /desk socket after its access changes', () => {
  let stack: TestStack;
  let admin: User;
  let inbox: Inbox;
  const tabs: Socket[] = [];
  const PASSWORD = 'correct horse battery';

  beforeAll(async () => {
    stack = await startStack(DRIVERS[0], { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN }, { feedPollMs: 0 });
    admin = await person('admin@access.example', 'administrator');
    inbox = InboxList.parse((await app('/inboxes', admin.access_token)).body).payload[0] as Inbox;
  });
  afterAll(async () => {
    for (const socket of tabs) socket.close();
    await stack?.stop();
  });

  const platform = (path: string, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, options);
  const app = (path: string, token: string | undefined, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);

  async function person(email: string, role: 'administrator' | 'agent') {
    const user = User.parse((await platform('/users', { body: { name: email, email, password: PASSWORD } })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { body: { user_id: user.id, role } });
    return user;
  }
  async function signIn(email: string): Promise<string> {
    const answer = await request(`${stack.url}/api/v1/sessions`, { body: { email, password: PASSWORD } });
    expect(answer.status).toBe(200);
    return answer.body.access_token as string;
  }

  function connect(token: string | undefined): Promise<DeskTab> {
    const socket = io(stack.url + DESK_NAMESPACE, {
      auth: { token, account_id: stack.accountId },
      transports: ['websocket'],
      reconnection: false,
    });
    tabs.push(socket);
    const tab: DeskTab = { socket, changes: [], typing: [], closed: undefined };
    socket.on('conversation:changed', (change: DeskConversationChanged) => tab.changes.push(change));
    socket.on('typing:changed', (change: DeskTab['typing'][number]) => tab.typing.push(change));
    socket.on('disconnect', (reason) => (tab.closed = reason));
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(tab));
      socket.once('connect_error', reject);
    });
  }
  const closedByServer = (tab: DeskTab) =>
    until(
      () => tab.closed,
      (reason) => reason === 'io server disconnect',
      'the server closing the socket',
    );
  const refusedAgain = (token: string | undefined) =>
    connect(token).then(
      () => 'connected',
      (error: Error) => error.message,
    );

  function emit<T>(socket: Socket, event: string, payload: unknown): Promise<Ack<T>> {
    return new Promise((resolve) => socket.emit(event, payload, resolve));
  }

  /** A visitor of the demo inbox writes; gives the conversation's number and the visitor's token. */
  async function customerWrites(text: string, token?: string) {
    const visitor = token ?? (await newVisitor(stack.url)).token;
    const { id: uuid } = await openWidgetConversation(stack.url, visitor);
    expect((await sendWidgetMessage(stack.url, visitor, uuid, text, `m-${randomUUID()}`)).status).toBe(201);
    await stack.bff.relay.settled();
    const found = DeskConversationList.parse(
      (await app('/conversations?status=all', admin.access_token)).body,
    ).data.payload.find((conversation) => conversation.uuid === uuid)!;
    return { id: found.id, uuid, token: visitor };
  }

  it('closes the console of a session that signs out, and its token is refused on the next connect', async () => {
    const user = await person('signs-out@access.example', 'administrator');
    const session = await signIn('signs-out@access.example');
    const signedOut = await connect(session);
    const other = await connect(await signIn('signs-out@access.example'));
    const apiToken = await connect(user.access_token);

    expect((await desk(`${stack.url}/api/v1/sessions/current`, session, { method: 'DELETE' })).status).toBe(200);
    await closedByServer(signedOut);
    expect(await refusedAgain(session)).toMatch(/^unauthorized/);
    // The person's other session and their API token are not signed out.
    await customerWrites('still heard by the others');
    await until(
      () => other.changes.length + apiToken.changes.length,
      (count) => count >= 2,
      'the pushes',
    );
    expect([other.closed, apiToken.closed]).toEqual([undefined, undefined]);
  });

  it("ends a person's console sessions when their password changes, and closes those consoles", async () => {
    const user = await person('new-password@access.example', 'administrator');
    const first = await connect(await signIn('new-password@access.example'));
    const second = await connect(await signIn('new-password@access.example'));
    const apiToken = await connect(user.access_token);

    const changed = await platform(`/users/${user.id}`, { method: 'PATCH', body: { password: 'a new long password' } });
    expect(changed.status).toBe(200);
    await closedByServer(first);
    await closedByServer(second);
    const left = await stack.bffSql.query("SELECT 1 FROM access_tokens WHERE user_id = $1 AND kind = 'session'", [
      user.id,
    ]);
    expect(left).toEqual([]);
    expect(apiToken.closed).toBeUndefined();
  });

  it('closes the consoles of a person removed from the account, and of a person deleted', async () => {
    const removed = await person('removed@access.example', 'administrator');
    const deleted = await person('deleted@access.example', 'administrator');
    const removedTab = await connect(await signIn('removed@access.example'));
    const deletedTab = await connect(deleted.access_token);

    const removal = await platform(`/accounts/${stack.accountId}/account_users`, {
      method: 'DELETE',
      body: { user_id: removed.id },
    });
    expect(removal.status).toBe(200);
    await closedByServer(removedTab);
    expect((await platform(`/users/${deleted.id}`, { method: 'DELETE' })).status).toBe(200);
    await closedByServer(deletedTab);
    expect(await refusedAgain(deleted.access_token)).toMatch(/^unauthorized/);
  });

  it('closes a console when its session ends on its own', async () => {
    await person('expires@access.example', 'agent');
    const session = await signIn('expires@access.example');
    await stack.bffSql.query('UPDATE access_tokens SET expires_at = $2 WHERE token_hash = $1', [
      hashToken(session),
      new Date(Date.now() + 1_500),
    ]);
    const tab = await connect(session);
    expect(tab.closed).toBeUndefined();
    await closedByServer(tab);
  });

  it('refuses a command once the session is gone, even before anything was told', async () => {
    await person('quiet@access.example', 'administrator');
    const session = await signIn('quiet@access.example');
    const tab = await connect(session);
    // Ended in the store behind the BFF's back (as another node or the housekeeping would): the next command finds out.
    await stack.bffSql.query('DELETE FROM access_tokens WHERE token_hash = $1', [hashToken(session)]);
    expect(await emit(tab.socket, 'conversation:watch', { conversation_id: null })).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
    await closedByServer(tab);
  });

  it("moves a console between rooms when its person's inboxes or role change: an inbox taken away is heard no more, nor typed in", async () => {
    const agent = await person('moved@access.example', 'agent');
    await app('/inbox_members', admin.access_token, { body: { inbox_id: inbox.id, user_ids: [agent.id] } });
    const tab = await connect(await signIn('moved@access.example'));
    const { id, token } = await customerWrites('first');
    await until(() => tab.changes.some((change) => change.id === id), Boolean, 'the push');
    expect(await emit(tab.socket, 'conversation:watch', { conversation_id: id })).toMatchObject({ ok: true });

    const taken = await app('/inbox_members', admin.access_token, {
      method: 'PATCH',
      body: { inbox_id: inbox.id, user_ids: [] },
    });
    expect(taken.status).toBe(200);
    // The room change is told through the adapter: once typing is refused, the rooms were checked too.
    await until(
      () => emit(tab.socket, 'typing:set', { conversation_id: id, typing: true }),
      (ack) => !ack.ok && ack.error.code === 'not_found',
      'typing refused',
    );
    const heardBefore = tab.changes.length;
    const admins = await connect(admin.access_token);
    const { id: next } = await customerWrites('second');
    await request(`${stack.url}/v1/widget/conversations/${(await customerWrites('third', token)).uuid}/typing`, {
      token,
      body: { typing: true },
    });
    await until(() => admins.changes.some((change) => change.id === next), Boolean, 'the push to the administrator');
    expect(tab.changes.length).toBe(heardBefore);
    expect(tab.typing).toEqual([]);
    expect(tab.closed).toBeUndefined();

    // Made an administrator: the console hears the whole account again, without reconnecting.
    await platform(`/accounts/${stack.accountId}/account_users`, {
      body: { user_id: agent.id, role: 'administrator' },
    });
    await until(
      async () => {
        const { id: later } = await customerWrites(`later ${Date.now()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        return tab.changes.some((change) => change.id === later);
      },
      Boolean,
      'the push after the promotion',
    );
    expect(tab.closed).toBeUndefined();
  });
});
