import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_NAMESPACE, type WidgetMessage } from '../../shared/index.ts';
import { parseSessionKeys, SessionTokens } from '../../shared/server/index.ts';
import {
  DEMO_SITE_KEY,
  DRIVERS,
  request,
  startStack,
  type TestStack,
  engineConversationOf,
  engineMove,
} from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';

interface Received {
  name: string;
  data: any;
}

interface Tab {
  socket: Socket;
  /** Every event the server pushed to this socket, in order. */
  events: Received[];
}

type Ack = { ok: true; data: any } | { ok: false; error: { code: string; message: string } };

const SESSION_KEYS = `rt1:${randomBytes(32).toString('base64url')}`;

describe.each(DRIVERS)('BFF realtime over Socket.IO on $name', (driver) => {
  let stack: TestStack;
  let tabs: Socket[] = [];

  beforeAll(async () => {
    // A known session key (to mint an expired token), the feed read by hand, and the AI's typing
    // indicator at every message, however quick its answer (300 ms by default; see the end).
    stack = await startStack(driver, { SESSION_KEYS }, { feedPollMs: 0, aiTypingAfterMs: 0 });
  });
  afterEach(() => {
    for (const socket of tabs) socket.close();
    tabs = [];
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const widget = (path: string) => `${stack.url}/v1/widget${path}`;
  const visitor = () => newVisitor(stack.url);
  const openConversation = async (token: string): Promise<string> =>
    (await openWidgetConversation(stack.url, token)).id;
  const messages = async (token: string, id: string, after = 0): Promise<WidgetMessage[]> => {
    const response = await request(widget(`/conversations/${id}/messages?after=${after}`), { token });
    expect(response.status).toBe(200);
    return response.body.messages as WidgetMessage[];
  };
  const send = (token: string, id: string, text: string, messageId: string) =>
    sendWidgetMessage(stack.url, token, id, text, messageId);
  const engineId = (uuid: string) => engineConversationOf(stack, uuid);
  const engine = (engineConversationId: string, move: string, body: object = {}) =>
    engineMove(stack, engineConversationId, move, body);

  function socketFor(token: string | undefined): Socket {
    const socket = io(stack.url + WIDGET_NAMESPACE, {
      ...(token === undefined ? {} : { auth: { token } }),
      transports: ['websocket'],
      reconnection: false,
    });
    tabs.push(socket);
    return socket;
  }

  /** A socket of `token`, resolved once connected (before the server may be listening to its commands). */
  function rawConnect(token: string): Promise<Tab> {
    const socket = socketFor(token);
    const events: Received[] = [];
    socket.onAny((name: string, data: unknown) => events.push({ name, data }));
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve({ socket, events }));
      socket.once('connect_error', reject);
    });
  }

  /**
   * Waits until the server answers this socket's commands. The BFF attaches its command handlers
   * (and joins the socket's rooms) only after a database query that follows the handshake, so a
   * command sent at once can be lost; that is shown by its own test below, and kept out of the others.
   */
  async function ready(socket: Socket): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        await socket.timeout(100).emitWithAck('read:mark', null);
        return;
      } catch {
        // Not listening yet.
      }
    }
    throw new Error('the socket never answered a command');
  }

  async function connect(token: string): Promise<Tab> {
    const tab = await rawConnect(token);
    await ready(tab.socket);
    return tab;
  }

  function refusal(token: string | undefined): Promise<Error & { data?: any }> {
    const socket = socketFor(token);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => reject(new Error('the socket was let in')));
      socket.once('connect_error', resolve);
    });
  }

  const emit = (tab: Tab, event: string, payload: unknown, timeoutMs = 5000): Promise<Ack> =>
    tab.socket.timeout(timeoutMs).emitWithAck(event, payload) as Promise<Ack>;
  const named = (tab: Tab, name: string) =>
    tab.events.filter((event) => event.name === name).map((event) => event.data);
  const created = (tab: Tab) => named(tab, 'message:created') as WidgetMessage[];
  const indexOf = (tab: Tab, match: (event: Received) => boolean) => tab.events.findIndex(match);

  it('pushes a message sent over HTTP and the AI reply to every tab of the customer, and a repeated message_id pushes nothing', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tabA = await connect(token);
    const tabB = await connect(token);
    const stranger = await connect((await visitor()).token);

    const response = await send(token, id, 'How do I return an item?', 'sock-1');
    expect(response.status).toBe(201);
    const sent = response.body as WidgetMessage;
    expect(sent).toMatchObject({
      conversation_id: id,
      author: 'customer',
      text: 'How do I return an item?',
      message_id: 'sock-1',
      status: 'sent',
    });

    for (const tab of [tabA, tabB]) {
      const pushed = await until(
        () => created(tab),
        (list) => list.length >= 2,
        'the message and the reply on every tab',
      );
      expect(pushed[0]).toEqual(sent);
      expect(pushed[1]).toMatchObject({ conversation_id: id, author: 'ai' });
      expect(pushed[1]!.text).toContain('within 30 days');
    }
    await stack.bff.relay.settled();
    const stored = await messages(token, id);
    expect(stored.map((message) => message.id)).toEqual(created(tabA).map((message) => message.id));

    const again = await send(token, id, 'How do I return an item?', 'sock-1');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...sent, status: 'read' });
    await stack.bff.relay.settled();
    expect(await messages(token, id)).toEqual(stored);
    for (const tab of [tabA, tabB]) expect(created(tab)).toHaveLength(2);
    // Another customer's socket hears nothing of it.
    expect(stranger.events).toEqual([]);
  });

  it("marks Socket.IO's own HTTP answers (the polling handshake, a refused one) nosniff, as every other answer", async () => {
    const handshake = await fetch(`${stack.url}/socket.io/?EIO=4&transport=polling`);
    expect(handshake.status).toBe(200);
    expect(handshake.headers.get('x-content-type-options')).toBe('nosniff');
    await handshake.text();
    const refused = await fetch(`${stack.url}/socket.io/?EIO=4&transport=polling&sid=unknown`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('takes no message over the socket: message:send is not a command (messages go over HTTP only) and stores nothing', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    await expect(
      emit(tab, 'message:send', { conversation_id: id, text: 'hi', message_id: 'sock-none' }, 500),
    ).rejects.toThrow();
    expect(tab.socket.connected).toBe(true);
    await stack.bff.relay.settled();
    expect(await messages(token, id)).toEqual([]);
    expect(created(tab)).toEqual([]);
  });

  describe('every client payload is validated', () => {
    let token: string;
    let id: string;
    let tab: Tab;
    beforeAll(async () => {
      token = (await visitor()).token;
      id = await openConversation(token);
    });

    it.each([
      { name: 'a missing last_read_id', payload: () => ({ conversation_id: id }), code: 'invalid_request' },
      {
        name: 'a last_read_id that is text',
        payload: () => ({ conversation_id: id, last_read_id: 'all' }),
        code: 'invalid_request',
      },
      {
        name: 'an unknown field',
        payload: () => ({ conversation_id: id, last_read_id: 1, author: 'ai' }),
        code: 'invalid_request',
      },
      {
        name: 'a conversation id with the NUL character, which PostgreSQL cannot store',
        payload: () => ({ conversation_id: 'a\u0000b', last_read_id: 1 }),
        code: 'invalid_request',
      },
      {
        name: 'a conversation id of 5,000 characters',
        payload: () => ({ conversation_id: 'x'.repeat(5000), last_read_id: 1 }),
        code: 'invalid_request',
      },
      { name: 'no payload object', payload: () => 'hello', code: 'invalid_request' },
      {
        name: 'a conversation id that is not a string',
        payload: () => ({ conversation_id: 7, last_read_id: 1 }),
        code: 'invalid_request',
      },
      {
        name: 'a malformed conversation id',
        payload: () => ({ conversation_id: 'not-a-uuid', last_read_id: 1 }),
        code: 'not_found',
      },
      {
        name: 'an unknown conversation id',
        payload: () => ({ conversation_id: '00000000-0000-4000-8000-000000000000', last_read_id: 1 }),
        code: 'not_found',
      },
    ])('read:mark with $name acks {ok:false} with $code and changes nothing', async ({ payload, code }) => {
      tab = await connect(token);
      const ack = await emit(tab, 'read:mark', payload());
      expect(ack).toEqual({ ok: false, error: { code, message: expect.any(String) } });
      const [row] = await stack.bffSql.query<{ last_read_id: number }>(
        'SELECT customer_last_read_id AS last_read_id FROM conversations WHERE uuid = $1',
        [id],
      );
      expect(row!.last_read_id).toBe(0);
    });

    it("read:mark in another customer's conversation acks not_found and tells its owner nothing", async () => {
      const owner = (await visitor()).token;
      const theirs = await openConversation(owner);
      const ownerTab = await connect(owner);
      tab = await connect(token);
      const ack = await emit(tab, 'read:mark', { conversation_id: theirs, last_read_id: 1 });
      expect(ack).toEqual({ ok: false, error: { code: 'not_found', message: expect.any(String) } });
      expect(ownerTab.events).toEqual([]);
    });

    it('survives bad typing:set and read:mark payloads: the socket stays connected and a later valid command works', async () => {
      tab = await connect(token);
      const badTyping: unknown[][] = [
        [],
        [null],
        ['typing'],
        [{ conversation_id: id }],
        [{ conversation_id: id, typing: 'yes' }],
        [{ conversation_id: id, typing: true, extra: 1 }],
        [{ conversation_id: 5, typing: true }],
        [{ conversation_id: 'x'.repeat(5000), typing: true }],
      ];
      for (const args of badTyping) tab.socket.emit('typing:set', ...args);
      // read:mark without an ack, and with an ack that is not a function.
      const badReads: unknown[] = [
        undefined,
        null,
        42,
        { conversation_id: id },
        { conversation_id: id, last_read_id: -1 },
        { conversation_id: id, last_read_id: 1.5 },
        { conversation_id: id, last_read_id: '3' },
        { conversation_id: id, last_read_id: 1, more: true },
      ];
      for (const payload of badReads) tab.socket.emit('read:mark', payload);
      tab.socket.emit('read:mark', { conversation_id: id, last_read_id: 0 }, 'not a function');
      for (const payload of badReads.slice(1)) {
        const ack = await emit(tab, 'read:mark', payload);
        expect(ack).toEqual({ ok: false, error: { code: 'invalid_request', message: expect.any(String) } });
      }

      expect(tab.socket.connected).toBe(true);
      tab.socket.emit('typing:set', { conversation_id: id, typing: true });
      expect(await emit(tab, 'read:mark', { conversation_id: id, last_read_id: 0 })).toEqual({
        ok: true,
        data: { last_read_id: 0, unread: 0 },
      });
      expect((await send(token, id, 'Do you ship abroad?', 'after-the-bad-ones')).status).toBe(201);
      expect(tab.socket.connected).toBe(true);
      await stack.bff.relay.settled();
      const stored = await until(
        () => messages(token, id),
        (list) => list.length >= 2,
        'the answer',
      );
      expect(stored.map((message) => [message.author, message.message_id])).toEqual([
        ['customer', 'after-the-bad-ones'],
        ['ai', null],
      ]);
      const read = await emit(tab, 'read:mark', { conversation_id: id, last_read_id: stored[1]!.id });
      expect(read).toEqual({ ok: true, data: { last_read_id: stored[1]!.id, unread: 0 } });
      // A fresh connection is let in too: nothing on the server fell over.
      expect((await connect(token)).socket.connected).toBe(true);
    });
  });

  it('pushes no message:updated when the AI answers: its answer says the message arrived, and the store has it read', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    const response = await send(token, id, 'Which payment methods do you accept?', 'upd-1');
    expect(response.status).toBe(201);
    const sent = response.body as WidgetMessage;

    await until(
      () => created(tab),
      (list) => list.some((message) => message.author === 'ai'),
      'the answer',
    );
    await stack.bff.relay.settled();
    expect(named(tab, 'message:updated')).toEqual([]);
    // Read by cursor (a reconnect, another device), the message is read.
    expect((await messages(token, id)).find((message) => message.id === sent.id)?.status).toBe('read');
  });

  it("pushes a person's read of the customer's message (a person's answer is no AI answer)", async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    expect((await send(token, id, 'I want to talk to a person', 'upd-human-1')).status).toBe(201);
    await until(
      () => named(tab, 'conversation:handed_over'),
      (list) => list.length >= 1,
      'the handover',
    );
    await stack.bff.relay.settled();
    const response = await send(token, id, 'Are you there?', 'upd-human-2');
    expect(response.status).toBe(201);
    await stack.bff.relay.settled();
    expect(
      (await engine(await engineId(id), 'human-messages', { text: 'Sam here, reading you now.', author_name: 'Sam' }))
        .status,
    ).toBe(200);
    await stack.bff.feed.catchUp();
    await until(
      () => named(tab, 'message:updated'),
      (list) => list.some((update) => update.id === (response.body as WidgetMessage).id && update.status === 'read'),
      'the read',
    );
  });

  it("does not push a message back to the tab that sent it with its socket_id; the customer's other tabs get it", async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const sender = await connect(token);
    const other = await connect(token);
    const response = await request(widget(`/conversations/${id}/messages`), {
      token,
      body: { text: 'Do you ship abroad?', message_id: 'echo-1', socket_id: sender.socket.id },
    });
    expect(response.status).toBe(201);
    await until(
      () => created(sender),
      (list) => list.some((message) => message.author === 'ai'),
      'the answer in the sending tab',
    );
    await until(
      () => created(other),
      (list) => list.some((message) => message.author === 'ai'),
      'the answer in the other tab',
    );
    await stack.bff.relay.settled();
    expect(created(sender).map((message) => message.author)).toEqual(['ai']);
    expect(created(other).map((message) => message.author)).toEqual(['customer', 'ai']);
    expect(created(other)[0]!.id).toBe((response.body as WidgetMessage).id);
  });

  it('refuses a socket_id that is no socket id with 400 and keeps nothing', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    for (const socketId of ['', 'a b', 'x'.repeat(65), 42, '../room', 'session:abc', `customer:${id}:visitor`]) {
      const response = await request(widget(`/conversations/${id}/messages`), {
        token,
        body: {
          text: 'Hello',
          message_id: `bad-socket-${String(socketId).length}-${typeof socketId}`,
          socket_id: socketId,
        },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
      expect(response.body.error.message).toContain('socket_id');
    }
    expect(await messages(token, id)).toEqual([]);
  });

  it('pushes typing:changed for the AI while it works; the "not typing" that rides with its answer is not pushed (the widget stops the indicator on an answer)', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    expect((await send(token, id, 'Do you ship abroad?', 'typing-1')).status).toBe(201);
    await until(
      () => created(tab),
      (list) => list.some((message) => message.author === 'ai'),
      'the answer',
    );
    await stack.bff.relay.settled();
    const on = indexOf(tab, (event) => event.name === 'typing:changed' && event.data.typing === true);
    const reply = indexOf(tab, (event) => event.name === 'message:created' && event.data.author === 'ai');
    expect(on).toBeGreaterThanOrEqual(0);
    expect(on).toBeLessThan(reply);
    // Six pushes per exchange before (message, typing on, delivered, reply, read, typing off); three
    // now. The answer comes twice, in the engine's response and by its webhook, whichever is first:
    // when the webhook wins, the reply goes out alone and the stop follows in a batch of its own (it
    // must: the indicator may have shown after that reply). Nothing else is ever pushed.
    const names = tab.events.map((event) => event.name);
    const stops = named(tab, 'typing:changed').filter((change) => change.typing === false);
    expect(names.slice(0, 3)).toEqual(['message:created', 'typing:changed', 'message:created']);
    expect(names.slice(3)).toEqual(stops.map(() => 'typing:changed'));
    expect(stops.length).toBeLessThanOrEqual(1);
  });

  it('pushes "not typing" when the engine refuses a message for good and no answer comes', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    // An engine conversation that no longer exists: the engine refuses the message for good (404).
    await stack.bffSql.query(
      "UPDATE conversations SET engine_conversation_id = 'cnv_0000000000000000gone' WHERE uuid = $1",
      [id],
    );
    const response = await send(token, id, 'Hello?', 'typing-refused');
    expect(response.status).toBe(201);
    await until(
      () => named(tab, 'message:updated'),
      (list) => list.some((update) => update.status === 'failed'),
      'the failure',
    );
    await stack.bff.relay.settled();
    expect(named(tab, 'typing:changed')).toEqual([
      { conversation_id: id, who: 'ai', typing: true },
      { conversation_id: id, who: 'ai', typing: false },
    ]);
    expect(named(tab, 'message:updated')).toEqual([
      { id: (response.body as WidgetMessage).id, conversation_id: id, status: 'failed' },
    ]);
  });

  it('ends the AI typing indicator also when its answer hands the conversation over to people: its last reply and the handover notice follow it', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    const response = await send(token, id, 'I want to talk to a person', 'typing-handover');
    expect(response.status).toBe(201);
    await until(
      () => named(tab, 'conversation:handed_over'),
      (list) => list.length >= 1,
      'the handover',
    );
    await stack.bff.relay.settled();
    // Whatever was switched on must be switched off, or the widget shows "typing…" for ever: the notice does it.
    expect(named(tab, 'typing:changed')).toEqual([{ conversation_id: id, who: 'ai', typing: true }]);
    const on = indexOf(tab, (event) => event.name === 'typing:changed');
    const notice = indexOf(tab, (event) => event.name === 'message:created' && event.data.author === 'system');
    expect(on).toBeLessThan(notice);
    // The AI said it hands over: that answer says the customer's message arrived (no push of its read).
    expect(named(tab, 'message:updated')).toEqual([]);
  });

  it("pushes conversation:handed_over, a person's message and conversation:handed_back as the engine moves", async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    const other = await connect(token);
    expect((await send(token, id, 'How do I return an item?', 'ho-1')).status).toBe(201);
    await until(
      () => created(tab),
      (list) => list.length >= 2,
      'the AI reply',
    );
    const engineConversation = await engineId(id);
    const before = tab.events.length;

    expect((await engine(engineConversation, 'handover', { reason: 'VIP customer' })).status).toBe(200);
    await stack.bff.feed.catchUp();
    await until(
      () => named(tab, 'conversation:handed_over'),
      (list) => list.length === 1,
      'the handover',
    );
    expect(named(tab, 'conversation:handed_over')).toEqual([{ conversation_id: id }]);

    expect(
      (await engine(engineConversation, 'human-messages', { text: 'Hello, Sam here.', author_name: 'Sam' })).status,
    ).toBe(200);
    await stack.bff.feed.catchUp();
    await until(
      () => created(tab),
      (list) => list.some((message) => message.author === 'human'),
      "the person's message",
    );

    expect((await engine(engineConversation, 'handback')).status).toBe(200);
    await stack.bff.feed.catchUp();
    await until(
      () => named(tab, 'conversation:handed_back'),
      (list) => list.length === 1,
      'the handback',
    );

    const story = tab.events
      .slice(before)
      .map((event) => (event.name === 'message:created' ? `${event.name} ${event.data.author}` : event.name));
    expect(story).toEqual([
      'message:created system',
      'conversation:handed_over',
      'message:created human',
      'message:created system',
      'conversation:handed_back',
    ]);
    const human = created(tab).find((message) => message.author === 'human');
    expect(human).toMatchObject({
      conversation_id: id,
      author: 'human',
      author_name: 'Sam',
      text: 'Hello, Sam here.',
      status: 'sent',
    });
    expect(named(tab, 'conversation:handed_back')).toEqual([{ conversation_id: id }]);
    // Every tab of the customer got the same story, once.
    await until(
      () => other.events.length,
      (count) => count === tab.events.length,
      'the other tab',
    );
    expect(other.events).toEqual(tab.events);
  });

  it('pushes conversation:closed {resolved:true} when the AI closes after thanks for a good answer', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    expect((await send(token, id, 'How do I return an item?', 'thx-1')).status).toBe(201);
    await until(
      () => created(tab),
      (list) => list.length >= 2,
      'the answer',
    );
    expect(named(tab, 'conversation:closed')).toEqual([]);

    expect((await send(token, id, 'Thanks, that helps!', 'thx-2')).status).toBe(201);
    await until(
      () => named(tab, 'conversation:closed'),
      (list) => list.length >= 1,
      'the close',
    );
    await stack.bff.relay.settled();
    await stack.bff.feed.catchUp();
    expect(named(tab, 'conversation:closed')).toEqual([{ conversation_id: id, resolved: true }]);
    expect(created(tab).at(-1)).toMatchObject({ author: 'ai', text: expect.stringContaining("I'll close this chat") });
    expect((await request(widget(`/conversations/${id}`), { token })).body.status).toBe('resolved');
  });

  it('pushes conversation:closed {resolved:false}, once, when the customer closes over HTTP', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    expect((await send(token, id, 'How do I return an item?', 'cc-1')).status).toBe(201);
    await until(
      () => created(tab),
      (list) => list.length >= 2,
      'the answer',
    );
    await stack.bff.relay.settled();

    expect((await request(widget(`/conversations/${id}/close`), { token, body: {} })).status).toBe(200);
    await until(
      () => named(tab, 'conversation:closed'),
      (list) => list.length >= 1,
      'the close',
    );
    // The engine's own close event, by the relay and again by the feed, is not announced a second time.
    await stack.bff.relay.settled();
    await stack.bff.feed.catchUp();
    expect(named(tab, 'conversation:closed')).toEqual([{ conversation_id: id, resolved: false }]);
  });

  it('delivers the events of a conversation opened over HTTP after the socket connected, each once', async () => {
    const { token } = await visitor();
    const tab = await connect(token);
    const id = await openConversation(token);

    expect((await send(token, id, 'Do you ship abroad?', 'late-1')).status).toBe(201);
    await until(
      () => created(tab),
      (list) => list.length >= 2,
      'the message and the reply',
    );
    await stack.bff.relay.settled();
    expect(created(tab).map((message) => [message.conversation_id, message.author])).toEqual([
      [id, 'customer'],
      [id, 'ai'],
    ]);
    expect(named(tab, 'message:updated')).toEqual([]);
    expect(named(tab, 'typing:changed').map((change) => change.typing)).toEqual([true]);

    // And commands from that socket reach it too.
    expect(await emit(tab, 'read:mark', { conversation_id: id, last_read_id: created(tab)[1]!.id })).toMatchObject({
      ok: true,
      data: { unread: 0 },
    });
    expect((await send(token, id, 'Thanks!', 'late-2')).status).toBe(201);
    await until(
      () => named(tab, 'conversation:closed'),
      (list) => list.length >= 1,
      'the close',
    );
    expect(named(tab, 'conversation:closed')).toEqual([{ conversation_id: id, resolved: true }]);
  });

  it('lets a client that reconnects catch up by cursor with exactly the messages it missed', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    expect((await send(token, id, 'How do I return an item?', 'away-1')).status).toBe(201);
    await until(
      () => created(tab),
      (list) => list.length >= 2,
      'the first answer',
    );
    await stack.bff.relay.settled();
    const had = [...created(tab)];
    const lastId = had.at(-1)!.id;

    tab.socket.disconnect();
    expect(tab.socket.connected).toBe(false);
    const eventsWhileAway = tab.events.length;
    expect((await send(token, id, 'Do you ship abroad?', 'away-2')).status).toBe(201);
    await stack.bff.relay.settled();
    await until(
      () => messages(token, id),
      (list) => list.length >= 4,
      'the second answer',
    );
    expect(tab.events.length).toBe(eventsWhileAway);

    await new Promise<void>((resolve, reject) => {
      tab.socket.once('connect', resolve);
      tab.socket.once('connect_error', reject);
      tab.socket.connect();
    });
    await ready(tab.socket);
    const response = await request(widget(`/conversations/${id}/messages?after=${lastId}`), { token });
    expect(response.status).toBe(200);
    const missed = response.body.messages as WidgetMessage[];
    expect(missed.map((message) => [message.author, message.message_id])).toEqual([
      ['customer', 'away-2'],
      ['ai', null],
    ]);
    expect(response.body.next).toBe(missed.at(-1)!.id);

    // What the client holds now: what it had, what came on the socket since, and the page. No message twice, none missing.
    const holding = new Map<number, WidgetMessage>();
    const copies = [...had, ...created(tab).slice(had.length), ...missed];
    for (const message of copies) holding.set(message.id, message);
    expect(copies.length).toBe(holding.size);
    expect([...holding.keys()].sort((a, b) => a - b)).toEqual((await messages(token, id)).map((message) => message.id));

    // The reconnected socket is back in the customer's rooms.
    expect((await send(token, id, 'Which payment methods do you accept?', 'away-3')).status).toBe(201);
    await until(
      () => created(tab),
      (list) => list.some((message) => message.message_id === 'away-3'),
      'pushes after the reconnect',
    );
  });

  it('carries out a command sent without an ack: read:mark with no callback still marks the answer read', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    const tab = await connect(token);
    expect((await send(token, id, 'Do you ship abroad?', 'noack-1')).status).toBe(201);
    const answer = (
      await until(
        () => created(tab),
        (list) => list.some((message) => message.author === 'ai'),
        'the answer',
      )
    ).find((message) => message.author === 'ai')!;
    const unread = async () => (await request(widget(`/conversations/${id}`), { token })).body.unread as number;
    expect(await unread()).toBe(1);
    tab.socket.emit('read:mark', { conversation_id: id, last_read_id: answer.id });
    await until(unread, (count) => count === 0, 'the read position to move');
  });

  it('answers a command sent the moment the socket connects', async () => {
    const { token } = await visitor();
    const id = await openConversation(token);
    let lost = 0;
    for (let attempt = 0; attempt < 20; attempt++) {
      const tab = await rawConnect(token);
      // Sent in the same tick as the connect event, as a widget that queued a message while offline does.
      // A dropped command is never answered; a slow answer on a loaded machine still counts as answered.
      const ack = await emit(tab, 'read:mark', { conversation_id: id, last_read_id: 0 }, 5_000).catch(() => undefined);
      tab.socket.close();
      if (ack) expect(ack).toEqual({ ok: true, data: { last_read_id: 0, unread: 0 } });
      else lost++;
    }
    expect(lost, 'commands sent right after connect that were never answered, of 20').toBe(0);
  });

  describe('the handshake', () => {
    it("refuses a socket with no token, a garbage token or a site key with connect_error 'unauthorized'", async () => {
      for (const token of [undefined, '', 'garbage', 'wst_not.a.jwt', DEMO_SITE_KEY]) {
        const error = await refusal(token);
        expect(error.message, String(token)).toMatch(/^unauthorized/);
        expect(error.data).toEqual({ code: 'unauthorized' });
      }
    });

    it("refuses an expired token with connect_error 'unauthorized', where the same token still in date is let in", async () => {
      const { customer_ref, token } = await visitor();
      const keys = parseSessionKeys(SESSION_KEYS);
      const { inboxId } = await new SessionTokens(keys).verify(token);
      const claims = { customerRef: customer_ref, inboxId, verified: false, environment: 'sandbox' as const };
      const twoHoursAgo = new SessionTokens(keys, () => new Date(Date.now() - 2 * 3600_000));
      const expired = await twoHoursAgo.issue(claims, 3600);
      const error = await refusal(expired.token);
      expect(error.message).toMatch(/^unauthorized/);
      expect(error.data).toEqual({ code: 'unauthorized' });

      const fresh = await new SessionTokens(keys).issue(claims, 3600);
      expect((await connect(fresh.token)).socket.connected).toBe(true);
    });
  });
});

describe('the AI typing indicator of a quick answer', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // An answer within a minute counts as quick here, so that a slow machine cannot make it slow.
    stack = await startStack(DRIVERS[0], {}, { feedPollMs: 0, aiTypingAfterMs: 60_000 });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('pushes no typing:changed when the answer comes before the indicator is due: the exchange is the message and its answer', async () => {
    const { token } = await newVisitor(stack.url);
    const id = (await openWidgetConversation(stack.url, token)).id;
    const socket = io(stack.url + WIDGET_NAMESPACE, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
    });
    try {
      const events: string[] = [];
      socket.onAny((name: string, data: { author?: string }) =>
        events.push(name === 'message:created' ? `${name} ${data.author}` : name),
      );
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      // Named by its socket, the sending tab gets the answer alone.
      const sent = await request(`${stack.url}/v1/widget/conversations/${id}/messages`, {
        token,
        body: { text: 'Do you ship abroad?', message_id: 'quick-1', socket_id: socket.id },
      });
      expect(sent.status).toBe(201);
      await until(
        () => events,
        (list) => list.includes('message:created ai'),
        'the answer',
      );
      await stack.bff.relay.settled();
      expect(events).toEqual(['message:created ai']);
    } finally {
      socket.close();
    }
  });
});
