import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { cableUrl, openRawCable, roomIdentifier, type RawCable } from '../../test/cable-client.ts';
import { request } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { CABLE_LIMITS } from './protocol.ts';

/**
 * `/cable` spoken by a raw client written as Chatwoot's Flutter SDK writes it: a contact's
 * subscription with its pubsub_token hears its messages, the people's answers and the status, in
 * Chatwoot's frames; notes, other contacts' events and bad subscriptions never get through.
 */
describe('ActionCable at /cable for Chatwoot clients', () => {
  let desk: DeskStack;
  let cables: RawCable[] = [];

  beforeAll(async () => {
    desk = await startDeskStack();
  });
  afterEach(() => {
    for (const cable of cables) cable.close();
    cables = [];
  });
  afterAll(async () => {
    await desk?.stop();
  });

  const base = () => `${desk.stack.url}/public/api/v1/inboxes/${desk.stack.inboxIdentifier}`;
  async function contactWithConversation() {
    const contact = (await request(`${base()}/contacts`, { body: { name: 'Robin' } })).body as {
      source_id: string;
      pubsub_token: string;
    };
    const conversation = (await request(`${base()}/contacts/${contact.source_id}/conversations`, { body: {} }))
      .body as { id: number; uuid: string };
    return { contact, conversation, url: `${base()}/contacts/${contact.source_id}/conversations/${conversation.id}` };
  }
  async function cable(protocols?: string[]) {
    const opened = await openRawCable(desk.stack.url, protocols);
    cables.push(opened);
    return opened;
  }
  async function subscribed(pubsubToken: string) {
    const opened = await cable();
    const identifier = opened.subscribe(pubsubToken);
    await opened.frame((frame) => frame.type === 'confirm_subscription', 'the confirmation');
    return { cable: opened, identifier };
  }
  const quiet = async () => {
    await desk.stack.bff.relay.settled();
    await new Promise((done) => setTimeout(done, 300));
  };

  it('welcomes a client that offers no subprotocol, as the Flutter SDK connects, confirms its subscription with the identifier as sent, and pings every 3 s', async () => {
    const { contact } = await contactWithConversation();
    const opened = await cable();
    // Spaces and key order the server must not touch: the identifier is echoed byte for byte.
    const identifier = `{ "pubsub_token": "${contact.pubsub_token}",  "channel":"RoomChannel" }`;
    opened.send({ command: 'subscribe', identifier });
    expect(await opened.frame((frame) => frame.type === 'welcome', 'welcome')).toEqual({ type: 'welcome' });
    expect(await opened.frame((frame) => frame.type === 'confirm_subscription', 'confirmation')).toEqual({
      type: 'confirm_subscription',
      identifier,
    });
    const presence = await opened.frame((frame) => frame.message?.event === 'presence.update', 'presence.update');
    expect(presence).toEqual({
      identifier,
      message: { event: 'presence.update', data: { account_id: desk.stack.accountId, users: {}, contacts: {} } },
    });
    const ping = await opened.frame((frame) => frame.type === 'ping', 'a ping');
    expect(Math.abs(ping.message - Date.now() / 1000)).toBeLessThan(5);
  });

  it('selects actioncable-v1-json when offered, and refuses a client that offers only other subprotocols', async () => {
    const offered = await cable(['actioncable-v1-json', 'actioncable-unsupported']);
    expect(offered.socket.protocol).toBe('actioncable-v1-json');
    const refused = new WebSocket(cableUrl(desk.stack.url), ['actioncable-unsupported']);
    const status = await new Promise<number>((resolve, reject) => {
      refused.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      refused.once('open', () => reject(new Error('the socket was opened')));
    });
    expect(status).toBe(400);
  });

  it("streams the contact's own message with its echo_id and a person's answer as message.created, never a private note", async () => {
    const { contact, conversation, url } = await contactWithConversation();
    const { cable: live, identifier } = await subscribed(contact.pubsub_token);

    const sent = await request(`${url}/messages`, { body: { content: 'Where is my parcel?', echo_id: 'flutter-1' } });
    expect(sent.status).toBe(200);
    const own = await live.event('message.created', (data) => data.id === sent.body.id, 'the own message');
    expect(own).toMatchObject({ echo_id: 'flutter-1', content: 'Where is my parcel?', message_type: 0 });
    expect(live.frames.find((frame) => frame.message?.data?.id === sent.body.id).identifier).toBe(identifier);
    await live.event('message.created', (data) => data.message_type === 1, "the bot's answer");

    const [row] = await desk.stack.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [
      conversation.uuid,
    ]);
    const note = await desk.app(`/conversations/${row!.id}/messages`, desk.admin.access_token, {
      body: { content: 'Robin is a VIP', private: true },
    });
    expect(note.status).toBe(200);
    const answer = await desk.app(`/conversations/${row!.id}/messages`, desk.admin.access_token, {
      body: { content: 'Ada here: it left today.' },
    });
    expect(answer.status).toBe(200);
    const reply = await live.event('message.created', (data) => data.id === answer.body.id, "the person's answer");
    expect(reply).toMatchObject({ message_type: 1, content: 'Ada here: it left today.', sender: { type: 'user' } });
    await quiet();
    const contents = live.events('message.created').map(({ data }) => data.content);
    expect(contents).not.toContain('Robin is a VIP');
    expect(live.events().every(({ data }) => data.private !== true)).toBe(true);
  });

  it("tells a subscribed contact of its new conversation and its resolve, and nothing of another contact's", async () => {
    const first = await contactWithConversation();
    const other = await contactWithConversation();
    const { cable: live } = await subscribed(first.contact.pubsub_token);
    const { cable: otherLive } = await subscribed(other.contact.pubsub_token);

    const opened = (await request(`${base()}/contacts/${first.contact.source_id}/conversations`, { body: {} }))
      .body as { id: number; uuid: string };
    const created = await live.event(
      'conversation.created',
      (data) => data.uuid === opened.uuid,
      'conversation.created',
    );
    expect(created).toMatchObject({ id: opened.id, status: 'open', account_id: desk.stack.accountId });
    const resolved = await request(`${first.url}/toggle_status`, { method: 'POST' });
    expect(resolved.status).toBe(200);
    const changed = await live.event('conversation.status_changed', () => true, 'conversation.status_changed');
    expect(changed).toMatchObject({ id: first.conversation.id, status: 'resolved' });
    await quiet();
    expect(otherLive.events().map(({ event }) => event)).toEqual(['presence.update']);
  });

  it("answers update_presence, sent as a string by Rails' client or as an object by the Flutter SDK, and ignores other actions", async () => {
    const { contact } = await contactWithConversation();
    const { cable: live, identifier } = await subscribed(contact.pubsub_token);
    live.send({ command: 'message', identifier, data: JSON.stringify({ action: 'update_presence' }) });
    live.send({ command: 'message', identifier, data: { action: 'update_presence' } });
    live.send({ command: 'message', identifier, data: { action: 'start_typing' } });
    await until(
      () => live.events('presence.update').length,
      (count) => count >= 3,
      'three presence updates',
    );
    await quiet();
    expect(live.events('presence.update')).toHaveLength(3);
  });

  it("rejects a wrong token, another channel, a person's identifier and what is not an identifier, each by its identifier", async () => {
    const { contact } = await contactWithConversation();
    const opened = await cable();
    const identifiers = [
      roomIdentifier('NoSuchPubsubToken000000000'),
      roomIdentifier(contact.source_id),
      JSON.stringify({ channel: 'NotificationsChannel', pubsub_token: contact.pubsub_token }),
      JSON.stringify({ channel: 'RoomChannel', pubsub_token: contact.pubsub_token, account_id: 1, user_id: 1 }),
      'not json',
    ];
    for (const identifier of identifiers) opened.send({ command: 'subscribe', identifier });
    for (const identifier of identifiers)
      await opened.frame(
        (frame) => frame.type === 'reject_subscription' && frame.identifier === identifier,
        `the refusal of ${identifier}`,
      );
    expect(opened.frames.some((frame) => frame.type === 'confirm_subscription')).toBe(false);
  });

  it('ignores bad JSON and unknown commands without closing, and closes a connection over its command limit or its frame size', async () => {
    const { contact } = await contactWithConversation();
    const opened = await cable();
    for (const junk of ['{', '[]', '"x"', JSON.stringify({ command: 'shout', identifier: 'x' })]) opened.send(junk);
    opened.socket.send(Buffer.from([1, 2, 3]));
    opened.subscribe(contact.pubsub_token);
    await opened.frame((frame) => frame.type === 'confirm_subscription', 'the confirmation after junk');

    const flooding = await cable();
    for (let sent = 0; sent <= CABLE_LIMITS.commandsPerWindow; sent++) flooding.send('{');
    expect(await flooding.closed).toBe(1005);
    expect(flooding.frames.at(-1)).toEqual({ type: 'disconnect', reason: 'invalid_request', reconnect: false });

    const large = await cable();
    large.send({ command: 'subscribe', identifier: 'x'.repeat(CABLE_LIMITS.maxFrameBytes) });
    expect(await large.closed).toBe(1009);
    // The server is still there for everyone else.
    await subscribed(contact.pubsub_token);
  });
});
