import Koa from 'koa';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, logger, request, startStack, type TestStack } from '../../test/stack.ts';
import { errorBoundary } from './http.ts';

/**
 * Issue 12, what the shared HTTP layer does for every answer of both apps (the BFF and the engine,
 * over real HTTP): a malformed %-escape in the path is a 400 `invalid_request`, never a 500 (nor a
 * 404 or a 401 that depends on which route happened to see it); every answer says `nosniff`.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const MALFORMED = ['%E0%A4%A', '%ZZ', '%', '%C0%AF', '%ED%A0%80'];

describe('a path with a malformed %-escape', () => {
  it.each(MALFORMED)(
    'is a 400 invalid_request on the Client API, in its bad_request_error shape (%s)',
    async (escape) => {
      for (const [method, path] of [
        ['GET', `/public/api/v1/inboxes/${escape}`],
        ['POST', `/public/api/v1/inboxes/${escape}/contacts`],
        ['GET', `/public/api/v1/inboxes/abc/contacts/${escape}/conversations`],
        ['GET', `/api/v1/accounts/${escape}/inboxes`],
        ['GET', `/platform/api/v1/accounts/${escape}`],
      ] as const) {
        const response = await request(stack.url + path, { method, ...(method === 'POST' ? { body: {} } : {}) });
        expect([method, path, response.status]).toEqual([method, path, 400]);
        expect(response.body).toMatchObject({ errors: [{ code: 'invalid_request' }] });
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      }
    },
  );

  it.each(MALFORMED)('is a 400 invalid_request on the BFF and the engine /v1 routes (%s)', async (escape) => {
    for (const url of [
      `${stack.url}/v1/widget/conversations/${escape}`,
      `${stack.url}/v1/${escape}`,
      `${stack.url}/console/${escape}`,
      `${stack.engineUrl}/v1/conversations/${escape}`,
      `${stack.engineUrl}/v1/conversations/${escape}/messages`,
      `${stack.engineUrl}/${escape}`,
    ]) {
      const response = await request(url);
      expect([url, response.status]).toEqual([url, 400]);
      expect(response.body).toMatchObject({ error: { code: 'invalid_request' } });
    }
  });

  it('leaves a well-formed escape to the route (an unknown inbox is still a 404)', async () => {
    const response = await request(`${stack.url}/public/api/v1/inboxes/%41bc%20d`);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ errors: [{ code: 'not_found' }] });
  });
});

describe('headers on every answer', () => {
  it('nosniff on an answer, a 404 and a 401 of both apps, and no HSTS over http even when X-Forwarded-Proto says https', async () => {
    const cases = [
      [`${stack.url}/openapi.json`, 200],
      [`${stack.url}/nowhere`, 404],
      [`${stack.url}/v1/widget/conversations`, 401],
      [`${stack.url}/api/v1/accounts/1/inboxes`, 401],
      [`${stack.engineUrl}/v1/openapi.json`, 200],
      [`${stack.engineUrl}/nowhere`, 404],
      [`${stack.engineUrl}/v1/events`, 401],
    ] as const;
    for (const [url, status] of cases) {
      // The apps do not trust proxies, so this header is the client's word and changes nothing.
      const response = await request(url, { headers: { 'x-forwarded-proto': 'https' } });
      expect([url, response.status]).toEqual([url, status]);
      expect([url, response.headers.get('x-content-type-options')]).toEqual([url, 'nosniff']);
      expect([url, response.headers.get('strict-transport-security')]).toEqual([url, null]);
    }
  });
});

describe('the BFF behind the proxies it trusts (TRUST_PROXY_HOPS)', () => {
  it('sends HSTS when its proxy took the request over https, and not over http', async () => {
    const proxied = await startStack(undefined, { TRUST_PROXY_HOPS: '1' });
    try {
      const over = (proto: string) =>
        request(`${proxied.url}/openapi.json`, {
          headers: { 'x-forwarded-proto': proto, 'x-forwarded-for': '203.0.113.9' },
        });
      expect((await over('https')).headers.get('strict-transport-security')).toBe(
        'max-age=31536000; includeSubDomains',
      );
      expect((await over('http')).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await proxied.stop();
    }
  });
});

describe('the boundary over https', () => {
  // No TLS server is started here. With `app.proxy` set, Koa's ctx.secure is true for
  // X-Forwarded-Proto: https, the same flag a TLS socket sets; that is all the boundary reads.
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = new Koa();
    app.proxy = true;
    app.use(errorBoundary(logger));
    app.use((ctx) => {
      if (ctx.path === '/fails') throw new Error('a bug');
      if (ctx.path === '/ok') ctx.body = { ok: true };
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (server) await closeServer(server);
  });

  it('adds Strict-Transport-Security to answers, 404s and 500s alike, and only over https', async () => {
    for (const [path, status] of [
      ['/ok', 200],
      ['/nowhere', 404],
      ['/fails', 500],
      ['/%E0', 400],
    ] as const) {
      const secure = await request(base + path, { headers: { 'x-forwarded-proto': 'https' } });
      expect([path, secure.status]).toEqual([path, status]);
      expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect(secure.headers.get('x-content-type-options')).toBe('nosniff');
      const plain = await request(base + path);
      expect(plain.headers.get('strict-transport-security')).toBeNull();
      expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});
