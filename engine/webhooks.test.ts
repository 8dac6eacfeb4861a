import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../shared/index.ts';
import { closeServer, DRIVERS, logger, request, startEngine, type TestEngine } from '../test/stack.ts';
import { until } from '../test/until.ts';
import { issueApiKey } from './index.ts';
import { createSender, createWebhookWorker, isPrivateAddress, RETRY_WAITS_MS } from '../shared/server/index.ts';
import { feedEndpoints } from './webhooks/endpoints.ts';

/** A real HTTP receiver on loopback that records what it is sent and answers with `status`. */
interface Receiver {
  url: string;
  origin: string;
  received: { headers: IncomingMessage['headers']; body: string }[];
  status: number;
  /** Holds every answer until released (for timeouts). */
  hang: boolean;
  /** The answers held while `hang` was on; `release` answers them with `status`. */
  held: ServerResponse[];
  server: Server;
}

function release(receiver: Receiver): void {
  receiver.hang = false;
  for (const response of receiver.held.splice(0))
    response.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('ok');
}

async function startReceiver(): Promise<Receiver> {
  const receiver = { received: [], status: 200, hang: false, held: [] } as unknown as Receiver;
  receiver.server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      receiver.received.push({ headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (receiver.hang) {
        receiver.held.push(response);
        return;
      }
      response.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.origin = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  receiver.url = `${receiver.origin}/hooks/parley`;
  return receiver;
}

const MINUTE = 60_000;
const DAY = 24 * 3600_000;

describe.each(DRIVERS)('webhook delivery on $name', (driver) => {
  let engine: TestEngine;
  let receiver: Receiver;
  let other: Receiver;
  let clock = Date.now();
  const now = () => new Date(clock);
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const open = async (customer_ref = 'customer-1') =>
    (await api('/v1/conversations', { body: { customer_ref } })).body as { id: string };
  const addEndpoint = async (body: object) => {
    const response = await api('/v1/webhook-endpoints', { body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as { id: string; secret: string; url: string };
  };
  const deliveries = async (endpointId: string) =>
    (await api(`/v1/webhook-endpoints/${endpointId}/deliveries`)).body.deliveries as {
      id: string;
      event_id: string;
      event_type: string;
      status: string;
      next_attempt_at: string | null;
      attempts: { at: string; status: number | null; error: string | null }[];
    }[];
  const bodies = (target: Receiver) =>
    target.received.map(
      (request) =>
        JSON.parse(request.body) as {
          id: string;
          type: string;
          environment: string;
          conversation_id: string | null;
          data: unknown;
          created_at: string;
        },
    );
  const drain = () => engine.engine.webhooks.drain();

  beforeAll(async () => {
    receiver = await startReceiver();
    other = await startReceiver();
    engine = await startEngine(driver, now, { webhooks: { allowedPrivateOrigins: [receiver.origin, other.origin] } });
  });
  afterAll(async () => {
    await engine?.stop();
    for (const target of [receiver, other]) if (target) await closeServer(target.server);
  });
  beforeEach(async () => {
    clock = Date.now();
    for (const target of [receiver, other]) {
      target.received = [];
      target.status = 200;
      target.hang = false;
      target.held = [];
    }
    // Each test starts with no endpoints of its own left from another.
    for (const endpoint of (await api('/v1/webhook-endpoints')).body.endpoints as { id: string }[])
      await api(`/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE' });
  });

  it('posts every event recorded after the endpoint was added, signed, with the headers and body SPEC names', async () => {
    await open('before-the-endpoint');
    const endpoint = await addEndpoint({ url: receiver.url, description: 'Our helpdesk' });
    expect(endpoint.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const listed = (await api('/v1/webhook-endpoints')).body.endpoints;
    expect(listed).toEqual([
      {
        id: endpoint.id,
        url: receiver.url,
        environment: 'sandbox',
        event_types: null,
        description: 'Our helpdesk',
        enabled: true,
        disabled_reason: null,
        created_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(endpoint.secret);
    // Kept sealed at rest: the store does not hold the secret.
    const [row] = await engine.sql.query<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = $1', [
      endpoint.id,
    ]);
    expect(row!.secret).toMatch(/^sealed:v1:/);
    expect(row!.secret).not.toContain(endpoint.secret.slice(6));

    const { id } = await open('after-the-endpoint');
    await api(`/v1/conversations/${id}/messages`, { body: { text: 'How do I return an item?' } });
    await drain();

    const feed = (await api('/v1/events?limit=1000')).body.events as {
      id: string;
      type: string;
      conversation_id: string;
    }[];
    const expected = feed.filter((event) => event.conversation_id === id);
    expect(bodies(receiver).map((body) => body.id)).toEqual(expected.map((event) => event.id));
    expect(bodies(receiver).map((body) => body.type)).toEqual(['conversation.opened', 'conversation.reply']);
    for (const [index, { headers, body }] of receiver.received.entries()) {
      const event = expected[index]!;
      expect(JSON.parse(body)).toEqual({ ...event, environment: 'sandbox' });
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-service-event-id']).toBe(event.id);
      expect(headers['x-service-event-type']).toBe(event.type);
      expect(headers['x-service-delivery-id']).toMatch(/^whd_/);
      expect(
        await verifyWebhook(
          endpoint.secret,
          headers['x-service-timestamp'] as string,
          headers['x-service-signature'] as string,
          body,
          Date.now(),
        ),
      ).toBeUndefined();
      expect(
        await verifyWebhook(
          'whsec_not-the-secret',
          headers['x-service-timestamp'] as string,
          headers['x-service-signature'] as string,
          body,
          Date.now(),
        ),
      ).toBe('mismatch');
    }
    // Delivered once: another pass sends nothing again.
    await drain();
    expect(receiver.received).toHaveLength(2);
    expect(
      (await deliveries(endpoint.id)).map((delivery) => [
        delivery.event_type,
        delivery.status,
        delivery.attempts.map((attempt) => attempt.status),
      ]),
    ).toEqual([
      ['conversation.reply', 'delivered', [200]],
      ['conversation.opened', 'delivered', [200]],
    ]);
  });

  it('sends an endpoint only the event types it chose, and each endpoint its own copy', async () => {
    const chosen = await addEndpoint({ url: receiver.url, event_types: ['conversation.reply', 'conversation.closed'] });
    await addEndpoint({ url: other.url });
    const { id } = await open();
    await api(`/v1/conversations/${id}/messages`, { body: { text: 'Do you ship abroad?' } });
    await api(`/v1/conversations/${id}/close`, { body: { resolved: true } });
    await drain();
    expect(bodies(receiver).map((body) => body.type)).toEqual(['conversation.reply', 'conversation.closed']);
    expect(bodies(other).map((body) => body.type)).toEqual([
      'conversation.opened',
      'conversation.reply',
      'conversation.closed',
      'quality.scored',
    ]);
    expect((await api(`/v1/webhook-endpoints/${chosen.id}`)).body.event_types).toEqual([
      'conversation.reply',
      'conversation.closed',
    ]);
  });

  it('retries a refused delivery after 1 min, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then marks it failed after the 8th attempt', async () => {
    const endpoint = await addEndpoint({ url: receiver.url, event_types: ['conversation.opened'] });
    receiver.status = 500;
    await open();
    await drain();
    expect(receiver.received).toHaveLength(1);
    for (const [index, wait] of RETRY_WAITS_MS.entries()) {
      const [delivery] = await deliveries(endpoint.id);
      expect(delivery!.status).toBe('pending');
      expect(Date.parse(delivery!.next_attempt_at!)).toBe(clock + wait);
      // Not a second early.
      clock += wait - 1000;
      await drain();
      expect(receiver.received).toHaveLength(index + 1);
      clock += 1000;
      await drain();
      expect(receiver.received).toHaveLength(index + 2);
    }
    const [failed] = await deliveries(endpoint.id);
    expect(failed).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(failed!.attempts).toHaveLength(8);
    expect(
      failed!.attempts.every((attempt) => attempt.status === 500 && attempt.error === 'the receiver answered 500'),
    ).toBe(true);
    // The same event each time, with the same delivery id.
    expect(new Set(receiver.received.map((request) => request.headers['x-service-delivery-id'])).size).toBe(1);
    expect(new Set(bodies(receiver).map((body) => body.id)).size).toBe(1);

    clock += DAY;
    await drain();
    expect(receiver.received).toHaveLength(8);

    // Sent again by hand once the receiver is fixed: a new round, delivered at once.
    receiver.status = 204;
    expect((await api(`/v1/webhook-deliveries/${failed!.id}/resend`, { body: {} })).status).toBe(202);
    await drain();
    expect(receiver.received).toHaveLength(9);
    const [resent] = await deliveries(endpoint.id);
    expect(resent).toMatchObject({ status: 'delivered', next_attempt_at: null });
    expect(resent!.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 500, 500, 500, 500, 500, 500, 204]);
    const again = await api(`/v1/webhook-deliveries/${failed!.id}/resend`, { body: {} });
    expect(again.status).toBe(202);
    await drain();
    expect(receiver.received).toHaveLength(10);
  });

  it('switches off an endpoint whose every delivery failed for 5 days, sends it nothing more, and goes on from there once switched on again', async () => {
    const endpoint = await addEndpoint({ url: receiver.url, event_types: ['conversation.opened'] });
    receiver.status = 503;
    const opened = [await open('day-0')];
    await drain();
    clock += 5 * DAY - MINUTE;
    opened.push(await open('day-5-minus-a-minute'));
    await drain();
    expect((await api(`/v1/webhook-endpoints/${endpoint.id}`)).body).toMatchObject({
      enabled: true,
      disabled_reason: null,
    });

    clock += 2 * MINUTE;
    opened.push(await open('day-5'));
    await drain();
    expect((await api(`/v1/webhook-endpoints/${endpoint.id}`)).body).toMatchObject({
      enabled: false,
      disabled_reason: 'Every delivery failed for 5 days.',
    });
    const sentWhileOn = receiver.received.length;
    const whileOff = await open('while-off');
    clock += DAY;
    await drain();
    expect(receiver.received).toHaveLength(sentWhileOn);

    receiver.status = 200;
    const enabled = await api(`/v1/webhook-endpoints/${endpoint.id}/enable`, { body: {} });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    await drain();
    // The event recorded while it was off arrives, and so does the one whose attempt switched it off.
    const delivered = bodies(receiver)
      .slice(sentWhileOn)
      .map((body) => body.conversation_id);
    expect(delivered).toContain(whileOff.id);
    expect(delivered).toContain(opened[2]!.id);
  });

  it('posts a ping at once on request, outside the feed, and answers with its first attempt', async () => {
    const endpoint = await addEndpoint({ url: receiver.url });
    const ping = await api(`/v1/webhook-endpoints/${endpoint.id}/ping`, { body: {} });
    expect(ping.status).toBe(201);
    expect(ping.body).toMatchObject({
      id: expect.stringMatching(/^whd_/),
      event_type: 'ping',
      status: 'delivered',
      attempts: [{ status: 200, error: null }],
    });
    expect(bodies(receiver)).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'ping',
        created_at: expect.any(String),
        conversation_id: null,
        data: {},
        environment: 'sandbox',
      },
    ]);
    const feed = (await api('/v1/events?types=ping')).body.events;
    expect(feed).toEqual([]);

    receiver.status = 404;
    const refused = await api(`/v1/webhook-endpoints/${endpoint.id}/ping`, { body: {} });
    expect(refused.body).toMatchObject({
      status: 'pending',
      attempts: [{ status: 404, error: 'the receiver answered 404' }],
    });
  });

  it('posts a ping to a switched-off endpoint, so a repaired receiver can be tested before it is switched on again', async () => {
    const endpoint = await addEndpoint({ url: receiver.url, event_types: ['conversation.opened'] });
    receiver.status = 503;
    await open('fails-for-days');
    await drain();
    clock += 5 * DAY + MINUTE;
    await open('switches-it-off');
    await drain();
    expect((await api(`/v1/webhook-endpoints/${endpoint.id}`)).body).toMatchObject({ enabled: false });

    // Repaired: the ping reaches it while it is still switched off, and leaves it off.
    receiver.status = 200;
    receiver.received = [];
    const ping = await api(`/v1/webhook-endpoints/${endpoint.id}/ping`, { body: {} });
    expect(ping.status).toBe(201);
    expect(ping.body).toMatchObject({
      event_type: 'ping',
      status: 'delivered',
      attempts: [{ status: 200, error: null }],
    });
    expect(bodies(receiver).map((body) => body.type)).toEqual(['ping']);
    expect((await api(`/v1/webhook-endpoints/${endpoint.id}`)).body).toMatchObject({ enabled: false });

    // Still broken: the ping's retries reach it too, while its events wait for it to be switched on.
    receiver.status = 500;
    receiver.received = [];
    const refused = await api(`/v1/webhook-endpoints/${endpoint.id}/ping`, { body: {} });
    expect(refused.body).toMatchObject({ status: 'pending', attempts: [{ status: 500 }] });
    clock += RETRY_WAITS_MS[0]!;
    await drain();
    expect(bodies(receiver).map((body) => body.type)).toEqual(['ping', 'ping']);
    expect((await api(`/v1/webhook-endpoints/${endpoint.id}`)).body).toMatchObject({ enabled: false });
  });

  it("pages an endpoint's deliveries past 100 with after and limit, newest first, each delivery once", async () => {
    const endpoint = await addEndpoint({ url: receiver.url, event_types: ['conversation.opened'] });
    const opened: string[] = [];
    for (let batch = 0; batch < 7; batch++)
      opened.push(
        ...(await Promise.all(Array.from({ length: 15 }, (_, index) => open(`paged-${batch}-${index}`)))).map(
          (conversation) => conversation.id,
        ),
      );
    await drain();
    const feed = (await api('/v1/events?limit=1000&types=conversation.opened')).body.events as {
      id: string;
      conversation_id: string;
    }[];
    const newestFirst = feed
      .filter((event) => opened.includes(event.conversation_id))
      .map((event) => event.id)
      .reverse();
    expect(newestFirst).toHaveLength(105);

    const first = await api(`/v1/webhook-endpoints/${endpoint.id}/deliveries`);
    expect(first.status).toBe(200);
    expect(first.body.deliveries).toHaveLength(100);
    expect(first.body).toMatchObject({ has_more: true, next: first.body.deliveries[99].id });
    const rest = await api(`/v1/webhook-endpoints/${endpoint.id}/deliveries?after=${first.body.next}`);
    expect(rest.body.deliveries).toHaveLength(5);
    expect(rest.body).toMatchObject({ has_more: false, next: rest.body.deliveries[4].id });
    expect(
      [...first.body.deliveries, ...rest.body.deliveries].map((delivery: { event_id: string }) => delivery.event_id),
    ).toEqual(newestFirst);
    // Read on from the last page: nothing older, and the same cursor back.
    const end = await api(`/v1/webhook-endpoints/${endpoint.id}/deliveries?after=${rest.body.next}`);
    expect(end.body).toEqual({ deliveries: [], next: rest.body.next, has_more: false });

    // Smaller pages walk the same list, with the status filter kept along the way.
    const walked: string[] = [];
    let after = '';
    for (let page = 0; page < 10; page++) {
      const response = await api(
        `/v1/webhook-endpoints/${endpoint.id}/deliveries?status=delivered&limit=40${after && `&after=${after}`}`,
      );
      walked.push(...response.body.deliveries.map((delivery: { event_id: string }) => delivery.event_id));
      if (!response.body.has_more) break;
      after = response.body.next;
    }
    expect(walked).toEqual(newestFirst);
    expect((await api(`/v1/webhook-endpoints/${endpoint.id}/deliveries?status=failed`)).body).toEqual({
      deliveries: [],
      next: null,
      has_more: false,
    });
  });

  it('refuses a bad page of deliveries with 400 invalid_request: a limit out of range, a malformed cursor, or a delivery of another endpoint', async () => {
    const endpoint = await addEndpoint({ url: receiver.url });
    const another = await addEndpoint({ url: other.url });
    const ping = await api(`/v1/webhook-endpoints/${another.id}/ping`, { body: {} });
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=ten',
      'after=evt_0000000000000000',
      'after=whd_',
      `after=${ping.body.id}`,
      'offset=100',
    ]) {
      const response = await api(`/v1/webhook-endpoints/${endpoint.id}/deliveries?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.code, query).toBe('invalid_request');
    }
    expect((await api(`/v1/webhook-endpoints/${another.id}/deliveries?after=${ping.body.id}`)).body).toEqual({
      deliveries: [],
      next: ping.body.id,
      has_more: false,
    });
  });

  it('sends nothing to a removed endpoint, which is then a 404', async () => {
    const endpoint = await addEndpoint({ url: receiver.url });
    expect((await api(`/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE' })).status).toBe(204);
    await open();
    await drain();
    expect(receiver.received).toEqual([]);
    for (const [method, path] of [
      ['GET', ''],
      ['DELETE', ''],
      ['POST', '/ping'],
      ['POST', '/enable'],
      ['GET', '/deliveries'],
    ] as const) {
      const response = await api(`/v1/webhook-endpoints/${endpoint.id}${path}`, {
        method,
        ...(method === 'POST' ? { body: {} } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });

  it("keeps environments and accounts apart: a live key neither sees nor reaches a sandbox endpoint, and live events don't go to it", async () => {
    const endpoint = await addEndpoint({ url: receiver.url });
    const { key: liveKey } = await issueApiKey(engine.sql, engine.accountId, 'live');
    const live = (path: string, options: Parameters<typeof request>[1] = {}) =>
      request(engine.url + path, { token: liveKey, ...options });
    expect((await live('/v1/webhook-endpoints')).body.endpoints).toEqual([]);
    expect((await live(`/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await live(`/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await live('/v1/conversations', { body: { customer_ref: 'live-customer' } })).status).toBe(201);
    await drain();
    expect(receiver.received).toEqual([]);
    // And a live endpoint must use https, unless its origin is the operator's own (listed as an allowed private origin).
    const plain = await live('/v1/webhook-endpoints', { body: { url: 'http://hooks.example.com/parley' } });
    expect(plain.status).toBe(400);
    expect(plain.body.error.message).toMatch(/https/);
    const own = await live('/v1/webhook-endpoints', { body: { url: receiver.url } });
    expect(own.status).toBe(201);
    expect((await live(`/v1/webhook-endpoints/${own.body.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('refuses bad endpoint requests with 400 and a stable code, adding nothing', async () => {
    const before = (await api('/v1/webhook-endpoints')).body.endpoints;
    const bad: unknown[] = [
      {},
      { url: 'not a url' },
      { url: 'ftp://example.com/hook' },
      { url: 'javascript:alert(1)' },
      { url: receiver.url, event_types: [] },
      { url: receiver.url, event_types: ['conversation.reply', 'conversation.reply'] },
      { url: receiver.url, event_types: ['no.such.type'] },
      { url: receiver.url, event_types: ['ping'] },
      { url: receiver.url, extra: true },
      { url: `https://user:secret@example.com/hook` },
      { url: `https://example.com/${'x'.repeat(2000)}` },
    ];
    for (const body of bad) {
      const response = await api('/v1/webhook-endpoints', { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    }
    expect((await api('/v1/webhook-endpoints', { rawBody: '{"url":' })).body.error.code).toBe('invalid_json');
    expect((await api('/v1/webhook-endpoints/not-an-id')).status).toBe(400);
    expect((await api('/v1/webhook-endpoints/whe_0000000000000000')).status).toBe(404);
    expect((await api('/v1/webhook-deliveries/whd_0000000000000000/resend', { body: {} })).status).toBe(404);
    expect((await api('/v1/webhook-endpoints', { token: 'service_test_forged' })).status).toBe(401);
    expect((await api('/v1/webhook-endpoints')).body.endpoints).toEqual(before);
  });

  it('never calls a private address: loopback, private, link-local and metadata hosts are refused when added', async () => {
    // A port of this machine that is not on the engine's list of allowed private origins.
    const port = Number(new URL(other.origin).port) + 1;
    for (const url of [
      `http://127.0.0.1:${port}/hook`,
      `http://localhost:${new URL(other.origin).port}/hook`,
      `http://[::1]:${port}/hook`,
      'http://10.0.0.8/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:127.0.0.1]/hook',
      'http://0.0.0.0/hook',
      'http://2130706433/hook',
    ]) {
      const response = await api('/v1/webhook-endpoints', { body: { url } });
      expect(response.status, url).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    }
    expect((await api('/v1/webhook-endpoints')).body.endpoints).toEqual([]);
  });

  it('checks the address again when connecting: a host that resolves to a private address is not called', async () => {
    // As if a public name had been re-pointed at loopback after the endpoint was added (DNS rebinding).
    const send = createSender({ allowedPrivateOrigins: [] });
    const port = new URL(receiver.origin).port;
    const result = await send(
      {
        id: 'whd_x',
        endpointId: 'whe_x',
        eventId: 'evt_x',
        eventType: 'ping',
        body: '{}',
        roundAttempts: 0,
        url: `http://localhost:${port}/hook`,
        secret: 'whsec_x',
      },
      Date.now(),
    );
    expect(result).toMatchObject({ status: null, error: expect.stringMatching(/^refused: .*private address/) });
    expect(receiver.received).toEqual([]);
  });

  it('gives up on a receiver that does not answer in time and records it as an attempt without a status', async () => {
    receiver.hang = true;
    const send = createSender({ allowedPrivateOrigins: [receiver.origin] }, { timeoutMs: 300 });
    const result = await send(
      {
        id: 'whd_y',
        endpointId: 'whe_y',
        eventId: 'evt_y',
        eventType: 'ping',
        body: '{}',
        roundAttempts: 0,
        url: receiver.url,
        secret: 'whsec_y',
      },
      Date.now(),
    );
    expect(result).toMatchObject({ status: null, error: 'no answer within 0.3 seconds' });
    expect(receiver.received).toHaveLength(1);
  });

  it('sends each event once when several engine processes deliver at the same time', async () => {
    await addEndpoint({ url: receiver.url, event_types: ['conversation.opened'] });
    const ids = await Promise.all(Array.from({ length: 12 }, (_, index) => open(`parallel-${index}`)));
    const workers = [
      engine.engine.webhooks,
      ...Array.from({ length: 2 }, () =>
        createWebhookWorker({
          sql: engine.sql,
          logger,
          now,
          send: createSender({ allowedPrivateOrigins: [receiver.origin] }),
          feed: feedEndpoints,
        }),
      ),
    ];
    await Promise.all(workers.map((worker) => worker.drain()));
    await Promise.all(workers.map((worker) => worker.drain()));
    const sent = bodies(receiver).map((body) => body.conversation_id);
    expect(sent.sort()).toEqual(ids.map((conversation) => conversation.id).sort());
  });

  it('keeps a slow endpoint from holding up a healthy one, and sends each delivery once with two processes', async () => {
    other.hang = true;
    const healthy = await addEndpoint({ url: receiver.url, event_types: ['conversation.opened'] });
    const slow = await addEndpoint({ url: other.url, event_types: ['conversation.opened'] });
    await Promise.all(Array.from({ length: 30 }, (_, index) => open(`fair-${index}`)));
    // Two processes on the real clock. The slow receiver holds every answer until released, well
    // within the senders' timeout, so each process is stuck on its first delivery there.
    const workers = Array.from({ length: 2 }, () =>
      createWebhookWorker({
        sql: engine.sql,
        logger,
        now: () => new Date(),
        send: createSender({ allowedPrivateOrigins: [receiver.origin, other.origin] }, { timeoutMs: 25_000 }),
        feed: feedEndpoints,
        answerTimeoutMs: 25_000,
      }),
    );
    for (const worker of workers) worker.start(50);
    try {
      await until(
        () => receiver.received.length,
        (count) => count >= 30,
        'the healthy endpoint to have every delivery',
      );
      // The slow endpoint is still at its first one per process: it held no one else up.
      expect(other.received.length).toBeLessThanOrEqual(2);
      // Released, it answers 500 from now on: every delivery is tried there once, and waits for its retry.
      other.status = 500;
      release(other);
      await until(
        () => other.received.length,
        (count) => count >= 30,
        'every delivery to have been tried at the slow endpoint',
        20_000,
      );
    } finally {
      for (const worker of workers) await worker.stop();
    }
    const ids = (target: Receiver) => target.received.map((entry) => String(entry.headers['x-service-delivery-id']));
    expect(new Set(ids(receiver)).size).toBe(30);
    expect(new Set(ids(other)).size).toBe(30);
    expect(other.received).toHaveLength(30);
    expect(
      (await deliveries(healthy.id)).every(
        (delivery) => delivery.status === 'delivered' && delivery.attempts.length === 1,
      ),
    ).toBe(true);
    expect(
      (await deliveries(slow.id)).every((delivery) => delivery.status === 'pending' && delivery.attempts.length === 1),
    ).toBe(true);
  });

  it('lets an account have at most 20 endpoints in an environment', async () => {
    for (let index = 0; index < 20; index++) await addEndpoint({ url: `${receiver.url}?n=${index}` });
    const refused = await api('/v1/webhook-endpoints', { body: { url: `${receiver.url}?n=20` } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('unprocessable');
    expect((await api('/v1/webhook-endpoints')).body.endpoints).toHaveLength(20);
  });

  it('forgets deliveries 30 days old, and keeps younger ones', async () => {
    const endpoint = await addEndpoint({ url: receiver.url, event_types: ['conversation.opened'] });
    await open('old');
    await drain();
    clock += 29 * DAY;
    await open('younger');
    await drain();
    expect(await deliveries(endpoint.id)).toHaveLength(2);
    clock += 1 * DAY + 2 * 3600_000;
    await drain();
    expect((await deliveries(endpoint.id)).map((delivery) => delivery.event_type)).toEqual(['conversation.opened']);
  });
});

describe('private addresses', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    'not-an-ip',
  ])('counts %s as private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('counts %s as public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});
