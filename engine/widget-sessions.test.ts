import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionTokens } from '../shared/server/index.ts';
import { request, startEngine, type TestEngine } from '../test/stack.ts';
import { issueApiKey } from './index.ts';

describe('widget sessions minted by the engine', () => {
  const tokens = new SessionTokens([{ kid: 'shared', secret: new Uint8Array(randomBytes(32)) }]);
  let engine: TestEngine;
  let unconfigured: TestEngine;

  beforeAll(async () => {
    [engine, unconfigured] = await Promise.all([startEngine(undefined, undefined, { tokens }), startEngine()]);
  });
  afterAll(async () => {
    await engine?.stop();
    await unconfigured?.stop();
  });

  it('gives a verified customer a wst_ token in the format the BFF verifies', async () => {
    const response = await request(`${engine.url}/v1/widget-sessions`, {
      token: engine.apiKey,
      body: { customer_ref: 'user-77', name: 'Ada', email: 'ada@example.com', ttl_s: 600 },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      token: expect.stringMatching(/^wst_/),
      ttl_s: 600,
      customer_ref: 'user-77',
      verified: true,
    });
    const session = await tokens.verify(response.body.token);
    expect(session).toMatchObject({
      customerRef: 'user-77',
      verified: true,
      environment: 'sandbox',
      name: 'Ada',
      email: 'ada@example.com',
    });
    expect(session.expiresAt.toISOString()).toBe(response.body.expires_at);
  });

  it('marks tokens minted with a live key as live', async () => {
    const { key } = await issueApiKey(engine.sql, engine.accountId, 'live');
    const response = await request(`${engine.url}/v1/widget-sessions`, {
      token: key,
      body: { customer_ref: 'user-78' },
    });
    expect(response.body.ttl_s).toBe(3600);
    expect((await tokens.verify(response.body.token)).environment).toBe('live');
  });

  it.each([
    ['a lifetime over six hours', { customer_ref: 'u', ttl_s: 21_601 }],
    ['a lifetime under a minute', { customer_ref: 'u', ttl_s: 5 }],
    ['no customer_ref', { name: 'Ada' }],
    ['an email that is not one', { customer_ref: 'u', email: 'not-an-email' }],
    ['a verified flag from the caller', { customer_ref: 'u', verified: false }],
  ])('refuses %s', async (_name, body) => {
    const response = await request(`${engine.url}/v1/widget-sessions`, { token: engine.apiKey, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
  });

  it('refuses without an API key', async () => {
    const response = await request(`${engine.url}/v1/widget-sessions`, {
      token: 'pk_test_AAAAAAAAAAAAAAAAAAAA',
      body: { customer_ref: 'u' },
    });
    expect(response.status).toBe(401);
  });

  it('answers 503 not_configured when the engine has no session keys', async () => {
    const response = await request(`${unconfigured.url}/v1/widget-sessions`, {
      token: unconfigured.apiKey,
      body: { customer_ref: 'u' },
    });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('not_configured');
  });
});
