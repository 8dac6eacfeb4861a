import { adapters, createConsumer, type Consumer } from '@rails/actioncable';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { cableUrl, openRawCable, type RawCable } from '../../test/cable-client.ts';
import { request } from '../../test/stack.ts';
import { until } from '../../test/until.ts';

/**
 * A person's stream at `/cable` (Chatwoot's agents: RoomChannel with pubsub_token, account_id and
 * user_id), with a raw client as Chatwoot's mobile app writes it and with Rails' own client: the
 * events of the inboxes they answer, private notes included; never another person's pubsub_token,
 * an account they are not in, or a contact's token with a person's ids.
 */
Object.assign(globalThis, {
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  document: { visibilityState: 'visible' },
});
adapters.WebSocket = WebSocket;

describe("a person's stream at /cable", () => {
  let desk: DeskStack;
  let cables: RawCable[] = [];
  let consumers: Consumer[] = [];

  beforeAll(async () => {
    desk = await startDeskStack();
  });
  afterEach(() => {
    for (const cable of cables) cable.close();
    for (const consumer of consumers) consumer.disconnect();
    cables = [];
    consumers = [];
  });
  afterAll(async () => {
    await desk?.stop();
  });

  const base = () => `${desk.stack.url}/public/api/v1/inboxes/${desk.stack.inboxIdentifier}`;
  const personIdentifier = (
    person: { id: number; pubsub_token?: string | undefined },
    accountId = desk.stack.accountId,
  ) =>
    JSON.stringify({
      channel: 'RoomChannel',
      pubsub_token: person.pubsub_token,
      account_id: accountId,
      user_id: person.id,
    });
  async function cable() {
    const opened = await openRawCable(desk.stack.url, ['actioncable-v1-json']);
    cables.push(opened);
    return opened;
  }
  async function subscribedAs(identifier: string) {
    const opened = await cable();
    opened.send({ command: 'subscribe', identifier });
    await opened.frame((frame) => frame.type === 'confirm_subscription', 'the confirmation');
    return opened;
  }
  async function contactWithConversation() {
    const contact = (await request(`${base()}/contacts`, { body: { name: 'Robin' } })).body as {
      source_id: string;
      pubsub_token: string;
    };
    const conversation = (await request(`${base()}/contacts/${contact.source_id}/conversations`, { body: {} }))
      .body as { id: number; uuid: string };
    const [row] = await desk.stack.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [
      conversation.uuid,
    ]);
    return {
      contact,
      conversation,
      number: row!.id,
      url: `${base()}/contacts/${contact.source_id}/conversations/${conversation.id}`,
    };
  }
  const quiet = async () => {
    await desk.stack.bff.relay.settled();
    await new Promise((done) => setTimeout(done, 300));
  };

  it('gives a person a pubsub_token with their access token, and streams their inbox to them: presence, messages and message.updated with echo_id, conversation.read, private notes, assignee.changed and the status; the contact never hears the note', async () => {
    expect(desk.admin.pubsub_token).toMatch(/^[0-9a-f]{64}$/);
    const person = await subscribedAs(personIdentifier(desk.admin));
    const presence = await person.event('presence.update', () => true, 'presence.update');
    expect(presence).toMatchObject({ account_id: desk.stack.accountId, contacts: {} });
    expect(Object.keys(presence.users)).toContain(String(desk.admin.id));

    const { contact, number, url } = await contactWithConversation();
    const contactCable = await cable();
    contactCable.subscribe(contact.pubsub_token);
    await contactCable.frame((frame) => frame.type === 'confirm_subscription', "the contact's confirmation");
    await person.event('conversation.created', (data) => data.id === number, 'conversation.created');

    const sent = await request(`${url}/messages`, { body: { content: 'Where is my parcel?', echo_id: 'mobile-1' } });
    expect(sent.status).toBe(200);
    const own = await person.event('message.created', (data) => data.id === sent.body.id, 'the contact’s message');
    expect(own).toMatchObject({
      echo_id: 'mobile-1',
      message_type: 0,
      private: false,
      account_id: desk.stack.accountId,
    });

    // The AI answers it, so it is read: message.updated carries the echo_id to both the contact and the person.
    const read = (data: any) => data.id === sent.body.id && data.status === 'read';
    expect(await contactCable.event('message.updated', read, "the contact's read mark")).toMatchObject({
      echo_id: 'mobile-1',
    });
    expect(await person.event('message.updated', read, "the person's read mark")).toMatchObject({
      echo_id: 'mobile-1',
    });
    const seen = await request(`${url}/update_last_seen`, { method: 'POST' });
    expect(seen.status).toBe(200);
    expect(await person.event('conversation.read', (data) => data.id === number, 'conversation.read')).toMatchObject({
      account_id: desk.stack.accountId,
    });

    const note = await desk.app(`/conversations/${number}/messages`, desk.admin.access_token, {
      body: { content: 'Robin is a VIP', private: true },
    });
    expect(note.status).toBe(200);
    const heard = await person.event('message.created', (data) => data.id === note.body.id, 'the private note');
    expect(heard).toMatchObject({
      private: true,
      content: 'Robin is a VIP',
      sender: { type: 'user', id: desk.admin.id },
    });

    const assigned = await desk.app(`/conversations/${number}/assignments`, desk.admin.access_token, {
      body: { assignee_id: desk.agent.id },
    });
    expect(assigned.status).toBe(200);
    const changed = await person.event('assignee.changed', (data) => data.id === number, 'assignee.changed');
    expect(changed).toMatchObject({ assignee_id: desk.agent.id, account_id: desk.stack.accountId });

    const resolved = await request(`${url}/toggle_status`, { method: 'POST' });
    expect(resolved.status).toBe(200);
    await person.event('conversation.status_changed', (data) => data.status === 'resolved', 'the resolve');

    await quiet();
    expect(contactCable.events().some(({ data }) => data.private === true || data.content === 'Robin is a VIP')).toBe(
      false,
    );
  });

  it('hears an agent only of the inboxes they answer', async () => {
    const member = await subscribedAs(personIdentifier(desk.agent));
    const outsider = await subscribedAs(personIdentifier(desk.otherAgent));
    const { number, url } = await contactWithConversation();
    const sent = await request(`${url}/messages`, { body: { content: 'Hello?' } });
    await member.event('message.created', (data) => data.id === sent.body.id, "the member's message");
    await quiet();
    expect(outsider.events().filter(({ event }) => event !== 'presence.update')).toEqual([]);
    expect(member.events('conversation.created').map(({ data }) => data.id)).toContain(number);
  });

  it("rejects another person's user_id, an account they are not in, a contact's token with a person's ids, and the access token itself", async () => {
    const { contact } = await contactWithConversation();
    const opened = await cable();
    const identifiers = [
      personIdentifier({ id: desk.agent.id, pubsub_token: desk.admin.pubsub_token }),
      personIdentifier(desk.admin, desk.stack.accountId + 1000),
      personIdentifier({ id: desk.admin.id, pubsub_token: contact.pubsub_token }),
      personIdentifier({ id: desk.admin.id, pubsub_token: desk.admin.access_token }),
      JSON.stringify({ channel: 'RoomChannel', pubsub_token: desk.admin.pubsub_token }),
      JSON.stringify({ channel: 'RoomChannel', pubsub_token: desk.admin.pubsub_token, account_id: 'x', user_id: 'y' }),
    ];
    for (const identifier of identifiers) opened.send({ command: 'subscribe', identifier });
    for (const identifier of identifiers)
      await opened.frame(
        (frame) => frame.type === 'reject_subscription' && frame.identifier === identifier,
        `the refusal of ${identifier}`,
      );
    expect(opened.frames.some((frame) => frame.type === 'confirm_subscription')).toBe(false);
  });

  it("streams to Rails' own client with the person's identifier and answers its update_presence", async () => {
    const consumer = createConsumer(cableUrl(desk.stack.url));
    consumers.push(consumer);
    const received: any[] = [];
    const state = { connected: false };
    const subscription = consumer.subscriptions.create(
      {
        channel: 'RoomChannel',
        pubsub_token: desk.admin.pubsub_token,
        account_id: desk.stack.accountId,
        user_id: desk.admin.id,
      },
      { connected: () => void (state.connected = true), received: (data) => void received.push(data) },
    );
    await until(() => state.connected, Boolean, 'the connected callback');
    const { url } = await contactWithConversation();
    const sent = await request(`${url}/messages`, { body: { content: 'Any news?', echo_id: 'rails-p1' } });
    const created = await until(
      () => received.find((data) => data.event === 'message.created' && data.data.id === sent.body.id),
      (found) => found !== undefined,
      'message.created',
    );
    expect(created.data).toMatchObject({ echo_id: 'rails-p1' });
    const before = received.filter((data) => data.event === 'presence.update').length;
    subscription.perform('update_presence');
    await until(
      () => received.filter((data) => data.event === 'presence.update').length,
      (count) => count > before,
      'presence.update',
    );
  });
});
