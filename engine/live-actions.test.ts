import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, verifyWebhook } from '../shared/index.ts';
import { createSender, openSql, type Sql } from '../shared/server/index.ts';
import { closeServer, logger, request } from '../test/stack.ts';
import { until } from '../test/until.ts';
import { ACTION_ANSWER_LIMIT } from './actions/live-actions.ts';
import { createAccount, createEngine, issueApiKey, setAccountRateLimit, type Engine } from './index.ts';

/**
 * Actions with a live URL: the engine posts a live customer's request there, signed as webhooks
 * are, and the answer is the result. The shop's server is a real HTTP server on loopback, allowed
 * as a private origin (as an operator allows their own services).
 */

type Answer = 'result' | 'failed' | 'error' | 'text' | 'array' | 'hang';

interface ShopServer {
  origin: string;
  /** How the next requests are answered. */
  answer: Answer;
  /** The secret the shop checks signatures with (from the PUT's answer). */
  secret: string;
  received: { headers: IncomingHttpHeaders; body: string; signature: string | undefined }[];
  held: ServerResponse[];
  server: Server;
}

async function startShopServer(): Promise<ShopServer> {
  const shop = { answer: 'result', secret: '', received: [], held: [] } as unknown as ShopServer;
  shop.server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      void verifyWebhook(
        shop.secret,
        incoming.headers['x-service-timestamp'] as string,
        incoming.headers['x-service-signature'] as string,
        body,
        Date.now(),
      ).then((problem) => {
        shop.received.push({ headers: incoming.headers, body, signature: problem ?? 'valid' });
        // A shop refuses what it cannot verify.
        if (problem) return response.writeHead(401).end();
        const json = (status: number, value: unknown) =>
          response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        const { data } = JSON.parse(body) as { data: { inputs: { tracking_code: string } } };
        switch (shop.answer) {
          case 'result':
            return json(200, { state: 'at the depot in Leipzig', code_seen: data.inputs.tracking_code });
          case 'failed':
            return json(200, { status: 'failed', error: 'we know no parcel with that code' });
          case 'error':
            return json(500, { message: 'database down' });
          case 'text':
            return response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
          case 'array':
            return json(200, [{ state: 'in a list' }]);
          case 'hang':
            shop.held.push(response);
            return undefined;
        }
      });
    });
  });
  await new Promise<void>((resolve) => shop.server.listen(0, '127.0.0.1', resolve));
  shop.origin = `http://127.0.0.1:${(shop.server.address() as AddressInfo).port}`;
  return shop;
}

const PARCEL_ACTION = {
  description: 'Track a parcel',
  parameters: {
    type: 'object',
    properties: {
      tracking_code: { type: 'string', description: 'The tracking code', pattern: '\\b[A-Z]{2}\\d{9}[A-Z]{2}\\b' },
    },
    required: ['tracking_code'],
  },
  triggers: [['track', 'parcel']],
  reply: 'Parcel {tracking_code} is {state}.',
};

interface RunningEngine {
  engine: Engine;
  url: string;
  server: Server;
}

async function listen(sql: Sql, allowedPrivateOrigins: string[], timeoutMs: number): Promise<RunningEngine> {
  const engine = await createEngine({ sql, logger, webhooks: { allowedPrivateOrigins }, actions: { timeoutMs } });
  const server = createServer(engine.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { engine, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface EventBody {
  id: string;
  type: string;
  conversation_id: string;
  data: Record<string, unknown> & { text?: string; action_request_id?: string; handled_by?: string };
}

describe('actions with a live URL', () => {
  let sql: Sql;
  let shop: ShopServer;
  let main: RunningEngine;
  let liveKey: string;
  let sandboxKey: string;
  const api = (path: string, options: Parameters<typeof request>[1] = {}, key = liveKey) =>
    request(main.url + path, { token: key, ...options });

  /** Opens a conversation and asks to track a parcel: gives the conversation and the message's events. */
  const askToTrack = async (key = liveKey, code = 'RR123456785DE', url = main.url) => {
    const opened = await request(`${url}/v1/conversations`, { token: key, body: { customer_ref: 'cus_4711' } });
    const sent = await request(`${url}/v1/conversations/${opened.body.id}/messages`, {
      token: key,
      body: { text: `Please track my parcel ${code}` },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return { conversationId: opened.body.id as string, events: sent.body.events as EventBody[] };
  };
  /** The AI's reply in a conversation, once it is in the feed. */
  const replyIn = async (conversationId: string, key = liveKey) => {
    const reply = await until(
      async () =>
        ((await api('/v1/events?types=conversation.reply&limit=1000', {}, key)).body.events as EventBody[]).find(
          (event) => event.conversation_id === conversationId,
        ),
      (found) => found !== undefined,
      'the reply after the action',
    );
    return reply!.data.text!;
  };
  const requestRow = async (id: string) =>
    (
      await sql.query<{ status: string; result: Record<string, unknown> | null; handled_by: string | null }>(
        'SELECT status, result, handled_by FROM action_requests WHERE id = $1',
        [id],
      )
    )[0];

  beforeAll(async () => {
    shop = await startShopServer();
    sql = await openSql({ dataDir: 'memory://', schema: 'engine' });
    // Time enough for the shop on a loaded machine; the test of a shop that never answers has its own engine.
    main = await listen(sql, [shop.origin], 10_000);
    const accountId = await createAccount(sql, 'Parcel shop');
    for (const environment of ['live', 'sandbox'] as const)
      await setAccountRateLimit(sql, accountId, environment, 100_000);
    liveKey = (await issueApiKey(sql, accountId, 'live')).key;
    sandboxKey = (await issueApiKey(sql, accountId, 'sandbox')).key;
    const defined = await api('/v1/actions/track_parcel', {
      method: 'PUT',
      body: { ...PARCEL_ACTION, url: `${shop.origin}/actions/track` },
    });
    expect(defined.status, JSON.stringify(defined.body)).toBe(201);
    shop.secret = defined.body.secret;
    // The sandbox's customers ask for the sandbox's own action, which has no URL.
    const sandboxAction = await request(`${main.url}/v1/actions/track_parcel`, {
      method: 'PUT',
      token: sandboxKey,
      body: PARCEL_ACTION,
    });
    expect(sandboxAction.status, JSON.stringify(sandboxAction.body)).toBe(201);
  });
  afterAll(async () => {
    for (const response of shop.held.splice(0)) response.destroy();
    await closeServer(main.server);
    await main.engine.webhooks.stop();
    await sql.close();
    await closeServer(shop.server);
  });

  it("posts a live customer's request to the action's URL, signed with the action's secret, and the AI answers with the shop's result", async () => {
    shop.answer = 'result';
    shop.received = [];
    const { conversationId, events } = await askToTrack();
    const requested = events.find((event) => event.type === 'conversation.action_request')!;
    expect(requested.data).toMatchObject({
      action: 'track_parcel',
      inputs: { tracking_code: 'RR123456785DE' },
      handled_by: 'url',
    });
    // The message's answer does not wait for the shop: the reply comes as an event of its own.
    expect(events.some((event) => event.type === 'conversation.reply')).toBe(false);

    expect(await replyIn(conversationId)).toBe('Parcel RR123456785DE is at the depot in Leipzig.');
    expect(shop.received).toHaveLength(1);
    const [call] = shop.received;
    expect(call!.signature).toBe('valid');
    expect(call!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-delivery-id': requested.data.action_request_id,
      'x-service-event-id': requested.id,
      'x-service-event-type': 'conversation.action_request',
    });
    expect(JSON.parse(call!.body)).toEqual({
      id: requested.id,
      type: 'conversation.action_request',
      created_at: expect.any(String),
      conversation_id: conversationId,
      data: requested.data,
      environment: 'live',
      customer_ref: 'cus_4711',
    });
    // Recorded as the caller's action-results would be: a second result is refused.
    expect(await requestRow(requested.data.action_request_id!)).toMatchObject({
      status: 'succeeded',
      handled_by: 'url',
      result: { state: 'at the depot in Leipzig' },
    });
    const again = await api(`/v1/conversations/${conversationId}/action-results`, {
      body: { action_request_id: requested.data.action_request_id, result: { state: 'lost' } },
    });
    expect(again.status).toBe(409);
  });

  it.each([
    ['answers that the action failed', 'failed', /failed\. The reason given was: we know no parcel with that code\./],
    [
      'answers with an error status',
      'error',
      /failed\. The reason given was: the service that runs it answered with an error\./,
    ],
    [
      'answers with something that is not JSON',
      'text',
      /failed\. The reason given was: the service that runs it gave an answer that could not be read\./,
    ],
    [
      'answers with JSON that is not an object',
      'array',
      /failed\. The reason given was: the service that runs it gave an answer that could not be read\./,
    ],
  ] as const)('tells the customer honestly that the action failed when the URL %s', async (_what, answer, said) => {
    shop.answer = answer;
    const { conversationId, events } = await askToTrack();
    const requestId = events.find((event) => event.type === 'conversation.action_request')!.data.action_request_id!;
    const reply = await replyIn(conversationId);
    expect(reply).toMatch(/^I'm sorry, I tried to track a parcel, but it failed\./);
    expect(reply).toMatch(said);
    expect(await requestRow(requestId)).toMatchObject({
      status: 'failed',
      result: { status: 'failed', error: expect.any(String) },
    });
  });

  it('tells the customer honestly that the action failed when the URL does not answer in time', async () => {
    shop.answer = 'hang';
    const impatient = await listen(sql, [shop.origin], 500);
    try {
      const { conversationId, events } = await askToTrack(liveKey, 'RR123456785DE', impatient.url);
      const requestId = events.find((event) => event.type === 'conversation.action_request')!.data.action_request_id!;
      const reply = await replyIn(conversationId);
      expect(reply).toMatch(/^I'm sorry, I tried to track a parcel, but it failed\./);
      expect(reply).toMatch(/failed\. The reason given was: the service that runs it did not answer in time\./);
      expect(await requestRow(requestId)).toMatchObject({
        status: 'failed',
        result: { status: 'failed', error: expect.any(String) },
      });
    } finally {
      await closeServer(impatient.server);
      await impatient.engine.webhooks.stop();
    }
  });

  it('fails honestly when the URL cannot be reached', async () => {
    // A port nothing listens on, on the allowed origin's host: the shop's server is down.
    const down = await listen(sql, ['http://127.0.0.1:9'], 500);
    try {
      await request(`${down.url}/v1/actions/track_parcel`, {
        method: 'PUT',
        token: liveKey,
        body: { ...PARCEL_ACTION, url: 'http://127.0.0.1:9/actions/track' },
      });
      const { conversationId } = await askToTrack(liveKey, 'RR123456785DE', down.url);
      expect(await replyIn(conversationId)).toMatch(
        /The reason given was: the service that runs it could not be reached\./,
      );
    } finally {
      await closeServer(down.server);
      await down.engine.webhooks.stop();
      // Back to the shop's URL (the secret stays with the action).
      await api('/v1/actions/track_parcel', {
        method: 'PUT',
        body: { ...PARCEL_ACTION, url: `${shop.origin}/actions/track` },
      });
    }
  });

  it('never calls a URL the engine may no longer call: a process that does not allow the private origin refuses it at call time', async () => {
    shop.answer = 'result';
    shop.received = [];
    const strict = await listen(sql, [], 500);
    try {
      const { conversationId } = await askToTrack(liveKey, 'RR123456785DE', strict.url);
      expect(await replyIn(conversationId)).toMatch(
        /The reason given was: the service that runs it could not be reached\./,
      );
      expect(shop.received).toEqual([]);
    } finally {
      await closeServer(strict.server);
      await strict.engine.webhooks.stop();
    }
  });

  it('checks the address again when connecting: a host that resolves to a private address is not called, and the answer is read only when asked for', async () => {
    const port = new URL(shop.origin).port;
    const send = createSender({ allowedPrivateOrigins: [] }, { answerLimit: ACTION_ANSWER_LIMIT });
    const delivery = {
      id: 'act_x',
      endpointId: 'track_parcel',
      eventId: 'evt_x',
      eventType: 'conversation.action_request',
      body: '{}',
      roundAttempts: 0,
      secret: 'whsec_x',
    };
    shop.received = [];
    expect(await send({ ...delivery, url: `http://localhost:${port}/actions/track` }, Date.now())).toMatchObject({
      status: null,
      error: expect.stringMatching(/^refused: .*private address/),
    });
    expect(shop.received).toEqual([]);
  });

  it('calls no URL for a sandbox customer: without a fixture, the caller runs the action', async () => {
    shop.received = [];
    const { events } = await askToTrack(sandboxKey);
    const requested = events.find((event) => event.type === 'conversation.action_request')!;
    expect(requested.data).not.toHaveProperty('handled_by');
    expect(await requestRow(requested.data.action_request_id!)).toMatchObject({ status: 'pending', handled_by: null });
    // Nothing is waiting to call it either.
    await main.engine.webhooks.drain();
    expect(shop.received).toEqual([]);
  });

  it('calls a request left uncalled by a process that stopped, on the next webhook worker pass of any process', async () => {
    shop.answer = 'result';
    shop.received = [];
    const { conversationId } = await askToTrack();
    await replyIn(conversationId);
    // As if a process had recorded a request and stopped before it called the URL (its lease lapsed).
    const id = newId('actionRequest');
    await sql.query(
      "INSERT INTO action_requests (id, conversation_id, action, inputs, handled_by, status, created_at, call_until) VALUES ($1, $2, 'track_parcel', $3::jsonb, 'url', 'pending', $4, $5)",
      [id, conversationId, JSON.stringify({ tracking_code: 'RR987654321DE' }), new Date(), new Date(Date.now() - 1000)],
    );
    await main.engine.webhooks.drain();
    await until(
      () => requestRow(id),
      (row) => row?.status === 'succeeded',
      'the left request to be called',
    );
    expect(shop.received.map((call) => call.headers['x-service-delivery-id'])).toContain(id);
    const replies = ((await api('/v1/events?types=conversation.reply&limit=1000')).body.events as EventBody[]).filter(
      (event) => event.conversation_id === conversationId,
    );
    expect(replies.at(-1)!.data.text).toBe('Parcel RR987654321DE is at the depot in Leipzig.');
  });
});
