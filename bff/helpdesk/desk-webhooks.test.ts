import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { AgentBot, DeskConversationList, Inbox, InboxList, User } from '../../shared/schemas/helpdesk/index.ts';
import { DeskWebhookDelivery, DeskWebhookDeliveryList, WebhookAnswer, WebhookListAnswer } from './webhook-schemas.ts';

/**
 * Checks a delivery as a receiver would, with node:crypto alone (not the code that signed it):
 * HMAC-SHA256 of "<timestamp>.<raw body>" with the secret, lowercase hex after "sha256=", within 300 s.
 */
function verifiedByReceiver(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): boolean {
  const timestamp = String(headers['x-desk-timestamp']);
  const signature = String(headers['x-desk-signature']);
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What a receiver was posted, parsed. */
type Posted = { event: string; id?: number; content?: string } & Record<string, unknown>;
const events = (receiver: WebhookReceiver) => receiver.received.map((entry) => JSON.parse(entry.body) as Posted);

/**
 * The helpdesk's webhooks (SPEC "Verifying requests sent by the service": X-Desk-*): an account's
 * webhooks and an agent bot's outgoing_url hear what happens to conversations, signed, retried and
 * switched off by the same kit as the engine's webhooks, written in the same transaction as the change.
 */
describe.each(DRIVERS)('helpdesk webhooks on $name', (driver) => {
  let stack: TestStack;
  let shop: WebhookReceiver;
  let bots: WebhookReceiver;
  let admin: User;
  let agent: User;
  let inbox: Inbox;

  beforeAll(async () => {
    shop = await startWebhookReceiver('/shop');
    bots = await startWebhookReceiver('/bot');
    // The worker sends only when drained, so that each test sees exactly what was due.
    stack = await startStack(
      driver,
      { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN },
      { feedPollMs: 0, deskWebhooks: { pollMs: 0, allowedPrivateOrigins: [shop.origin, bots.origin] } },
    );
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    const person = async (name: string, email: string, role: 'administrator' | 'agent') => {
      const user = User.parse((await platform('/users', { name, email })).body);
      await platform(`/accounts/${stack.accountId}/account_users`, { user_id: user.id, role });
      return user;
    };
    admin = await person('Ada', 'ada@hooks.example', 'administrator');
    agent = await person('Sam', 'sam@hooks.example', 'agent');
    inbox = InboxList.parse((await app('/inboxes', admin.access_token)).body).payload[0] as Inbox;
  });
  afterAll(async () => {
    await stack?.stop();
    await shop?.close();
    await bots?.close();
  });
  beforeEach(() => {
    shop.received.length = 0;
    bots.received.length = 0;
    shop.status = 200;
    bots.status = 200;
  });

  const app = (path: string, token: string | undefined, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);
  const drain = () => stack.bff.webhooks.drain();

  async function addWebhook(body: object) {
    const response = await app('/webhooks', admin.access_token, { body });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return WebhookAnswer.parse(response.body).payload.webhook;
  }

  /** A visitor asks the AI; gives the conversation's number for the people and the visitor's token. */
  async function customerAsks(text: string) {
    const { token } = await newVisitor(stack.url);
    const { id: uuid } = await openWidgetConversation(stack.url, token);
    expect((await sendWidgetMessage(stack.url, token, uuid, text, `q-${uuid}`)).status).toBe(201);
    await stack.bff.relay.settled();
    const listed = DeskConversationList.parse((await app('/conversations?status=all', admin.access_token)).body).data
      .payload;
    return { id: listed.find((conversation) => conversation.uuid === uuid)!.id, uuid, token };
  }

  it('posts what happens in a conversation, signed X-Desk-*, in order, with the account and inbox', async () => {
    const webhook = await addWebhook({ url: shop.url, name: 'CRM' });
    expect(webhook.secret).toMatch(/^whsec_/);
    expect(webhook.subscriptions).toContain('message_created');
    // The secret is shown once.
    const listed = WebhookListAnswer.parse((await app('/webhooks', admin.access_token)).body).payload.webhooks;
    expect(listed.find((entry) => entry.id === webhook.id)).toEqual({ ...webhook, secret: undefined });

    const { id, uuid } = await customerAsks('How do I return an item?');
    await drain();
    const bodies = events(shop);
    expect(bodies.map((body) => body.event).slice(0, 3)).toEqual([
      'conversation_created',
      'message_created',
      'message_created',
    ]);
    const [created, question, answer] = bodies;
    expect(created).toMatchObject({
      event: 'conversation_created',
      id,
      uuid,
      status: 'pending',
      account: { id: stack.accountId },
      inbox: { id: inbox.id, name: inbox.name },
    });
    expect(question).toMatchObject({
      content: 'How do I return an item?',
      message_type: 0,
      private: false,
      sender: { type: 'contact' },
      conversation: { id, uuid },
    });
    expect(answer).toMatchObject({
      message_type: 1,
      sender: { type: 'agent_bot', name: 'AI assistant' },
      conversation: { id },
    });
    // The customer's message was delivered and read: message_updated.
    expect(bodies.some((body) => body.event === 'message_updated' && body.id === question!.id)).toBe(true);
    for (const entry of shop.received) {
      expect(entry.headers['content-type']).toBe('application/json');
      expect(entry.headers['x-desk-event-type']).toBe(JSON.parse(entry.body).event);
      expect(entry.headers['x-desk-event-id']).toMatch(/^evt_/);
      expect(entry.headers['x-desk-delivery-id']).toMatch(/^whd_/);
      expect(entry.headers['x-service-signature']).toBeUndefined();
      expect(verifiedByReceiver(webhook.secret!, entry.headers, entry.body)).toBe(true);
      // A body changed on the way, or another secret, does not verify.
      expect(verifiedByReceiver(webhook.secret!, entry.headers, entry.body.replace('}', ' }'))).toBe(false);
      expect(verifiedByReceiver('whsec_not-the-secret', entry.headers, entry.body)).toBe(false);
    }
    const deliveries = DeskWebhookDeliveryList.parse(
      (await app(`/webhooks/${webhook.id}/deliveries`, admin.access_token)).body,
    ).payload;
    expect(deliveries.length).toBe(shop.received.length);
    expect(
      deliveries.every(
        (delivery) =>
          delivery.status === 'delivered' && delivery.attempts[0]?.status === 200 && delivery.webhook_id === webhook.id,
      ),
    ).toBe(true);
    await app(`/webhooks/${webhook.id}`, admin.access_token, { method: 'DELETE' });
  });

  it('writes deliveries with the change itself, before anything is sent', async () => {
    const webhook = await addWebhook({ url: shop.url, subscriptions: ['conversation_created'] });
    const { token } = await newVisitor(stack.url);
    const { id: uuid } = await openWidgetConversation(stack.url, token);
    // Nothing has been sent (the worker was not run), yet the delivery is there, due.
    expect(shop.received).toEqual([]);
    const pending = DeskWebhookDeliveryList.parse(
      (await app(`/webhooks/${webhook.id}/deliveries?status=pending`, admin.access_token)).body,
    ).payload;
    expect(pending).toHaveLength(1);
    await drain();
    expect(events(shop)).toEqual([expect.objectContaining({ event: 'conversation_created', uuid })]);
    await app(`/webhooks/${webhook.id}`, admin.access_token, { method: 'DELETE' });
  });

  it('sends a webhook only the events it subscribed to', async () => {
    const webhook = await addWebhook({
      webhook: { url: shop.url, subscriptions: ['conversation_status_changed', 'conversation_updated'] },
    });
    const { id } = await customerAsks('Do you ship abroad?');
    expect(
      (await app(`/conversations/${id}/assignments`, admin.access_token, { body: { assignee_id: agent.id } })).status,
    ).toBe(200);
    expect(
      (await app(`/conversations/${id}/toggle_status`, admin.access_token, { body: { status: 'resolved' } })).status,
    ).toBe(200);
    await stack.bff.relay.settled();
    await drain();
    const bodies = events(shop);
    expect(bodies.map((body) => body.event)).toEqual(['conversation_updated', 'conversation_status_changed']);
    expect(bodies[0]).toMatchObject({ id, assignee_id: agent.id, changed_attributes: { assignee_id: agent.id } });
    expect(bodies[1]).toMatchObject({ id, status: 'resolved' });
    await app(`/webhooks/${webhook.id}`, admin.access_token, { method: 'DELETE' });
  });

  it("posts to an agent bot's outgoing_url the conversations of the inboxes it is connected to, and the bot answers with its own token", async () => {
    const made = await app('/agent_bots', admin.access_token, { body: { name: 'Order bot', outgoing_url: bots.url } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const bot = AgentBot.parse(made.body);
    expect(bot.secret).toMatch(/^whsec_/);
    expect(AgentBot.parse((await app(`/agent_bots/${bot.id}`, admin.access_token)).body).secret).toBeUndefined();

    // Not connected yet: the bot hears nothing.
    await customerAsks('Is there a shop in Lyon?');
    await drain();
    expect(bots.received).toEqual([]);

    expect(
      (await app(`/inboxes/${inbox.id}/set_agent_bot`, admin.access_token, { body: { agent_bot: bot.id } })).status,
    ).toBe(200);
    const { id } = await customerAsks('Where is my parcel?');
    await drain();
    const heard = events(bots);
    expect(heard.map((body) => body.event)).toContain('message_created');
    for (const entry of bots.received) expect(verifiedByReceiver(bot.secret!, entry.headers, entry.body)).toBe(true);

    // The bot answers through the Application API; its answer is the bot's, and its webhook says so.
    bots.received.length = 0;
    const answered = await app(`/conversations/${id}/messages`, bot.access_token, {
      body: { content: 'It left our warehouse today.' },
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    await drain();
    const own = events(bots).find(
      (body) => body.event === 'message_created' && body.content === 'It left our warehouse today.',
    );
    expect(own).toMatchObject({ message_type: 1, sender: { type: 'agent_bot', id: bot.id } });

    // Without an outgoing_url, nothing more goes to it.
    expect(
      (await app(`/agent_bots/${bot.id}`, admin.access_token, { method: 'PATCH', body: { outgoing_url: null } }))
        .status,
    ).toBe(200);
    bots.received.length = 0;
    await customerAsks('Can I change my order?');
    await drain();
    expect(bots.received).toEqual([]);
    await app(`/inboxes/${inbox.id}/set_agent_bot`, admin.access_token, { body: { agent_bot: null } });
  });

  it("pages a webhook's deliveries by 100, newest first, each once (page 2 holds the rest)", async () => {
    const webhook = await addWebhook({ url: shop.url, subscriptions: ['conversation_created'] });
    const [endpoint] = await stack.bffSql.query<{ id: string }>('SELECT id FROM webhook_endpoints WHERE number = $1', [
      webhook.id,
    ]);
    // 105 past deliveries, as a busy day leaves them (written straight into the store: making them one by one takes minutes).
    const base = Date.now() - 3_600_000;
    for (let index = 0; index < 105; index += 1) {
      await stack.bffSql.query(
        "INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, event_seq, body, status, created_at) VALUES ($1, $2, $3, 'conversation_created', $4, '{}', 'delivered', $5)",
        [
          `whd_paging${String(index).padStart(3, '0')}`,
          endpoint!.id,
          `evt_paging${index}`,
          9_000_000 + index,
          new Date(base + index * 1000),
        ],
      );
    }
    const page = async (number: number) =>
      DeskWebhookDeliveryList.parse(
        (await app(`/webhooks/${webhook.id}/deliveries?page=${number}`, admin.access_token)).body,
      ).payload.map((delivery) => delivery.id);
    const [first, second, third] = [await page(1), await page(2), await page(3)];
    expect(first).toHaveLength(100);
    expect(first[0]).toBe('whd_paging104');
    expect(second).toEqual(['whd_paging004', 'whd_paging003', 'whd_paging002', 'whd_paging001', 'whd_paging000']);
    expect(third).toEqual([]);
    expect(new Set([...first, ...second]).size).toBe(105);
    for (const bad of ['0', '-1', 'two', '1.5'])
      expect((await app(`/webhooks/${webhook.id}/deliveries?page=${bad}`, admin.access_token)).status).toBe(422);
    await app(`/webhooks/${webhook.id}`, admin.access_token, { method: 'DELETE' });
  });

  it('retries a failed delivery a minute later, pings even a switched-off webhook, and switches it on again on request', async () => {
    const webhook = await addWebhook({ url: shop.url, subscriptions: ['conversation_created'] });
    shop.status = 500;
    const { token } = await newVisitor(stack.url);
    await openWidgetConversation(stack.url, token);
    const before = Date.now();
    await drain();
    const [delivery] = DeskWebhookDeliveryList.parse(
      (await app(`/webhooks/${webhook.id}/deliveries`, admin.access_token)).body,
    ).payload;
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: [{ status: 500, error: 'the receiver answered 500' }],
    });
    expect(new Date(delivery!.next_attempt_at!).getTime() - before).toBeGreaterThanOrEqual(59_000);
    // Still being attempted: not sent again by hand.
    expect(
      (await app(`/webhooks/${webhook.id}/deliveries/${delivery!.id}/resend`, admin.access_token, { body: {} })).status,
    ).toBe(409);

    // Switched off (as five days of failures would), a repaired receiver can still be pinged.
    await stack.bffSql.query(
      "UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'Every delivery failed for 5 days.' WHERE url = $1",
      [shop.url],
    );
    shop.status = 204;
    const ping = await app(`/webhooks/${webhook.id}/ping`, admin.access_token, { body: {} });
    expect(ping.status, JSON.stringify(ping.body)).toBe(200);
    expect(DeskWebhookDelivery.parse(ping.body)).toMatchObject({
      event_type: 'ping',
      status: 'delivered',
      attempts: [{ status: 204 }],
    });
    expect(shop.received.at(-1)!.headers['x-desk-event-type']).toBe('ping');
    expect(JSON.parse(shop.received.at(-1)!.body)).toMatchObject({
      event: 'ping',
      webhook: { id: webhook.id },
      account: { id: stack.accountId },
    });
    const off = WebhookListAnswer.parse((await app('/webhooks', admin.access_token)).body).payload.webhooks.find(
      (entry) => entry.id === webhook.id,
    )!;
    expect(off).toMatchObject({ enabled: false, disabled_reason: 'Every delivery failed for 5 days.' });
    const on = await app(`/webhooks/${webhook.id}`, admin.access_token, { method: 'PATCH', body: { enabled: true } });
    expect(WebhookAnswer.parse(on.body).payload.webhook).toMatchObject({ enabled: true, disabled_reason: null });
    await app(`/webhooks/${webhook.id}`, admin.access_token, { method: 'DELETE' });
  });

  it('posts webwidget_triggered when a customer opens the chat, with the page they are on', async () => {
    const webhook = await addWebhook({ url: shop.url, subscriptions: ['webwidget_triggered'] });
    const { token, customer_ref } = (await newVisitor(stack.url)) as { token: string; customer_ref: string };
    const config = await request(`${stack.url}/v1/widget/config`, {
      token,
      headers: { referer: 'https://shop.example/shoes?size=42', 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    expect(config.status).toBe(200);
    await drain();
    expect(events(shop)).toEqual([
      expect.objectContaining({
        event: 'webwidget_triggered',
        source_id: customer_ref,
        contact: expect.objectContaining({ identifier: customer_ref }),
        current_conversation: null,
        event_info: expect.objectContaining({
          referer: 'https://shop.example/shoes?size=42',
          browser_language: 'fr-FR',
        }),
        inbox: { id: inbox.id, name: inbox.name },
      }),
    ]);
    await app(`/webhooks/${webhook.id}`, admin.access_token, { method: 'DELETE' });
  });

  it('lets only administrators keep webhooks', async () => {
    const made = await app('/agent_bots', admin.access_token, { body: { name: 'Reader bot' } });
    const bot = AgentBot.parse(made.body);
    for (const token of [agent.access_token, bot.access_token, PLATFORM_TOKEN, 'not-a-token', undefined]) {
      expect((await app('/webhooks', token)).status).toBe(401);
      expect((await app('/webhooks', token, { body: { url: shop.url } })).status).toBe(401);
    }
    expect(WebhookListAnswer.parse((await app('/webhooks', admin.access_token)).body).payload.webhooks).toEqual([]);
    // Another account's webhook is not found.
    const other = await desk(`${stack.url}/platform/api/v1/accounts`, PLATFORM_TOKEN, { body: { name: 'Other shop' } });
    await desk(`${stack.url}/platform/api/v1/accounts/${other.body.id}/account_users`, PLATFORM_TOKEN, {
      body: { user_id: admin.id, role: 'administrator' },
    });
    const theirs = WebhookAnswer.parse(
      (
        await desk(`${stack.url}/api/v1/accounts/${other.body.id}/webhooks`, admin.access_token, {
          body: { url: shop.url },
        })
      ).body,
    ).payload.webhook;
    expect(
      (await app(`/webhooks/${theirs.id}`, admin.access_token, { method: 'PATCH', body: { name: 'mine now' } })).status,
    ).toBe(404);
    expect((await app(`/webhooks/${theirs.id}/deliveries`, admin.access_token)).status).toBe(404);
  });

  it('refuses private, plain-http and malformed receivers and unknown events with 422, and keeps nothing', async () => {
    const bad = [
      { url: 'http://10.1.2.3/hook' },
      { url: 'https://169.254.169.254/latest/meta-data' },
      { url: 'https://127.0.0.1:9/hook' },
      { url: 'https://[::1]/hook' },
      { url: 'https://localhost/hook' },
      { url: 'http://crm.example/hook' },
      { url: 'ftp://crm.example/hook' },
      { url: 'not a url' },
      { url: shop.url, subscriptions: ['everything'] },
      { url: shop.url, secret: 'mine' },
      {},
    ];
    for (const body of bad) {
      const response = await app('/webhooks', admin.access_token, { body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body).toMatchObject({ description: expect.any(String) });
    }
    expect(
      (await app('/agent_bots', admin.access_token, { body: { name: 'Sneaky', outgoing_url: 'https://10.0.0.5/x' } }))
        .status,
    ).toBe(422);
    expect(WebhookListAnswer.parse((await app('/webhooks', admin.access_token)).body).payload.webhooks).toEqual([]);
    expect(
      (await app('/webhooks/999999', admin.access_token, { method: 'PATCH', body: { url: shop.url } })).status,
    ).toBe(404);
    expect((await app('/webhooks/1/deliveries/not-a-delivery/resend', admin.access_token, { body: {} })).status).toBe(
      422,
    );
  });

  it('lets an account have at most 20 webhooks', async () => {
    const made = [];
    for (let index = 0; index < 20; index++) made.push(await addWebhook({ url: `${shop.url}?n=${index}` }));
    const refused = await app('/webhooks', admin.access_token, { body: { url: `${shop.url}?n=20` } });
    expect(refused.status).toBe(422);
    expect(refused.body.description).toMatch(/at most 20/);
    for (const webhook of made) await app(`/webhooks/${webhook.id}`, admin.access_token, { method: 'DELETE' });
  });

  it('keeps signing secrets sealed at rest: the store holds neither the webhook nor the bot secret', async () => {
    const webhook = await addWebhook({ url: shop.url, subscriptions: ['conversation_created'] });
    const bot = AgentBot.parse(
      (await app('/agent_bots', admin.access_token, { body: { name: 'Sealed bot', outgoing_url: bots.url } })).body,
    );
    const stored = await stack.bffSql.query<{ secret: string }>(
      'SELECT secret FROM webhook_endpoints WHERE url IN ($1, $2)',
      [shop.url, bots.url],
    );
    const botRow = await stack.bffSql.query<{ webhook_secret: string }>(
      'SELECT webhook_secret FROM agent_bots WHERE id = $1',
      [bot.id],
    );
    for (const value of [...stored.map((row) => row.secret), botRow[0]!.webhook_secret]) {
      expect(value).toMatch(/^sealed:v1:/);
      expect(value).not.toContain(webhook.secret!.slice(6));
      expect(value).not.toContain(bot.secret!.slice(6));
    }
    // The deliveries are still signed with the secret the create answer showed.
    const { token } = await newVisitor(stack.url);
    await openWidgetConversation(stack.url, token);
    await drain();
    expect(shop.received.length).toBeGreaterThan(0);
    for (const entry of shop.received)
      expect(verifiedByReceiver(webhook.secret!, entry.headers, entry.body)).toBe(true);
    const settings = await stack.bffSql.query<{ name: string; value: string }>(
      "SELECT name, value FROM settings WHERE name IN ('session_keys', 'engine_api_key', 'engine_webhook')",
    );
    expect(settings.length).toBeGreaterThan(0);
    for (const { name, value } of settings) expect([name, value.startsWith('sealed:v1:')]).toEqual([name, true]);
    await app(`/webhooks/${webhook.id}`, admin.access_token, { method: 'DELETE' });
    await app(`/agent_bots/${bot.id}`, admin.access_token, { method: 'DELETE' });
  });

  it("audits every change to the account's webhooks, never their secret", async () => {
    const webhook = await addWebhook({ url: shop.url, name: 'Audited' });
    await app(`/webhooks/${webhook.id}`, admin.access_token, {
      method: 'PATCH',
      body: { subscriptions: ['message_created'] },
    });
    await app(`/webhooks/${webhook.id}`, admin.access_token, { method: 'DELETE' });
    const log = await app('/audit_logs?types[]=Webhook', admin.access_token);
    const entries = (
      log.body.audit_logs as { action: string; auditable_id: string; audited_changes: unknown }[]
    ).filter((entry) => String(entry.auditable_id) === String(webhook.id));
    expect(entries.map((entry) => entry.action).sort()).toEqual(['create', 'destroy', 'update']);
    expect(JSON.stringify(log.body)).not.toContain(webhook.secret!);
  });
});

describe('helpdesk webhooks follow the change at once', () => {
  it('sends a delivery right after the commit that wrote it, long before the worker would look again', async () => {
    const receiver = await startWebhookReceiver('/soon');
    // The worker looks for due deliveries only once a minute: only the nudge after the commit can be this quick.
    const stack = await startStack(
      undefined,
      { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN },
      { feedPollMs: 0, deskWebhooks: { pollMs: 60_000, allowedPrivateOrigins: [receiver.origin] } },
    );
    try {
      const admin = User.parse(
        (
          await desk(`${stack.url}/platform/api/v1/users`, PLATFORM_TOKEN, {
            body: { name: 'Ada', email: 'ada@soon.example' },
          })
        ).body,
      );
      await desk(`${stack.url}/platform/api/v1/accounts/${stack.accountId}/account_users`, PLATFORM_TOKEN, {
        body: { user_id: admin.id, role: 'administrator' },
      });
      await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/webhooks`, admin.access_token, {
        body: { url: receiver.url, subscriptions: ['conversation_created'] },
      });
      const { token } = await newVisitor(stack.url);
      await openWidgetConversation(stack.url, token);
      await until(
        () => receiver.received.length,
        (count) => count === 1,
        'the delivery, sent on the nudge',
        5_000,
      );
    } finally {
      await stack.stop();
      await receiver.close();
    }
  });
});
