import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  base64url,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
  type JWTHeaderParameters,
  type JWTPayload,
} from 'jose';
import { randomToken } from '../../shared/index.ts';
import { DEMO_SITE_KEY, request, startEngine, startStack, type TestEngine, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor } from '../../test/widget-client.ts';
import { addSiteKey, createInbox } from '../index.ts';
import {
  PGLITE,
  SESSION_KID,
  SESSION_SECRET,
  SESSION_KEYS,
  newSession,
  listConversations,
  openConversation,
  conversationIds,
  expectError,
  handshake,
  conversationRow,
  conversationsOf,
  expectLifetime,
} from '../../test/sessions-fixture.ts';

/**
 * Widget sessions over real HTTP and Socket.IO: visitor sessions from site keys and their renewal,
 * origin allowlists for live keys and live sessions, verified sessions bought with an API key,
 * revocation through the deny-list, forged tokens, and tokens minted by the engine.
 */

describe('widget sessions (PGlite)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack(PGLITE, { SESSION_KEYS });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const visitor = (headers: Record<string, string> = {}) => newVisitor(stack.url, DEMO_SITE_KEY, headers);

  describe('visitor sessions from a site key', () => {
    it('gives a visitor an unverified vis_ token for 3600 s', async () => {
      const response = await newSession(stack.url, DEMO_SITE_KEY);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        token: expect.stringMatching(/^wst_/),
        ttl_s: 3600,
        customer_ref: expect.stringMatching(/^vis_/),
        verified: false,
      });
      expectLifetime(response.body, 3600);
      const config = await request(`${stack.url}/v1/widget/config`, { token: response.body.token });
      expect(config.status).toBe(200);
      expect(config.body.customer).toEqual({ customer_ref: response.body.customer_ref, verified: false, name: null });
    });

    it('renews the same visitor, with their conversations, when the old token is sent along', async () => {
      const first = await visitor();
      const opened = await openConversation(stack.url, first.token);
      expect(opened.status).toBe(201);
      const renewed = await newSession(stack.url, DEMO_SITE_KEY, { token: first.token });
      expect(renewed.status).toBe(201);
      expect(renewed.body).toMatchObject({ customer_ref: first.customer_ref, verified: false, ttl_s: 3600 });
      expect(renewed.body.token).not.toBe(first.token);
      expect(await conversationIds(stack.url, renewed.body.token)).toEqual([opened.body.id]);
    });

    const notCarried: { name: string; make: () => Promise<{ token: string; customerRef: string }> }[] = [
      {
        name: 'a visitor token of another inbox',
        make: async () => {
          const inbox = await createInbox(stack.bffSql, { name: 'Other shop' });
          const { key } = await addSiteKey(stack.bffSql, inbox.id, 'sandbox');
          const session = await newSession(stack.url, key);
          expect(session.status).toBe(201);
          expect((await openConversation(stack.url, session.body.token)).status).toBe(201);
          return { token: session.body.token, customerRef: session.body.customer_ref };
        },
      },
      {
        name: "a verified customer's token",
        make: async () => {
          const session = await newSession(stack.url, stack.apiKey, { customer_ref: `cust-${randomToken(8)}` });
          expect(session.status).toBe(201);
          expect((await openConversation(stack.url, session.body.token)).status).toBe(201);
          return { token: session.body.token, customerRef: session.body.customer_ref };
        },
      },
      {
        name: 'a forged token (the claims of a real one, signed with another secret)',
        make: async () => {
          const real = await visitor();
          expect((await openConversation(stack.url, real.token)).status).toBe(201);
          const claims = decodeJwt(real.token.slice(4));
          const forged = await new SignJWT(claims)
            .setProtectedHeader({ alg: 'HS256', kid: SESSION_KID, typ: 'JWT' })
            .sign(new Uint8Array(randomBytes(32)));
          return { token: `wst_${forged}`, customerRef: real.customer_ref };
        },
      },
    ];
    it.each(notCarried)('does not carry the customer over from $name: a new visitor starts', async ({ make }) => {
      const previous = await make();
      const renewed = await newSession(stack.url, DEMO_SITE_KEY, { token: previous.token });
      expect(renewed.status).toBe(201);
      expect(renewed.body.verified).toBe(false);
      expect(renewed.body.customer_ref).toMatch(/^vis_/);
      expect(renewed.body.customer_ref).not.toBe(previous.customerRef);
      expect(await conversationIds(stack.url, renewed.body.token)).toEqual([]);
    });
  });

  describe('origins', () => {
    const LISTED = ['https://shop.example', 'http://localhost:3000'];
    let liveKey: string;
    let liveInboxId: string;

    beforeAll(async () => {
      const inbox = await createInbox(stack.bffSql, { name: 'Live shop' });
      liveInboxId = inbox.id;
      liveKey = (await addSiteKey(stack.bffSql, inbox.id, 'live', LISTED)).key;
    });

    const liveSession = async (origin = 'https://shop.example') => {
      const response = await newSession(stack.url, liveKey, {}, { origin });
      expect(response.status).toBe(201);
      return response.body as { token: string; customer_ref: string };
    };

    it.each(LISTED)('takes a pk_live_ key from the listed origin %s', async (origin) => {
      const response = await newSession(stack.url, liveKey, {}, { origin });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        token: expect.stringMatching(/^wst_/),
        customer_ref: expect.stringMatching(/^vis_/),
        verified: false,
      });
    });

    it.each([
      ['another site', 'https://evil.example'],
      ['the listed host over http', 'http://shop.example'],
      ['the listed host on another port', 'https://shop.example:8443'],
      ['a subdomain of the listed host', 'https://www.shop.example'],
      ['a host that starts like the listed one', 'https://shop.example.evil.example'],
      ['a listed host and scheme without its port', 'http://localhost'],
      ['a listed host and scheme on another port', 'http://localhost:3001'],
      ['an opaque origin', 'null'],
    ])('refuses a pk_live_ key from %s (%s) with 403 origin_not_allowed', async (_name, origin) => {
      expectError(await newSession(stack.url, liveKey, {}, { origin }), 403, 'origin_not_allowed');
    });

    it('refuses a pk_live_ key without an Origin with 403 origin_not_allowed', async () => {
      expectError(await newSession(stack.url, liveKey), 403, 'origin_not_allowed');
    });

    it('takes a pk_test_ key from any origin and from none', async () => {
      for (const headers of [
        { origin: 'https://evil.example' },
        { origin: 'https://shop.example' },
        { origin: 'null' },
        {},
      ]) {
        const response = await newSession(stack.url, DEMO_SITE_KEY, {}, headers);
        expect(response.status).toBe(201);
        expect(response.body.customer_ref).toMatch(/^vis_/);
      }
    });

    it('refuses a live session on widget routes from an unlisted origin with 403 origin_not_allowed, and the refusal changes nothing', async () => {
      const session = await liveSession();
      for (const origin of [
        'https://evil.example',
        'http://shop.example',
        'https://shop.example:8443',
        'http://localhost:3001',
      ]) {
        expectError(await listConversations(stack.url, session.token, { origin }), 403, 'origin_not_allowed');
        expectError(await openConversation(stack.url, session.token, { origin }), 403, 'origin_not_allowed');
      }
      expect(await conversationsOf(stack, session.customer_ref)).toBe(0);
    });

    it("takes a live session on widget routes from its inbox's listed origins, from the BFF's own origin, and with no Origin", async () => {
      const session = await liveSession();
      const listed = await listConversations(stack.url, session.token, { origin: 'https://shop.example' });
      expect(listed.status).toBe(200);
      expect(listed.body.conversations).toEqual([]);
      const opened = await openConversation(stack.url, session.token, { origin: 'http://localhost:3000' });
      expect(opened.status).toBe(201);
      expect((await conversationRow(stack, opened.body.id))?.inbox_id).toBe(liveInboxId);
      for (const headers of [{}, { origin: stack.url }]) {
        const response = await listConversations(stack.url, session.token, headers);
        expect(response.status).toBe(200);
        expect(response.body.conversations.map((conversation: { id: string }) => conversation.id)).toEqual([
          opened.body.id,
        ]);
      }
    });

    it('checks the origin of a live session on the Socket.IO handshake too', async () => {
      const session = await liveSession();
      expect(await handshake(stack.url, session.token, 'https://evil.example')).toBe('origin_not_allowed');
      expect(await handshake(stack.url, session.token, 'http://shop.example')).toBe('origin_not_allowed');
      expect(await handshake(stack.url, session.token, 'https://shop.example')).toBe('connected');
      expect(await handshake(stack.url, session.token, 'http://localhost:3000')).toBe('connected');
      expect(await handshake(stack.url, session.token, stack.url)).toBe('connected');
      expect(await handshake(stack.url, session.token)).toBe('connected');
    });

    it('lets sandbox sessions work from any origin, on HTTP and on the socket', async () => {
      const session = await visitor({ origin: 'https://evil.example' });
      for (const origin of ['https://evil.example', 'https://shop.example', 'null']) {
        expect((await listConversations(stack.url, session.token, { origin })).status).toBe(200);
        expect(await handshake(stack.url, session.token, origin)).toBe('connected');
      }
      expect((await openConversation(stack.url, session.token, { origin: 'https://anywhere.example' })).status).toBe(
        201,
      );
    });
  });

  describe('forged and broken tokens on a widget route get 401 unauthorized and change nothing', () => {
    // Each case forges a token for a customer of its own, so one accepted forgery cannot spill into the next case.
    let victim = '';
    beforeEach(() => {
      victim = `forged-${randomToken(8)}`;
    });
    const nowS = () => Math.floor(Date.now() / 1000);
    const claims = (overrides: JWTPayload = {}): JWTPayload => ({
      sub: victim,
      jti: randomToken(22),
      inb: stack.inboxId,
      vrf: false,
      env: 'sandbox',
      iss: 'parley',
      aud: 'parley-widget',
      iat: nowS(),
      exp: nowS() + 3600,
      ...overrides,
    });
    const without = (name: string): JWTPayload => {
      const payload = claims();
      delete payload[name];
      return payload;
    };
    const hs256 = (
      payload: JWTPayload,
      secret: Uint8Array = SESSION_SECRET,
      header: Partial<JWTHeaderParameters> = { kid: SESSION_KID },
    ) => new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...header }).sign(secret);
    const encode = (part: object) => base64url.encode(JSON.stringify(part));
    /** A real token with its payload rewritten after signing. */
    const tampered = async (change: JWTPayload) => {
      const [header, payload, signature] = (await hs256(claims())).split('.') as [string, string, string];
      const rewritten = {
        ...(JSON.parse(new TextDecoder().decode(base64url.decode(payload))) as JWTPayload),
        ...change,
      };
      return `${header}.${encode(rewritten)}.${signature}`;
    };

    it('takes a token signed with the real key and the right claims (so each forgery below fails by its one flaw)', async () => {
      const response = await request(`${stack.url}/v1/widget/config`, { token: `wst_${await hs256(claims())}` });
      expect(response.status).toBe(200);
      expect(response.body.customer).toEqual({ customer_ref: victim, verified: false, name: null });
    });

    const forgeries: { name: string; make: () => Promise<string> }[] = [
      { name: 'alg none', make: async () => `wst_${new UnsecuredJWT(claims()).encode()}` },
      {
        name: 'alg none naming the real kid',
        make: async () => `wst_${encode({ alg: 'none', kid: SESSION_KID, typ: 'JWT' })}.${encode(claims())}.`,
      },
      {
        name: 'HS256 signed with a wrong secret',
        make: async () => `wst_${await hs256(claims(), new Uint8Array(randomBytes(32)))}`,
      },
      {
        name: "RS256 signed with an attacker's key (its public key in the header)",
        make: async () => {
          const { privateKey, publicKey } = await generateKeyPair('RS256');
          const jwt = await new SignJWT(claims())
            .setProtectedHeader({ alg: 'RS256', kid: SESSION_KID, typ: 'JWT', jwk: await exportJWK(publicKey) })
            .sign(privateKey);
          return `wst_${jwt}`;
        },
      },
      {
        name: 'an unknown kid (real secret)',
        make: async () => `wst_${await hs256(claims(), SESSION_SECRET, { kid: 'k2' })}`,
      },
      { name: 'no kid (real secret)', make: async () => `wst_${await hs256(claims(), SESSION_SECRET, {})}` },
      {
        name: 'expired an hour ago (real secret)',
        make: async () => `wst_${await hs256(claims({ iat: nowS() - 2 * 3600, exp: nowS() - 3600 }))}`,
      },
      {
        name: 'expired a few seconds ago (real secret)',
        make: async () => `wst_${await hs256(claims({ iat: nowS() - 3600, exp: nowS() - 5 }))}`,
      },
      { name: 'no exp (real secret)', make: async () => `wst_${await hs256(without('exp'))}` },
      { name: 'no iat (real secret)', make: async () => `wst_${await hs256(without('iat'))}` },
      { name: 'no sub (real secret)', make: async () => `wst_${await hs256(without('sub'))}` },
      { name: 'no jti (real secret)', make: async () => `wst_${await hs256(without('jti'))}` },
      { name: 'a wrong aud (real secret)', make: async () => `wst_${await hs256(claims({ aud: 'parley-engine' }))}` },
      { name: 'a wrong iss (real secret)', make: async () => `wst_${await hs256(claims({ iss: 'someone-else' }))}` },
      { name: 'vrf that is a string (real secret)', make: async () => `wst_${await hs256(claims({ vrf: 'true' }))}` },
      { name: 'a payload flipped to verified after signing', make: async () => `wst_${await tampered({ vrf: true })}` },
      {
        name: 'a payload with another customer_ref after signing',
        make: async () => `wst_${await tampered({ sub: `${victim}-2` })}`,
      },
      {
        name: 'a payload with a later exp after signing',
        make: async () => `wst_${await tampered({ exp: nowS() + 365 * 24 * 3600 })}`,
      },
      { name: 'a valid token without the wst_ prefix', make: async () => hs256(claims()) },
      { name: 'a valid token with another prefix', make: async () => `wst-${await hs256(claims())}` },
    ];
    it.each(forgeries)('$name', async ({ make }) => {
      const token = await make();
      expectError(await openConversation(stack.url, token), 401, 'unauthorized');
      expectError(await listConversations(stack.url, token), 401, 'unauthorized');
      expect(await conversationsOf(stack, victim)).toBe(0);
      expect(await conversationsOf(stack, `${victim}-2`)).toBe(0);
    });
  });

  describe('tokens minted by the engine', () => {
    it("work on the BFF's widget routes, in the BFF's default inbox", async () => {
      const customerRef = `engine-made-${randomToken(6)}`;
      const minted = await request(`${stack.engineUrl}/v1/widget-sessions`, {
        token: stack.apiKey,
        body: { customer_ref: customerRef, name: 'Grace Hopper' },
      });
      expect(minted.status).toBe(201);
      expect(minted.body).toMatchObject({
        token: expect.stringMatching(/^wst_/),
        customer_ref: customerRef,
        verified: true,
        ttl_s: 3600,
      });
      expect(decodeJwt(minted.body.token.slice(4))['inb']).toBeUndefined();

      const config = await request(`${stack.url}/v1/widget/config`, { token: minted.body.token });
      expect(config.status).toBe(200);
      expect(config.body.inbox.name).toBe('Demo store');
      expect(config.body.customer).toEqual({ customer_ref: customerRef, verified: true, name: 'Grace Hopper' });

      const opened = await openConversation(stack.url, minted.body.token);
      expect(opened.status).toBe(201);
      // The stack's key is a sandbox key: its customers live in the inbox's sandbox space.
      expect(await conversationRow(stack, opened.body.id)).toMatchObject({
        inbox_id: stack.inboxId,
        customer_ref: `test:${customerRef}`,
      });
      expect(await conversationIds(stack.url, minted.body.token)).toEqual([opened.body.id]);
      expect(await handshake(stack.url, minted.body.token)).toBe('connected');
    });
  });
});

describe('verified sessions bought with an API key (PGlite, engine of its own)', () => {
  let engine: TestEngine;
  let stack: TestStack;

  beforeAll(async () => {
    engine = await startEngine(PGLITE);
    stack = await startStack(PGLITE, { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys });
  });
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
  });

  const verifiedSession = (body: object, apiKey = engine.apiKey) => newSession(stack.url, apiKey, body);

  it('gives the customer the API key vouches for a verified token, for 3600 s by default, with the name on the config', async () => {
    const customerRef = `cust-${randomToken(8)}`;
    const response = await verifiedSession({
      customer_ref: customerRef,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      token: expect.stringMatching(/^wst_/),
      customer_ref: customerRef,
      verified: true,
      ttl_s: 3600,
    });
    expectLifetime(response.body, 3600);
    const config = await request(`${stack.url}/v1/widget/config`, { token: response.body.token });
    expect(config.status).toBe(200);
    expect(config.body.customer).toEqual({ customer_ref: customerRef, verified: true, name: 'Ada Lovelace' });
  });

  it("files the token's conversations under that customer_ref, at the BFF and at the engine", async () => {
    const customerRef = `cust-${randomToken(8)}`;
    const token = (await verifiedSession({ customer_ref: customerRef })).body.token as string;
    const opened = await openConversation(stack.url, token);
    expect(opened.status).toBe(201);
    // A sandbox key's customer, kept apart from a live customer of the same reference; the engine is told the reference as given.
    expect((await conversationRow(stack, opened.body.id))?.customer_ref).toBe(`test:${customerRef}`);

    // Another token for the same customer sees it; a token for someone else does not.
    const again = (await verifiedSession({ customer_ref: customerRef })).body.token as string;
    expect(await conversationIds(stack.url, again)).toEqual([opened.body.id]);
    const stranger = (await verifiedSession({ customer_ref: `${customerRef}-other` })).body.token as string;
    expect(await conversationIds(stack.url, stranger)).toEqual([]);
    expectError(
      await request(`${stack.url}/v1/widget/conversations/${opened.body.id}`, { token: stranger }),
      404,
      'not_found',
    );

    const sent = await request(`${stack.url}/v1/widget/conversations/${opened.body.id}/messages`, {
      token,
      body: { text: 'Where is my order?', message_id: 'v-1' },
    });
    expect(sent.status).toBe(201);
    const row = await until(
      () => conversationRow(stack, opened.body.id),
      (found) => Boolean(found?.engine_conversation_id),
      'the engine conversation',
    );
    const [upstream] = await engine.sql.query<{ customer_ref: string; account_id: string }>(
      'SELECT customer_ref, account_id FROM conversations WHERE id = $1',
      [row!.engine_conversation_id],
    );
    expect(upstream).toEqual({ customer_ref: customerRef, account_id: engine.accountId });
  });

  it.each([
    [60, 201],
    [21_600, 201],
    [3600, 201],
    [21_601, 400],
    [59, 400],
    [0, 400],
    [-60, 400],
    [90.5, 400],
  ])('takes ttl_s %d → %d (60 s to 6 h)', async (ttl, status) => {
    const response = await verifiedSession({ customer_ref: 'cust-ttl', ttl_s: ttl });
    expect(response.status).toBe(status);
    if (status === 201) {
      expect(response.body.ttl_s).toBe(ttl);
      expectLifetime(response.body, ttl);
      expect((await request(`${stack.url}/v1/widget/config`, { token: response.body.token })).status).toBe(200);
    } else {
      expectError(response, 400, 'invalid_request');
    }
  });

  it('refuses a made-up API key with 401', async () => {
    expectError(
      await verifiedSession({ customer_ref: 'cust-1' }, `service_test_${randomToken(32)}`),
      401,
      'unauthorized',
    );
    expectError(await verifiedSession({ customer_ref: 'cust-1' }, 'service_test_short'), 401, 'unauthorized');
  });

  it('refuses a key revoked in the engine on the very next call', async () => {
    const { id, key } = await engine.issueKey();
    expect((await verifiedSession({ customer_ref: 'cust-revoked' }, key)).status).toBe(201);
    await engine.revokeKey(id);
    expectError(await verifiedSession({ customer_ref: 'cust-revoked' }, key), 401, 'unauthorized');
  });

  it('refuses a valid key of another engine account: the BFF vouches only for its own account', async () => {
    const { key, accountId: otherAccount } = await engine.issueKey({ otherAccount: true });
    // The key itself is good at the engine...
    const me = await request(`${engine.url}/v1/me`, { token: key });
    expect(me.status).toBe(200);
    expect(me.body.account_id).toBe(otherAccount);
    // ...but not for sessions of this BFF.
    expectError(await verifiedSession({ customer_ref: 'cust-foreign' }, key), 401, 'unauthorized');
  });

  it.each([
    ['no body', {}],
    ['no customer_ref', { name: 'Ada' }],
    ['a customer_ref that is a number', { customer_ref: 42 }],
    ['an empty customer_ref', { customer_ref: '' }],
    ['a customer_ref with spaces', { customer_ref: 'cust 1' }],
    ['an email that is not one', { customer_ref: 'cust-1', email: 'not-an-email' }],
    ['an empty name', { customer_ref: 'cust-1', name: '  ' }],
    ['a verified flag from the caller', { customer_ref: 'cust-1', verified: false }],
    ['an unknown field', { customer_ref: 'cust-1', inbox: 'inb_x' }],
    ['ttl_s as a string', { customer_ref: 'cust-1', ttl_s: '600' }],
  ])('answers %s with 400 invalid_request', async (_name, body) => {
    expectError(await verifiedSession(body), 400, 'invalid_request');
  });

  it('answers broken JSON with 400 invalid_json', async () => {
    const response = await request(`${stack.url}/v1/widget-sessions`, {
      token: engine.apiKey,
      rawBody: '{"customer_ref":',
    });
    expectError(response, 400, 'invalid_json');
  });
});

describe('verified sessions while the engine is refusing the key checks (PGlite, engine of its own)', () => {
  let engine: TestEngine;
  let stack: TestStack;
  // The engine's clock stands still in the middle of a minute, so its per-minute limit cannot roll over mid-test.
  const engineNow = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);

  beforeAll(async () => {
    engine = await startEngine(PGLITE, () => engineNow);
    stack = await startStack(PGLITE, { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys });
  });
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
  });

  it("answers 503 upstream_unavailable with the engine's Retry-After when the engine's limit refuses the check (429)", async () => {
    // The BFF has learnt its own account before the limit bites (it asks once).
    expect((await newSession(stack.url, engine.apiKey, { customer_ref: 'cust-before' })).status).toBe(201);
    await engine.sql.query('UPDATE accounts SET requests_per_minute_sandbox = 3 WHERE id = $1', [engine.accountId]);
    const exhausted = await until(
      () => request(`${engine.url}/v1/me`, { token: engine.apiKey }),
      (response) => response.status === 429,
      "the engine's limit for the account",
    );
    const waitS = Number(exhausted.headers.get('retry-after'));
    expect(waitS).toBeGreaterThan(0);

    const refused = await newSession(stack.url, engine.apiKey, { customer_ref: 'cust-during' });
    expectError(refused, 503, 'upstream_unavailable');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(waitS);
  });
});
