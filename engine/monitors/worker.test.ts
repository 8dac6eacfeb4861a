import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../shared/index.ts';
import { mentions } from '../../test/every-row.ts';
import { DRIVERS, logger, request, startEngine, type TestEngine } from '../../test/stack.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.ts';
import { issueApiKey, setAccountRateLimit } from '../index.ts';
import { createMonitorWorker } from './worker.ts';

/**
 * Monitors read every message after it was written, beside the requests: a finding per message and
 * monitor, its `monitor.finding` event in the feed and in signed webhooks, and never a second one
 * when a pass runs again, also in a new process on the same store.
 */
describe.each(DRIVERS)('monitors reading conversations on $name', (driver) => {
  let engine: TestEngine;
  let receiver: WebhookReceiver;
  let key: string;
  let accountId: string;
  let secret: string;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: key, ...options });
  const monitor = async (body: object) => {
    const response = await api('/v1/monitors', { body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.id as string;
  };
  const conversationSaying = async (text: string, customer_ref = 'monitored-customer') => {
    const id = (await api('/v1/conversations', { body: { customer_ref } })).body.id as string;
    expect((await api(`/v1/conversations/${id}/messages`, { body: { text } })).status).toBe(200);
    return id;
  };
  const drain = async () => {
    await engine.engine.monitors.drain();
    await engine.engine.webhooks.drain();
  };
  const findings = async (conversationId: string) =>
    (await api(`/v1/findings?conversation_id=${conversationId}`)).body.findings as {
      monitor_id: string;
      message_id: string;
      role: string;
      excerpt: string;
      severity: string;
    }[];
  const findingEvents = async (conversationId: string) =>
    (
      (await api('/v1/events?types=monitor.finding&limit=1000')).body.events as { conversation_id: string; data: any }[]
    ).filter((event) => event.conversation_id === conversationId);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    engine = await startEngine(driver, undefined, { webhooks: { allowedPrivateOrigins: [receiver.origin] } });
    const own = await engine.issueKey({ otherAccount: true });
    key = own.key;
    accountId = own.accountId;
    await setAccountRateLimit(engine.sql, accountId, 'sandbox', 100_000);
    const endpoint = await api('/v1/webhook-endpoints', { body: { url: receiver.url } });
    secret = endpoint.body.secret as string;
    await monitor({
      name: 'Legal threats',
      criteria: { keywords: ['lawyer', 'chargeback'] },
      scope: 'customer_messages',
      severity: 'high',
    });
    await monitor({
      name: 'Promises',
      criteria: { keywords: ['guarantee'] },
      scope: 'ai_messages',
      severity: 'medium',
    });
  });
  afterAll(async () => {
    await engine?.engine.monitors.stop();
    await engine?.stop();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.received = [];
  });

  it('finds "chargeback" in a customer message once: a finding, a monitor.finding event and a signed webhook', async () => {
    const id = await conversationSaying('My card was charged twice, I will file a chargeback with my bank.');
    await drain();
    const [finding, ...more] = await findings(id);
    expect(more).toEqual([]);
    expect(finding).toMatchObject({
      message_id: expect.stringMatching(/^trn_/),
      role: 'customer',
      severity: 'high',
      excerpt: 'My card was charged twice, I will file a chargeback with my bank.',
    });
    const events = await findingEvents(id);
    expect(events.map((event) => event.data)).toEqual([
      {
        monitor_id: finding!.monitor_id,
        monitor_name: 'Legal threats',
        conversation_id: id,
        message_id: finding!.message_id,
        excerpt: finding!.excerpt,
        severity: 'high',
      },
    ]);
    const posted = receiver.received.filter(
      (received) => received.headers['x-service-event-type'] === 'monitor.finding',
    );
    expect(posted).toHaveLength(1);
    const { headers, body } = posted[0]!;
    expect(JSON.parse(body)).toMatchObject({ type: 'monitor.finding', conversation_id: id, data: events[0]!.data });
    expect(
      await verifyWebhook(
        secret,
        headers['x-service-timestamp'] as string,
        headers['x-service-signature'] as string,
        body,
        Date.now(),
      ),
    ).toBeUndefined();
  });

  it('never finds a message twice: a pass run again, a new process, or a cursor lost', async () => {
    const id = await conversationSaying('I have spoken to my lawyer about this.');
    await drain();
    await drain();
    // Another engine process on the same store, as after a restart.
    const restarted = createMonitorWorker({ sql: engine.sql, logger, now: () => new Date() });
    await restarted.drain();
    // Even had the cursor's move been lost, the finding's key on monitor and message holds.
    await engine.sql.query('UPDATE monitor_cursors SET position = 0 WHERE conversation_id = $1', [id]);
    await restarted.drain();
    await restarted.stop();
    expect(await findings(id)).toHaveLength(1);
    expect(await findingEvents(id)).toHaveLength(1);
  });

  it('finds the AI\'s "guarantee" with scope ai_messages, and not the customer\'s', async () => {
    await api('/v1/agent', {
      method: 'PATCH',
      body: { greeting: { en: 'Hello! We guarantee an answer within a day.' } },
    });
    const id = await conversationSaying('Do you guarantee delivery before Friday?');
    await drain();
    const found = await findings(id);
    expect(found.map(({ role, severity, excerpt }) => ({ role, severity, excerpt }))).toEqual([
      { role: 'ai', severity: 'medium', excerpt: 'Hello! We guarantee an answer within a day.' },
    ]);
    await api('/v1/agent', { method: 'PATCH', body: { greeting: { en: null } } });
  });

  it('reads messages written while people have the conversation, and on close', async () => {
    const id = (await api('/v1/conversations', { body: { customer_ref: 'handed-over' } })).body.id as string;
    await api(`/v1/conversations/${id}/handover`, { body: { reason: 'test' } });
    await api(`/v1/conversations/${id}/messages`, { body: { text: 'Still waiting, my lawyer says hello.' } });
    await api(`/v1/conversations/${id}/close`, { body: {} });
    await drain();
    expect((await findings(id)).map((finding) => finding.role)).toEqual(['customer']);
  });

  it('reads nothing written before it was made, nor the other environment', async () => {
    const before = await conversationSaying('A refund of a refund, please.');
    await monitor({ name: 'Refunds', criteria: { pattern: 'refunds?' }, severity: 'low' });
    const after = await conversationSaying('A refund, please.');
    const live = (await issueApiKey(engine.sql, accountId, 'live')).key;
    const liveId = (
      await request(`${engine.url}/v1/conversations`, { token: live, body: { customer_ref: 'live-one' } })
    ).body.id as string;
    await request(`${engine.url}/v1/conversations/${liveId}/messages`, {
      token: live,
      body: { text: 'A refund and a chargeback.' },
    });
    await drain();
    expect(await findings(before)).toEqual([]);
    const [{ count } = { count: -1 }] = await engine.sql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM monitor_findings WHERE conversation_id = $1',
      [liveId],
    );
    expect(count).toBe(0);
    expect((await findings(after)).map((finding) => finding.excerpt)).toEqual(['A refund, please.']);
  });

  it("blanks a finding's excerpt when the customer is forgotten, keeping the finding", async () => {
    const id = await conversationSaying('Quokka 4411: a chargeback is next.', 'forget-me');
    await drain();
    expect(await findings(id)).toHaveLength(1);
    expect((await api('/v1/customers/forget-me/forget', { method: 'POST' })).status).toBe(202);
    expect((await findings(id)).map((finding) => finding.excerpt)).toEqual(['']);
    expect(await mentions(engine.sql, ['Quokka 4411'])).toEqual([]);
  });
});
