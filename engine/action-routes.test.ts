import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, request, type TestEngine } from '../test/stack.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.ts';
import { shopActions } from '../test/shop-fixtures.ts';
import { defineAction } from './index.ts';

/** Returns of a parcel: an action defined through the API, its inputs as JSON Schema. */
const PARCEL_ACTION = {
  description: 'Track a parcel',
  parameters: {
    type: 'object',
    properties: {
      tracking_code: {
        type: 'string',
        description: 'The tracking code on the shipping email',
        pattern: '\\b([A-Z]{2}\\d{9}[A-Z]{2})\\b',
        'x-ask': 'What is the tracking code?',
      },
      postcode: { type: 'string', description: 'The delivery postcode', pattern: '\\b\\d{5}\\b' },
    },
    required: ['tracking_code'],
    additionalProperties: false,
  },
  triggers: [
    ['track', 'parcel'],
    ['where', 'parcel'],
  ],
  reply: 'Parcel {tracking_code} is {state}.',
};

type Options = NonNullable<Parameters<typeof request>[1]>;

describe('the action and sandbox fixture routes', () => {
  let engine: TestEngine;
  let receiver: WebhookReceiver;
  let otherAccountKey: string;
  const sandbox = (path: string, options: Options = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const live = (path: string, options: Options = {}) =>
    request(engine.url + path, { token: engine.liveApiKey, ...options });
  const put = (name: string, body: object, as = sandbox) => as(`/v1/actions/${name}`, { method: 'PUT', body });
  const storedActions = async () =>
    await engine.sql.query<{ name: string; definition: unknown; url: string | null; secret: string | null }>(
      'SELECT name, environment, definition, url, secret FROM actions WHERE account_id = $1 ORDER BY name, environment',
      [engine.accountId],
    );
  const talk = async (key: string, text: string) => {
    const opened = await request(`${engine.url}/v1/conversations`, {
      token: key,
      body: { customer_ref: 'action-customer' },
    });
    const sent = await request(`${engine.url}/v1/conversations/${opened.body.id}/messages`, {
      token: key,
      body: { text },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent.body.events as { type: string; data: Record<string, unknown> }[];
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver('/actions');
    engine = await startEngine(undefined, undefined, { webhooks: { allowedPrivateOrigins: [receiver.origin] } });
    otherAccountKey = (await engine.issueKey({ otherAccount: true })).key;
  });
  afterAll(async () => {
    await engine?.stop();
    await receiver?.close();
  });

  it('defines an action from JSON Schema, reads it back, and the AI asks for it with the inputs found by its patterns', async () => {
    const created = await put('track_parcel', PARCEL_ACTION);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      name: 'track_parcel',
      description: 'Track a parcel',
      parameters: {
        type: 'object',
        properties: {
          tracking_code: {
            type: 'string',
            description: 'The tracking code on the shipping email',
            pattern: '\\b([A-Z]{2}\\d{9}[A-Z]{2})\\b',
            'x-ask': 'What is the tracking code?',
          },
          postcode: {
            type: 'string',
            description: 'The delivery postcode',
            pattern: '\\b\\d{5}\\b',
            'x-ask': 'What is the postcode?',
          },
        },
        required: ['tracking_code'],
      },
      triggers: [
        ['track', 'parcel'],
        ['where', 'parcel'],
      ],
      reply: 'Parcel {tracking_code} is {state}.',
      card: null,
      url: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(created.body).not.toHaveProperty('secret');
    expect((await sandbox('/v1/actions/track_parcel')).body).toEqual(created.body);
    expect((await sandbox('/v1/actions')).body.actions.map((action: { name: string }) => action.name)).toContain(
      'track_parcel',
    );

    // A missing input is asked for with x-ask; one found by its pattern (a group, or the whole match) is taken.
    const asked = await talk(engine.apiKey, 'Where is my parcel?');
    expect(asked.find((event) => event.type === 'conversation.reply')?.data['text']).toBe('What is the tracking code?');
    const requested = await talk(engine.apiKey, 'Please track my parcel RR123456785DE to 10115');
    expect(requested.find((event) => event.type === 'conversation.action_request')?.data).toMatchObject({
      action: 'track_parcel',
      inputs: { tracking_code: 'RR123456785DE', postcode: '10115' },
    });
    expect(requested.find((event) => event.type === 'conversation.action_request')?.data).not.toHaveProperty(
      'handled_by',
    );

    // PUT replaces the whole action (200): what is left out is gone or back to its default.
    const replaced = await put('track_parcel', { description: 'Track a parcel', parameters: PARCEL_ACTION.parameters });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      triggers: [['track', 'parcel']],
      reply: null,
      created_at: created.body.created_at,
    });
  });

  it("reads the demo store's actions, defined in the brain's own shape, as JSON Schema", async () => {
    for (const action of shopActions) await defineAction(engine.sql, engine.accountId, action);
    const lookup = (await sandbox('/v1/actions/lookup_order')).body;
    expect(lookup).toMatchObject({
      name: 'lookup_order',
      parameters: {
        type: 'object',
        properties: {
          order_number: {
            type: 'string',
            pattern: shopActions[0]!.inputs[0]!.pattern,
            'x-ask': shopActions[0]!.inputs[0]!.ask,
          },
        },
        required: ['order_number'],
      },
      triggers: shopActions[0]!.triggers,
      url: null,
    });
    // Put back as read, it is the same action.
    const { name, created_at, updated_at, url, ...body } = lookup;
    expect([name, url, typeof created_at, typeof updated_at]).toEqual(['lookup_order', null, 'string', 'string']);
    expect((await put('lookup_order', body)).body).toMatchObject({ ...body, name: 'lookup_order' });
  });

  it('refuses a definition that is not the JSON Schema the brains understand, or a bad name, with 400, and stores nothing', async () => {
    const before = await storedActions();
    const property = PARCEL_ACTION.parameters.properties.tracking_code;
    const withProperty = (changed: object) => ({
      ...PARCEL_ACTION,
      parameters: { type: 'object', properties: { tracking_code: { ...property, ...changed } } },
    });
    const bad: [string, object][] = [
      ['no description', { parameters: PARCEL_ACTION.parameters }],
      [
        'parameters not an object schema',
        { ...PARCEL_ACTION, parameters: { type: 'array', items: { type: 'string' } } },
      ],
      ['a number property', withProperty({ type: 'number' })],
      [
        'a property without a pattern',
        {
          ...PARCEL_ACTION,
          parameters: { type: 'object', properties: { code: { type: 'string', description: 'A code' } } },
        },
      ],
      ['a pattern that does not compile', withProperty({ pattern: '([A-Z' })],
      ['a pattern with two capture groups', withProperty({ pattern: '(\\d+)-(\\d+)' })],
      ['a pattern RE2 cannot run (a backreference)', withProperty({ pattern: '(\\d)\\1' })],
      ['a keyword the brains do not know', withProperty({ enum: ['a', 'b'] })],
      [
        'required naming no property',
        { ...PARCEL_ACTION, parameters: { ...PARCEL_ACTION.parameters, required: ['order'] } },
      ],
      [
        'a property name with capitals',
        { ...PARCEL_ACTION, parameters: { type: 'object', properties: { TrackingCode: property } } },
      ],
      ['a trigger that is not a lowercase word', { ...PARCEL_ACTION, triggers: [['Track parcel']] }],
      ['an unknown field', { ...PARCEL_ACTION, timeout: 5 }],
      ['a URL that is not http(s)', { ...PARCEL_ACTION, url: 'ftp://shop.example/actions' }],
    ];
    for (const [what, body] of bad) {
      const response = await put('track_parcel_bad', body);
      expect(response.status, what).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/not valid/),
      });
    }
    for (const name of ['Track', 'x', 'track-parcel', `a${'b'.repeat(64)}`])
      expect((await put(name, PARCEL_ACTION)).status, name).toBe(400);
    expect((await sandbox('/v1/actions/track_parcel_bad')).status).toBe(404);
    expect(await storedActions()).toEqual(before);
  });

  it('takes a live URL from a live key only, refuses http and private addresses, and shows the signing secret once', async () => {
    const before = await storedActions();
    // In live, https only (the receiver's own allowed origin may use http), and never a private address.
    for (const url of [
      'http://shop.example/actions',
      'https://10.0.0.7/actions',
      'https://127.0.0.1:8443/actions',
      'https://[::1]/actions',
      'https://localhost/actions',
      'https://user:pw@shop.example/actions',
    ]) {
      const response = await put('ship_parcel', { ...PARCEL_ACTION, url }, live);
      expect(response.status, url).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    }
    // A sandbox key never sets a URL.
    const fromSandbox = await put('ship_parcel', { ...PARCEL_ACTION, url: receiver.url });
    expect(fromSandbox.status).toBe(403);
    expect(fromSandbox.body.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('live key') });
    expect(await storedActions()).toEqual(before);

    const created = await put('ship_parcel', { ...PARCEL_ACTION, url: receiver.url }, live);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, secret: expect.stringMatching(/^whsec_\w{32}$/) });
    const [row] = (await storedActions()).filter((action) => action.name === 'ship_parcel');
    expect(row!.secret).toMatch(/^sealed:v1:/);
    expect(row!.secret).not.toContain(created.body.secret);
    expect((await live('/v1/actions/ship_parcel')).body).not.toHaveProperty('secret');
    // The live action is the live environment's: the sandbox key does not see it.
    expect((await sandbox('/v1/actions/ship_parcel')).status).toBe(404);

    // The same URL again keeps the secret (not shown); rotate_secret makes a new one.
    const again = await put('ship_parcel', { ...PARCEL_ACTION, url: receiver.url }, live);
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty('secret');
    const rotated = await put('ship_parcel', { ...PARCEL_ACTION, url: receiver.url, rotate_secret: true }, live);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await put('ship_parcel', { ...PARCEL_ACTION, rotate_secret: true }, live)).status).toBe(400);

    // A sandbox key neither deletes the live action nor reaches its URL: its PUT defines the sandbox's own.
    expect((await sandbox('/v1/actions/ship_parcel', { method: 'DELETE' })).status).toBe(404);
    expect((await put('ship_parcel', PARCEL_ACTION)).status).toBe(201);
    expect((await storedActions()).filter((action) => action.name === 'ship_parcel')).toMatchObject([
      { environment: 'live', url: receiver.url },
      { environment: 'sandbox', url: null, secret: null },
    ]);
    expect((await sandbox('/v1/actions/ship_parcel', { method: 'DELETE' })).status).toBe(204);

    // Without the URL (a live key), the secret goes too.
    const removed = await put('ship_parcel', PARCEL_ACTION, live);
    expect(removed.body).toMatchObject({ url: null });
    expect((await storedActions()).find((action) => action.name === 'ship_parcel')).toMatchObject({
      url: null,
      secret: null,
    });
    expect((await live('/v1/actions/ship_parcel', { method: 'DELETE' })).status).toBe(204);
    expect((await live('/v1/actions/ship_parcel')).status).toBe(404);
    expect((await live('/v1/actions/ship_parcel', { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses every action route without a valid key, and keeps accounts apart', async () => {
    await put('refund_order', { description: 'Refund an order' });
    const before = await storedActions();
    const routes: [string, string, object | undefined][] = [
      ['GET', '/v1/actions', undefined],
      ['GET', '/v1/actions/refund_order', undefined],
      ['PUT', '/v1/actions/refund_order', { description: 'Taken over' }],
      ['DELETE', '/v1/actions/refund_order', undefined],
    ];
    for (const [method, path, body] of routes) {
      for (const token of [
        '',
        'service_live_wrong',
        engine.apiKey.replace(/.$/, (last) => (last === 'a' ? 'b' : 'a')),
      ]) {
        const response = await request(engine.url + path, { method, token, ...(body ? { body } : {}) });
        expect(response.status, `${method} ${path} with ${token || 'no key'}`).toBe(401);
      }
    }
    expect((await request(`${engine.url}/v1/actions`, { token: otherAccountKey })).body).toEqual({ actions: [] });
    expect((await request(`${engine.url}/v1/actions/refund_order`, { token: otherAccountKey })).status).toBe(404);
    expect(
      (await request(`${engine.url}/v1/actions/refund_order`, { method: 'DELETE', token: otherAccountKey })).status,
    ).toBe(404);
    // Another account's PUT defines an action of its own, not this one.
    expect(
      (
        await request(`${engine.url}/v1/actions/refund_order`, {
          method: 'PUT',
          token: otherAccountKey,
          body: { description: 'Theirs' },
        })
      ).status,
    ).toBe(201);
    expect(await storedActions()).toEqual(before);
    expect((await sandbox('/v1/actions/refund_order')).body).toMatchObject({
      description: 'Refund an order',
      triggers: [['refund', 'order']],
      parameters: { properties: {}, required: [] },
    });
    // The live key does not see the sandbox's action.
    expect((await live('/v1/actions/refund_order', { method: 'DELETE' })).status).toBe(404);
    expect((await sandbox('/v1/actions/refund_order', { method: 'DELETE' })).status).toBe(204);
  });

  it('runs an action with its sandbox fixture for sandbox customers, sets and removes fixtures with a sandbox key only', async () => {
    await put('track_parcel', PARCEL_ACTION);
    expect(
      (
        await sandbox('/v1/sandbox/fixtures/track_parcel', {
          method: 'PUT',
          body: { result: { state: 'out for delivery' } },
        })
      ).body,
    ).toMatchObject({
      action: 'track_parcel',
      result: { state: 'out for delivery' },
      updated_at: expect.any(String),
    });
    expect((await sandbox('/v1/sandbox/fixtures')).body.fixtures).toContainEqual({
      action: 'track_parcel',
      result: { state: 'out for delivery' },
      updated_at: expect.any(String),
    });
    const events = await talk(engine.apiKey, 'Track my parcel RR123456785DE');
    expect(events.find((event) => event.type === 'conversation.action_request')?.data).toMatchObject({
      handled_by: 'sandbox',
    });
    expect(events.find((event) => event.type === 'conversation.reply')?.data['text']).toBe(
      'Parcel RR123456785DE is out for delivery.',
    );

    // A fixture that fails makes the AI say so.
    await sandbox('/v1/sandbox/fixtures/track_parcel', {
      method: 'PUT',
      body: { result: { status: 'failed', error: 'the carrier is not answering' } },
    });
    const failed = await talk(engine.apiKey, 'Track my parcel RR123456785DE');
    expect(failed.find((event) => event.type === 'conversation.reply')?.data['text']).toMatch(
      /failed.*the carrier is not answering/,
    );

    // A live customer never gets a fixture, once the action is live too (promoted with the live key).
    expect((await live('/v1/actions/track_parcel/promote', { method: 'POST' })).status).toBe(201);
    const liveEvents = await talk(engine.liveApiKey, 'Track my parcel RR123456785DE');
    expect(liveEvents.find((event) => event.type === 'conversation.action_request')?.data).not.toHaveProperty(
      'handled_by',
    );
    expect(liveEvents.some((event) => event.type === 'conversation.reply')).toBe(false);

    expect((await sandbox('/v1/sandbox/fixtures/track_parcel', { method: 'DELETE' })).status).toBe(204);
    const unhandled = await talk(engine.apiKey, 'Track my parcel RR123456785DE');
    expect(unhandled.find((event) => event.type === 'conversation.action_request')?.data).not.toHaveProperty(
      'handled_by',
    );
    expect((await sandbox('/v1/sandbox/fixtures/track_parcel', { method: 'DELETE' })).status).toBe(404);

    // Deleting an action takes its fixture with it.
    await put('short_lived', { description: 'Lives briefly' });
    await sandbox('/v1/sandbox/fixtures/short_lived', { method: 'PUT', body: { result: { ok: true } } });
    await sandbox('/v1/actions/short_lived', { method: 'DELETE' });
    expect(
      (await sandbox('/v1/sandbox/fixtures')).body.fixtures.map((fixture: { action: string }) => fixture.action),
    ).not.toContain('short_lived');
  });

  it('refuses bad fixtures with a 4xx, and live keys, other accounts and missing keys altogether', async () => {
    await put('track_parcel', PARCEL_ACTION);
    await sandbox('/v1/sandbox/fixtures/track_parcel', { method: 'PUT', body: { result: { state: 'kept' } } });
    const kept = (await sandbox('/v1/sandbox/fixtures')).body;
    const bad: [string, Options, number][] = [
      ['/v1/sandbox/fixtures/track_parcel', { method: 'PUT', body: { result: ['not', 'an', 'object'] } }, 400],
      ['/v1/sandbox/fixtures/track_parcel', { method: 'PUT', body: { state: 'not wrapped in result' } }, 400],
      ['/v1/sandbox/fixtures/track_parcel', { method: 'PUT', body: { result: { text: 'x'.repeat(16_001) } } }, 400],
      [
        '/v1/sandbox/fixtures/track_parcel',
        { method: 'PUT', body: { result: JSON.parse(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`) } },
        400,
      ],
      ['/v1/sandbox/fixtures/Track', { method: 'PUT', body: { result: {} } }, 400],
      ['/v1/sandbox/fixtures/no_such_action', { method: 'PUT', body: { result: {} } }, 404],
    ];
    for (const [path, options, status] of bad)
      expect((await sandbox(path, options)).status, JSON.stringify(options.body)).toBe(status);

    for (const [method, path, body] of [
      ['GET', '/v1/sandbox/fixtures', undefined],
      ['PUT', '/v1/sandbox/fixtures/track_parcel', { result: { state: 'live' } }],
      ['DELETE', '/v1/sandbox/fixtures/track_parcel', undefined],
    ] as const) {
      const fromLive = await live(path, { method, ...(body ? { body } : {}) });
      expect(fromLive.status, `${method} ${path} with a live key`).toBe(403);
      expect(fromLive.body.error).toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining('sandbox keys'),
      });
      for (const token of ['', 'service_test_wrong'])
        expect((await request(engine.url + path, { method, token, ...(body ? { body } : {}) })).status).toBe(401);
      const foreign = await request(engine.url + path, { method, token: otherAccountKey, ...(body ? { body } : {}) });
      expect(foreign.status).toBe(method === 'GET' ? 200 : 404);
      if (method === 'GET') expect(foreign.body).toEqual({ fixtures: [] });
    }
    expect((await sandbox('/v1/sandbox/fixtures')).body).toEqual(kept);
  });
});
