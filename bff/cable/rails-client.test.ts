import { adapters, createConsumer, type Consumer } from '@rails/actioncable';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { cableUrl } from '../../test/cable-client.ts';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';

/**
 * `/cable` driven by Rails' own client, `@rails/actioncable`, as Chatwoot's web widget and
 * dashboard use it. The client is made for browsers: here it gets the `ws` package's WebSocket and
 * a page that never changes visibility (its connection monitor listens for that), nothing else.
 */
Object.assign(globalThis, {
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  document: { visibilityState: 'visible' },
});
adapters.WebSocket = WebSocket;

describe("ActionCable at /cable with Rails' own client", () => {
  let stack: TestStack;
  let consumers: Consumer[] = [];

  beforeAll(async () => {
    stack = await startStack(undefined, {}, { feedPollMs: 0 });
  });
  afterEach(() => {
    for (const consumer of consumers) consumer.disconnect();
    consumers = [];
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const base = () => `${stack.url}/public/api/v1/inboxes/${stack.inboxIdentifier}`;
  function consumer() {
    const made = createConsumer(cableUrl(stack.url));
    consumers.push(made);
    return made;
  }
  function subscribe(made: Consumer, pubsubToken: string) {
    const received: any[] = [];
    const state = { connected: false, rejected: false };
    const subscription = made.subscriptions.create(
      { channel: 'RoomChannel', pubsub_token: pubsubToken },
      {
        connected: () => void (state.connected = true),
        rejected: () => void (state.rejected = true),
        received: (data) => void received.push(data),
      },
    );
    return { subscription, received, state };
  }

  it('confirms a contact’s subscription, streams its message.created with the echo_id, and answers update_presence', async () => {
    const contact = (await request(`${base()}/contacts`, { body: { name: 'Noor' } })).body as {
      source_id: string;
      pubsub_token: string;
    };
    const conversation = (await request(`${base()}/contacts/${contact.source_id}/conversations`, { body: {} }))
      .body as { id: number };
    const live = subscribe(consumer(), contact.pubsub_token);
    await until(() => live.state.connected, Boolean, 'the connected callback');

    const sent = await request(`${base()}/contacts/${contact.source_id}/conversations/${conversation.id}/messages`, {
      body: { content: 'Do you ship abroad?', echo_id: 'rails-1' },
    });
    expect(sent.status).toBe(200);
    const created = await until(
      () => live.received.find((data) => data.event === 'message.created' && data.data.id === sent.body.id),
      (found) => found !== undefined,
      'message.created',
    );
    expect(created.data).toMatchObject({ echo_id: 'rails-1', content: 'Do you ship abroad?', message_type: 0 });
    await until(
      () => live.received.find((data) => data.event === 'message.created' && data.data.message_type === 1),
      Boolean,
      "the bot's answer",
    );

    const before = live.received.filter((data) => data.event === 'presence.update').length;
    live.subscription.perform('update_presence');
    await until(
      () => live.received.filter((data) => data.event === 'presence.update').length,
      (count) => count > before,
      'presence.update',
    );
  });

  it('calls rejected for a pubsub_token no contact has', async () => {
    const refused = subscribe(consumer(), 'NoSuchPubsubToken000000000');
    await until(() => refused.state.rejected, Boolean, 'the rejected callback');
    expect(refused.state.connected).toBe(false);
  });
});
