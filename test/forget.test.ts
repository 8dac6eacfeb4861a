import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook, WIDGET_NAMESPACE } from '../shared/index.ts';
import { MemoryAttachmentStorage } from '../bff/attachments/storage.ts';
import { defineAction, setSandboxFixture } from '../engine/index.ts';
import { FORGET_NOTICE_KEPT_MS, purgeForgetNotices } from '../engine/customer-erasure.ts';
import { everyRow, mentions } from './every-row.ts';
import { desk, PLATFORM_TOKEN } from './helpdesk-client.ts';
import { pngOf } from './media-fixtures.ts';
import { DRIVERS, request, startEngine, startStack, type TestEngine, type TestStack } from './stack.ts';
import { until } from './until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from './widget-client.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

/**
 * "Forget leaves no trace" (docs/SECURITY.md): a customer chats through the whole stack (the AI
 * answers, runs an action, hands over, a person answers, the customer rates the chat and sends a
 * photo; another customer uses the Client API), then the site's server asks the engine to forget
 * them. Both databases are then read whole, every row of every table there is (a table added
 * later is read too), and nothing may name them or hold a word they or anyone said to them. Another
 * customer's conversation stays.
 */

const ENGINE_WEBHOOK_SECRET = `whsec_forget_${'s'.repeat(24)}`;

/** The verified sandbox customer (`test:<ref>` at the BFF), with everything that names them. */
const ZORA = {
  ref: 'zora-quill-7731',
  name: 'Zora Quillfeather',
  email: 'zora.quill@forget.example',
  page: 'https://shop.example/account/zora-quill-7731',
  words: [
    'How do I return an item? The Vermilion teapot arrived cracked.',
    'Where is my order 58213?',
    'I want to talk to a person about the Vermilion teapot',
    'Hello Zora, Ada here: I will send a new teapot today.',
    'Ada was lovely, Quillfeather household is happy',
    'Photo of the Vermilion crack',
    'zora-receipt.png',
  ],
};

/** A Client API contact (a live customer `ctc_<id>`). */
const BRANDT = {
  name: 'Brandt Oakenshield',
  email: 'brandt.oak@forget.example',
  phone: '+4915550177342',
  words: ['Brandt asks about the Obsidian kettle lid'],
};

const BYSTANDER_WORDS = 'Does the Cobalt mug fit a dishwasher?';

describe.each(DRIVERS)('forgetting a customer on $name', (driver) => {
  let engine: TestEngine;
  let stack: TestStack;
  let receiver: WebhookReceiver;
  const storage = new MemoryAttachmentStorage();
  let admin: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    engine = await startEngine(driver, undefined, { webhooks: { allowedPrivateOrigins: [receiver.origin] } });
    stack = await startStack(
      driver,
      {
        DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN,
        AI_API_URL: engine.url,
        AI_API_KEY: engine.apiKeys,
        ENGINE_WEBHOOK_SECRET,
        WEBHOOK_ALLOWED_PRIVATE_ORIGINS: receiver.origin,
      },
      { feedPollMs: 0, attachments: { storage, maxBytes: 10 * 1024 * 1024 } },
    );
    await defineAction(engine.sql, engine.accountId, {
      name: 'lookup_order',
      description: 'Look up the status of an order',
      triggers: [['where', 'order']],
      inputs: [
        {
          name: 'order_number',
          description: 'The order number',
          pattern: '(?:#|\\b)(\\d{4,12})\\b',
          required: true,
          ask: 'What is your order number?',
        },
      ],
      reply: 'Order {order_number} is {status}.',
    });
    await setSandboxFixture(engine.sql, engine.accountId, 'lookup_order', { status: 'on its way' });
    // Every event is posted to a receiver of the site's (the engine keeps each delivery's body).
    for (const token of [engine.apiKey, engine.liveApiKey])
      expect((await request(`${engine.url}/v1/webhook-endpoints`, { token, body: { url: receiver.url } })).status).toBe(
        201,
      );
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    const user = (await platform('/users', { name: 'Ada', email: `ada-${driver.name}@forget.example` })).body as {
      id: number;
      access_token: string;
    };
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: user.id, role: 'administrator' });
    admin = user.access_token;
    // The helpdesk's webhooks carry the conversations' words too (the BFF keeps each delivery's body).
    expect(
      (
        await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/webhooks`, admin, {
          body: { url: `${receiver.origin}/desk` },
        })
      ).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
    await receiver?.close();
  });

  const deskApi = (path: string, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, admin, options);
  const forget = (ref: string, token: string) =>
    request(`${engine.url}/v1/customers/${encodeURIComponent(ref)}/forget`, {
      method: 'POST',
      token,
      headers: { 'idempotency-key': `forget-${ref}` },
    });

  /** A verified customer's session, made by the site's server with its sandbox API key. */
  const zoraSession = async () => {
    const response = await request(`${stack.url}/v1/widget-sessions`, {
      token: engine.apiKey,
      body: { customer_ref: ZORA.ref, name: ZORA.name, email: ZORA.email },
    });
    expect(response.status).toBe(201);
    return response.body.token as string;
  };

  /** Zora chats: answered, an action, a handover, a person's answer, a photo, a close and a rating. */
  async function zoraChats(): Promise<{ uuid: string; engineId: string }> {
    const token = await zoraSession();
    const opened = await request(`${stack.url}/v1/widget/conversations`, {
      token,
      body: { name: ZORA.name, email: ZORA.email },
      headers: { referer: ZORA.page },
    });
    expect(opened.status).toBe(201);
    const uuid = opened.body.id as string;
    // She also types her address when asked: it is kept on her visitor contact too.
    const typed = await request(`${stack.url}/v1/widget/conversations/${uuid}/email`, {
      token,
      method: 'PUT',
      body: { email: ZORA.email },
    });
    expect(typed.status).toBe(200);
    for (const [index, text] of ZORA.words.slice(0, 3).entries()) {
      expect((await sendWidgetMessage(stack.url, token, uuid, text, `zora-${index}`)).status).toBe(201);
      await stack.bff.relay.settled();
    }
    const form = new FormData();
    form.set('message_id', 'zora-photo');
    form.set('text', ZORA.words[5]!);
    form.set('file', new Blob([new Uint8Array(pngOf(64, 48))], { type: 'image/png' }), ZORA.words[6]!);
    const photo = await fetch(`${stack.url}/v1/widget/conversations/${uuid}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(photo.status).toBe(201);
    await stack.bff.relay.settled();

    const listed = (await deskApi('/conversations?status=all')).body.data.payload as { id: number; uuid: string }[];
    const number = listed.find((conversation) => conversation.uuid === uuid)!.id;
    expect((await deskApi(`/conversations/${number}/messages`, { body: { content: ZORA.words[3] } })).status).toBe(200);
    expect((await request(`${stack.url}/v1/widget/conversations/${uuid}/close`, { token, body: {} })).status).toBe(200);
    expect(
      (
        await request(`${stack.url}/v1/widget/conversations/${uuid}/survey`, {
          token,
          body: { rating: 4, comment: ZORA.words[4] },
        })
      ).status,
    ).toBeLessThan(300);
    await stack.bff.relay.settled();
    const [row] = await stack.bffSql.query<{ engine_conversation_id: string }>(
      'SELECT engine_conversation_id FROM conversations WHERE uuid = $1',
      [uuid],
    );
    return { uuid, engineId: row!.engine_conversation_id };
  }

  /** Brandt writes through the helpdesk Client API (a live customer); gives his reference. */
  async function brandtWrites(): Promise<string> {
    const base = `${stack.url}/public/api/v1/inboxes/${stack.inboxIdentifier}`;
    const contact = (
      await request(`${base}/contacts`, {
        body: { name: BRANDT.name, email: BRANDT.email, phone_number: BRANDT.phone },
      })
    ).body as { source_id: string };
    const conversation = (await request(`${base}/contacts/${contact.source_id}/conversations`, { body: {} })).body as {
      id: number;
    };
    expect(
      (
        await request(`${base}/contacts/${contact.source_id}/conversations/${conversation.id}/messages`, {
          body: { content: BRANDT.words[0] },
        })
      ).status,
    ).toBe(200);
    await stack.bff.relay.settled();
    const [row] = await stack.bffSql.query<{ id: string }>('SELECT id FROM contacts WHERE email = $1', [BRANDT.email]);
    return `ctc_${row!.id}`;
  }

  /** A tab of the customer's widget on the socket. */
  async function socketOf(token: string): Promise<Socket> {
    const socket = io(stack.url + WIDGET_NAMESPACE, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  it('leaves nothing of the customer in either database, whatever table holds it, and keeps what others said', async () => {
    const bystander = await newVisitor(stack.url);
    const { id: bystanderUuid } = await openWidgetConversation(stack.url, bystander.token);
    expect(
      (await sendWidgetMessage(stack.url, bystander.token, bystanderUuid, BYSTANDER_WORDS, 'bystander-1')).status,
    ).toBe(201);
    await stack.bff.relay.settled();

    const zora = await zoraChats();
    const brandtRef = await brandtWrites();
    // Zora signs out on one device (her identity ended), then opens the chat again: a tab is open when she is forgotten.
    const ended = await zoraSession();
    expect((await request(`${stack.url}/v1/widget-sessions/current`, { method: 'DELETE', token: ended })).status).toBe(
      204,
    );
    const tab = await socketOf(await zoraSession());
    await engine.engine.webhooks.drain();
    await stack.bff.webhooks.drain();
    await stack.bff.feed.catchUp();

    const zoraNeedles = [ZORA.ref, ZORA.name, ZORA.email, ZORA.page, ...ZORA.words, 'Vermilion', '58213'];
    const brandtNeedles = [brandtRef, BRANDT.name, BRANDT.email, BRANDT.phone, ...BRANDT.words];
    const needles = [...zoraNeedles, ...brandtNeedles];
    // The scan does find them, where they are kept, before the forget.
    const bffBefore = await mentions(stack.bffSql, needles);
    const engineBefore = await mentions(engine.sql, needles);
    for (const table of [
      'conversations',
      'messages',
      'contacts',
      'surveys',
      'attachments',
      'webhook_deliveries',
      'revoked_identities',
    ])
      expect(
        bffBefore.some((found) => found.startsWith(`${table}: `)),
        table,
      ).toBe(true);
    for (const table of [
      'conversations',
      'turns',
      'events',
      'action_requests',
      'webhook_deliveries',
      'survey_responses',
      'idempotency_keys',
    ])
      expect(
        engineBefore.some((found) => found.startsWith(`${table}: `)),
        table,
      ).toBe(true);
    expect(storage.size).toBe(1);

    // The site's server forgets both: Zora with its sandbox key, Brandt with its live key.
    const forgotZora = await forget(ZORA.ref, engine.apiKey);
    const forgotBrandt = await forget(brandtRef, engine.liveApiKey);
    expect([forgotZora.status, forgotBrandt.status]).toEqual([202, 202]);
    expect(forgotZora.body.conversations).toBe(1);
    expect(forgotBrandt.body.conversations).toBe(1);

    // The BFF hears of Zora from the feed, of Brandt by webhook (signed as the engine signs it).
    await stack.bff.feed.catchUp();
    const notice = (
      (await request(`${engine.url}/v1/events?types=customer.forgotten&limit=1000`, { token: engine.liveApiKey })).body
        .events as { id: string }[]
    ).find((event) => event.id === forgotBrandt.body.event_id)!;
    const body = JSON.stringify({ ...notice, environment: 'live' });
    const timestamp = Math.floor(Date.now() / 1000);
    const pushed = await request(`${stack.url}/v1/engine-webhooks`, {
      rawBody: body,
      headers: {
        'x-service-timestamp': String(timestamp),
        'x-service-signature': await signWebhook(ENGINE_WEBHOOK_SECRET, timestamp, body),
      },
    });
    expect(pushed.status).toBe(200);
    await until(
      () => tab.connected,
      (connected) => !connected,
      "the forgotten customer's tab to be closed",
    );
    expect(storage.size).toBe(0);
    expect(
      (await request(`${stack.url}/v1/widget/conversations`, { token: await zoraSession() })).body.conversations,
    ).toEqual([]);

    // While the notice time lasts, the engine names the customers only in their customer.forgotten events (and those events' deliveries).
    await engine.engine.webhooks.drain();
    expect(await mentions(stack.bffSql, needles)).toEqual([]);
    expect(await mentions(engine.sql, needles)).toEqual([
      `events: ${brandtRef}`,
      `events: ${ZORA.ref}`,
      `webhook_deliveries: ${brandtRef}`,
      `webhook_deliveries: ${ZORA.ref}`,
    ]);
    await purgeForgetNotices(engine.sql, new Date(Date.now() + FORGET_NOTICE_KEPT_MS + 60_000));
    expect(await mentions(engine.sql, needles)).toEqual([]);

    // Every table of both was read (a table that cannot be read fails everyRow), and the bystander is still there.
    expect((await everyRow(stack.bffSql)).length).toBeGreaterThanOrEqual(20);
    expect((await everyRow(engine.sql)).length).toBeGreaterThanOrEqual(15);
    expect(await mentions(stack.bffSql, [BYSTANDER_WORDS])).toContain(`messages: ${BYSTANDER_WORDS}`);
    expect(await mentions(engine.sql, [BYSTANDER_WORDS])).toContain(`turns: ${BYSTANDER_WORDS}`);
    tab.close();
  });

  it('takes a customer.forgotten event once, however often it comes', async () => {
    const token = await zoraSession();
    const { id: uuid } = await openWidgetConversation(stack.url, token);
    expect((await sendWidgetMessage(stack.url, token, uuid, 'Do you ship abroad?', 'again-1')).status).toBe(201);
    await stack.bff.relay.settled();
    const forgot = await forget(ZORA.ref, engine.apiKey);
    const notice = (
      (await request(`${engine.url}/v1/events?types=customer.forgotten&limit=1000`, { token: engine.apiKey })).body
        .events as { id: string }[]
    ).find((event) => event.id === forgot.body.event_id)!;
    await stack.bff.feed.catchUp();
    expect((await request(`${stack.url}/v1/widget/conversations`, { token })).body.conversations).toEqual([]);
    // The same event again by webhook: already taken, nothing more to do (and a conversation made since stays).
    const kept = await openWidgetConversation(stack.url, token);
    const body = JSON.stringify({ ...notice, environment: 'sandbox' });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'x-service-timestamp': String(timestamp),
      'x-service-signature': await signWebhook(ENGINE_WEBHOOK_SECRET, timestamp, body),
    };
    expect((await request(`${stack.url}/v1/engine-webhooks`, { rawBody: body, headers })).status).toBe(200);
    expect(
      (await request(`${stack.url}/v1/widget/conversations`, { token })).body.conversations.map(
        (conversation: { id: string }) => conversation.id,
      ),
    ).toEqual([kept.id]);
  });
});
