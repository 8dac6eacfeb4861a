import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startStack, type TestStack, engineConversationOf, engineMove } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { NOTICES } from '../engine-link/event-application.ts';

/**
 * A custom client of the helpdesk Client API end to end, with realtime over Socket.IO (namespace
 * `/client`, auth `{pubsub_token}`): the contact writes, the AI answers as the bot, people answer
 * after a handover, the contact resolves and rates, all as Chatwoot's events show them.
 */

interface Received {
  name: string;
  data: any;
}

interface Subscription {
  socket: Socket;
  /** Every event the server pushed to this socket, in order. */
  events: Received[];
}

interface Contact {
  id: number;
  source_id: string;
  pubsub_token: string;
}

describe.each(DRIVERS)('helpdesk Client API realtime on $name', (driver) => {
  let stack: TestStack;
  let sockets: Socket[] = [];

  beforeAll(async () => {
    // The feed is read by hand (stack.bff.feed.catchUp()), so engine-side moves arrive when a test says.
    // The AI's typing shows at every message, however quick its answer (300 ms by default).
    stack = await startStack(driver, {}, { feedPollMs: 0, aiTypingAfterMs: 0 });
  });
  afterEach(() => {
    for (const socket of sockets) socket.close();
    sockets = [];
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const base = () => `${stack.url}/public/api/v1/inboxes/${stack.inboxIdentifier}`;
  const conversationUrl = (source: string, id: number) => `${base()}/contacts/${source}/conversations/${id}`;

  async function createContact(body: object = {}): Promise<Contact> {
    const response = await request(`${base()}/contacts`, { body });
    expect(response.status).toBe(200);
    return response.body as Contact;
  }
  async function openConversation(source: string): Promise<{ id: number; uuid: string }> {
    const response = await request(`${base()}/contacts/${source}/conversations`, { body: {} });
    expect(response.status).toBe(200);
    return response.body as { id: number; uuid: string };
  }
  const send = (source: string, id: number, content: string, echo_id?: string) =>
    request(`${conversationUrl(source, id)}/messages`, {
      body: echo_id === undefined ? { content } : { content, echo_id },
    });
  const engineId = (uuid: string) => engineConversationOf(stack, uuid);
  // The Client API's contacts are live customers: their conversations are the live key's.
  const engine = (engineConversationId: string, move: string, body: object = {}) =>
    engineMove({ engineUrl: stack.engineUrl, apiKey: stack.liveApiKey! }, engineConversationId, move, body);

  function socketWith(auth: Record<string, unknown> | undefined): Socket {
    const socket = io(`${stack.url}/client`, {
      ...(auth ? { auth } : {}),
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    return socket;
  }
  /** Subscribes with the contact's pubsub_token; resolves once connected. */
  function subscribe(pubsubToken: string): Promise<Subscription> {
    const socket = socketWith({ pubsub_token: pubsubToken });
    const events: Received[] = [];
    socket.onAny((name: string, data: unknown) => events.push({ name, data }));
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve({ socket, events }));
      socket.once('connect_error', reject);
    });
  }
  /** The reason a subscription is refused (it must be refused). */
  function refusal(auth: Record<string, unknown> | undefined): Promise<string> {
    const socket = socketWith(auth);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => reject(new Error('the socket was let in')));
      socket.once('connect_error', (error: Error) => resolve(error.message));
    });
  }

  const eventOf = (
    subscription: Subscription,
    name: string,
    match: (data: any) => boolean,
    what: string,
  ): Promise<any> =>
    until(
      () => subscription.events.find((event) => event.name === name && match(event.data)),
      (found) => found !== undefined,
      what,
    ).then((found) => found!.data);
  /** Lets events in flight arrive, so a test can say none came. */
  const quiet = async () => {
    await stack.bff.relay.settled();
    await new Promise((done) => setTimeout(done, 300));
  };

  it('carries a custom client through a whole conversation: its message with echo_id, the AI typing and answering as the bot, the resolve, the survey and the rating', async () => {
    const contact = await createContact({ name: 'Ada', email: 'ada.realtime@example.com' });
    const conversation = await openConversation(contact.source_id);
    const live = await subscribe(contact.pubsub_token);

    const sent = await send(contact.source_id, conversation.id, 'How do I return an item?', 'echo-4711');
    expect(sent.status).toBe(200);

    // The contact's own message comes back with the echo_id it sent (only here: not in the HTTP answer).
    const echoed = await eventOf(
      live,
      'message.created',
      (data) => data.id === sent.body.id,
      "the contact's message.created",
    );
    expect(echoed).toMatchObject({
      id: sent.body.id,
      echo_id: 'echo-4711',
      content: 'How do I return an item?',
      message_type: 0,
      conversation_id: conversation.id,
      sender: { type: 'contact', id: contact.id },
    });
    expect(sent.body).not.toHaveProperty('echo_id');

    // The AI types, then answers as an outgoing message from the bot.
    const answer = await eventOf(live, 'message.created', (data) => data.message_type === 1, "the bot's answer");
    expect(answer).toMatchObject({
      message_type: 1,
      content_type: 'input_select',
      conversation_id: conversation.id,
      sender: { type: 'agent_bot' },
    });
    expect(typeof answer.content).toBe('string');
    expect(answer.content.length).toBeGreaterThan(0);
    expect(typeof answer.created_at).toBe('number');
    expect(answer).not.toHaveProperty('echo_id');
    const typingOn = await eventOf(
      live,
      'conversation.typing_on',
      (data) => data.conversation?.id === conversation.id,
      'typing_on',
    );
    expect(typingOn).toMatchObject({
      conversation: { id: conversation.id },
      user: { type: 'agent_bot' },
      is_private: false,
    });
    await eventOf(live, 'conversation.typing_off', (data) => data.conversation?.id === conversation.id, 'typing_off');
    const names = live.events.map((event) => event.name);
    expect(names.indexOf('conversation.typing_on')).toBeLessThan(names.indexOf('conversation.typing_off'));
    // The answered message is read: message.updated tells the client.
    await eventOf(
      live,
      'message.updated',
      (data) => data.id === sent.body.id && data.status === 'read',
      'message.updated (read)',
    );

    // The same answer is in the list, as the socket showed it.
    const listed = await request(`${conversationUrl(contact.source_id, conversation.id)}/messages`);
    expect(listed.body.map((message: { id: number }) => message.id)).toEqual([sent.body.id, answer.id]);

    // Resolving: the status change and the survey question arrive.
    const resolved = await request(`${conversationUrl(contact.source_id, conversation.id)}/toggle_status`, {
      method: 'POST',
    });
    expect(resolved.status).toBe(200);
    const changed = await eventOf(live, 'conversation.status_changed', () => true, 'conversation.status_changed');
    expect(changed).toMatchObject({ id: conversation.id, status: 'resolved' });
    const survey = await eventOf(
      live,
      'message.created',
      (data) => data.content_type === 'input_csat',
      'the input_csat message',
    );
    expect(survey).toMatchObject({ message_type: 3, content_type: 'input_csat', conversation_id: conversation.id });
    await quiet();
    expect(live.events.filter((event) => event.name === 'conversation.status_changed')).toHaveLength(1);

    // The contact rates through PATCH of the survey message; the survey routes show it.
    const rated = await request(`${conversationUrl(contact.source_id, conversation.id)}/messages/${survey.id}`, {
      method: 'PATCH',
      body: { submitted_values: { csat_survey_response: { rating: 5, feedback_message: 'Quick and clear' } } },
    });
    expect(rated.status).toBe(200);
    expect(rated.body.content_attributes.submitted_values).toEqual({
      csat_survey_response: { rating: 5, feedback_message: 'Quick and clear' },
    });
    const stored = await request(`${stack.url}/public/api/v1/csat_survey/${conversation.uuid}`);
    expect(stored.status).toBe(200);
    expect(stored.body.csat_survey_response).toMatchObject({ rating: 5, feedback_message: 'Quick and clear' });
  });

  it('tells the contact over the socket when the survey is answered: message.updated with the submitted values, as Chatwoot does', async () => {
    // Chatwoot's ActionCableListener#message_updated sends message.push_event_data to the contact's token.
    const contact = await createContact();
    const conversation = await openConversation(contact.source_id);
    const live = await subscribe(contact.pubsub_token);
    expect(
      (await request(`${conversationUrl(contact.source_id, conversation.id)}/toggle_status`, { method: 'POST' }))
        .status,
    ).toBe(200);
    const survey = await eventOf(
      live,
      'message.created',
      (data) => data.content_type === 'input_csat',
      'the input_csat message',
    );
    const rated = await request(`${conversationUrl(contact.source_id, conversation.id)}/messages/${survey.id}`, {
      method: 'PATCH',
      body: { submitted_values: { csat_survey_response: { rating: 4 } } },
    });
    expect(rated.status).toBe(200);
    const updated = await eventOf(
      live,
      'message.updated',
      (data) => data.id === survey.id,
      'message.updated for the survey message',
    );
    expect(updated).toMatchObject({
      id: survey.id,
      content_type: 'input_csat',
      content_attributes: { submitted_values: { csat_survey_response: { rating: 4 } } },
    });
  });

  it('puts no echo_id on the event of a message sent without one', async () => {
    // Message#push_event_data adds echo_id only when the client set one.
    const contact = await createContact();
    const conversation = await openConversation(contact.source_id);
    const live = await subscribe(contact.pubsub_token);
    const sent = await send(contact.source_id, conversation.id, 'Do you ship abroad?');
    expect(sent.status).toBe(200);
    const created = await eventOf(
      live,
      'message.created',
      (data) => data.id === sent.body.id,
      "the contact's message.created",
    );
    expect(created).not.toHaveProperty('echo_id');
  });

  it('refuses a subscription without a valid pubsub_token', async () => {
    const contact = await createContact();
    for (const auth of [
      undefined,
      {},
      { pubsub_token: '' },
      { pubsub_token: 42 },
      { pubsub_token: 'short' },
      { pubsub_token: 'NoSuchPubsubToken000000000' },
      { pubsub_token: contact.source_id },
      { token: contact.pubsub_token },
    ]) {
      expect(await refusal(auth), JSON.stringify(auth)).toMatch(/unauthorized/);
    }
    // The real token is let in.
    await subscribe(contact.pubsub_token);
  });

  it("sends one contact's events only to that contact, and does not echo the contact's own typing back", async () => {
    const owner = await createContact();
    const other = await createContact();
    const conversation = await openConversation(owner.source_id);
    const ownerLive = await subscribe(owner.pubsub_token);
    const otherLive = await subscribe(other.pubsub_token);

    const typing = await request(
      `${conversationUrl(owner.source_id, conversation.id)}/toggle_typing?typing_status=on`,
      { method: 'POST' },
    );
    expect(typing.status).toBe(200);
    const sent = await send(owner.source_id, conversation.id, 'Where is my parcel?', 'echo-owner-1');
    expect(sent.status).toBe(200);
    await eventOf(ownerLive, 'message.created', (data) => data.message_type === 1, "the bot's answer");
    expect(
      (await request(`${conversationUrl(owner.source_id, conversation.id)}/toggle_status`, { method: 'POST' })).status,
    ).toBe(200);
    await eventOf(ownerLive, 'conversation.status_changed', () => true, 'conversation.status_changed');
    await quiet();

    expect(otherLive.events).toEqual([]);
    // The owner sees the AI's typing only (user type agent_bot), never its own.
    const typingEvents = ownerLive.events.filter((event) => event.name.startsWith('conversation.typing_'));
    expect(typingEvents.length).toBeGreaterThan(0);
    for (const event of typingEvents) expect(event.data.user.type).toBe('agent_bot');
    expect(typingEvents.filter((event) => event.name === 'conversation.typing_on')).toHaveLength(1);
  });

  it("after a handover at the engine, keeps the notice off the socket and shows a person's answer as an outgoing message from a user", async () => {
    const contact = await createContact();
    const conversation = await openConversation(contact.source_id);
    const live = await subscribe(contact.pubsub_token);
    expect((await send(contact.source_id, conversation.id, 'Where is my parcel?')).status).toBe(200);
    await eventOf(live, 'message.created', (data) => data.message_type === 1, "the bot's answer");

    const engineConversation = await engineId(conversation.uuid);
    expect((await engine(engineConversation, 'handover', { reason: 'customer asked for a person' })).status).toBe(200);
    await stack.bff.feed.catchUp();
    const [notice] = await stack.bffSql.query<{ id: number }>(
      "SELECT id::int AS id FROM messages WHERE conversation_id = $1 AND author = 'system' AND text = $2",
      [conversation.id, NOTICES.handover],
    );
    expect(notice).toBeDefined();

    expect(
      (
        await engine(engineConversation, 'human-messages', {
          text: 'Hi, Dana from the team here.',
          author_name: 'Dana',
        })
      ).status,
    ).toBe(200);
    await stack.bff.feed.catchUp();
    const human = await eventOf(
      live,
      'message.created',
      (data) => data.content === 'Hi, Dana from the team here.',
      "the person's answer",
    );
    expect(human).toMatchObject({
      message_type: 1,
      content_type: 'text',
      conversation_id: conversation.id,
      sender: { type: 'user', name: 'Dana' },
    });
    await quiet();
    // The handover notice is an activity message: never pushed to the contact.
    const created = live.events.filter((event) => event.name === 'message.created').map((event) => event.data);
    expect(created.map((data) => data.id)).not.toContain(notice!.id);
    expect(created.every((data) => data.message_type !== 2)).toBe(true);

    // While people answer, the contact's next message raises no AI typing.
    const typingBefore = live.events.filter((event) => event.name === 'conversation.typing_on').length;
    const waiting = await send(
      contact.source_id,
      conversation.id,
      'Thanks Dana, the order is A-1001',
      'echo-after-handover',
    );
    expect(waiting.status).toBe(200);
    await eventOf(
      live,
      'message.created',
      (data) => data.id === waiting.body.id && data.echo_id === 'echo-after-handover',
      "the contact's message after the handover",
    );
    await quiet();
    expect(live.events.filter((event) => event.name === 'conversation.typing_on')).toHaveLength(typingBefore);
  });
});
