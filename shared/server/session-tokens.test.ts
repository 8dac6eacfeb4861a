import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { parseSessionKeys, SessionTokens } from './session-tokens.ts';

const secret = () => new Uint8Array(randomBytes(32));
const claims = { customerRef: 'vis_abc', inboxId: 'inb_1', verified: false, environment: 'sandbox' as const };
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('widget session tokens', () => {
  const key = { kid: 'k1', secret: secret() };
  const tokens = new SessionTokens([key]);

  it('issues a wst_ token that verifies to the same claims, with its issue time to the millisecond', async () => {
    const issuedAt = new Date(Date.UTC(2026, 10, 24, 12, 0, 0, 345));
    const { token, expiresAt } = await new SessionTokens([key], () => issuedAt).issue(claims, 3600);
    expect(token).toMatch(/^wst_ey/);
    expect(expiresAt).toEqual(new Date(Date.UTC(2026, 10, 24, 13, 0, 0)));
    const session = await new SessionTokens([key], () => new Date(issuedAt.getTime() + 1000)).verify(token);
    // A token that names no start of its identity starts it when it is issued.
    expect(session).toEqual({
      ...claims,
      expiresAt,
      issuedAt,
      identitySince: issuedAt,
      jti: expect.stringMatching(/^[0-9A-Za-z]{22}$/),
    });
  });

  it('verifies tokens signed with an older key of the set, and signs with the first', async () => {
    const old = new SessionTokens([key]);
    const rotated = new SessionTokens([{ kid: 'k2', secret: secret() }, key]);
    const { token } = await old.issue(claims, 60);
    await expect(rotated.verify(token)).resolves.toMatchObject(claims);
    const fresh = await rotated.issue(claims, 60);
    const header = JSON.parse(Buffer.from(fresh.token.slice(4).split('.')[0]!, 'base64url').toString());
    expect(header).toMatchObject({ alg: 'HS256', kid: 'k2' });
    await expect(old.verify(fresh.token)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  const forged: [string, () => Promise<string>][] = [
    ['a token without the wst_ prefix', async () => (await tokens.issue(claims, 60)).token.slice(4)],
    [
      'alg: none',
      async () =>
        `wst_${new UnsecuredJWT({ inb: 'inb_1', vrf: true, env: 'sandbox' }).setSubject('vis_abc').setIssuer('parley').setAudience('parley-widget').setIssuedAt().setExpirationTime('1h').encode()}`,
    ],
    ['an unknown kid', async () => `wst_${await sign({ kid: 'nope' }, {})}`],
    ['a different secret under a known kid', async () => `wst_${await sign({}, {}, secret())}`],
    ['an expired token', async () => `wst_${await sign({}, { exp: Math.floor(Date.now() / 1000) - 10 })}`],
    ['no exp', async () => `wst_${await sign({}, { exp: undefined })}`],
    ['no iat', async () => `wst_${await sign({}, { iat: undefined })}`],
    ['the wrong audience', async () => `wst_${await sign({}, { aud: 'someone-else' })}`],
    ['the wrong issuer', async () => `wst_${await sign({}, { iss: 'evil' })}`],
    ['claims that are incomplete', async () => `wst_${await sign({}, { vrf: undefined })}`],
    ['no token id (jti), so it could never be revoked', async () => `wst_${await sign({}, { jti: undefined })}`],
    ['an inbox claim of the wrong type', async () => `wst_${await sign({}, { inb: 42 })}`],
    ['an environment that does not exist', async () => `wst_${await sign({}, { env: 'staging' })}`],
    [
      'a tampered payload',
      async () => {
        const [header, payload, signature] = (await tokens.issue(claims, 60)).token.slice(4).split('.');
        const changed = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), vrf: true };
        return `wst_${header}.${b64(changed)}.${signature}`;
      },
    ],
    [
      'RS256 signed with an attacker key',
      async () => {
        const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        return `wst_${await new SignJWT(payloadOf({})).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(privateKey)}`;
      },
    ],
    [
      'HS256 whose header names another algorithm',
      async () => {
        const header = b64({ alg: 'HS512', kid: 'k1' });
        const body = b64(payloadOf({}));
        const signature = createHmac('sha512', key.secret).update(`${header}.${body}`).digest('base64url');
        return `wst_${header}.${body}.${signature}`;
      },
    ],
    ['garbage', async () => 'wst_not.a.jwt'],
  ];

  it.each(forged)('refuses %s with 401 unauthorized', async (_name, make) => {
    await expect(tokens.verify(await make())).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('accepts a recently expired token only when renewing with a grace period', async () => {
    const expired = `wst_${await sign({}, { exp: Math.floor(Date.now() / 1000) - 100 })}`;
    await expect(tokens.verify(expired)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(tokens.verify(expired, { expiredGraceS: 3600 })).resolves.toMatchObject(claims);
  });

  function payloadOf(overrides: Record<string, unknown>): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = {
      sub: 'vis_abc',
      jti: 'token-1',
      inb: 'inb_1',
      vrf: false,
      env: 'sandbox',
      iss: 'parley',
      aud: 'parley-widget',
      iat: now,
      exp: now + 60,
      ...overrides,
    };
    for (const name of Object.keys(payload)) if (payload[name] === undefined) delete payload[name];
    return payload;
  }

  function sign(
    header: { kid?: string },
    overrides: Record<string, unknown>,
    withSecret = key.secret,
  ): Promise<string> {
    return new SignJWT(payloadOf(overrides))
      .setProtectedHeader({ alg: 'HS256', kid: header.kid ?? 'k1' })
      .sign(withSecret);
  }
});

describe('the session key set from configuration', () => {
  it('reads kid:secret pairs, the first one signing', () => {
    const a = randomBytes(32).toString('base64url');
    const b = randomBytes(48).toString('base64url');
    const keys = parseSessionKeys(`new:${a}, old:${b}`);
    expect(keys.map((key) => key.kid)).toEqual(['new', 'old']);
    expect(keys[1]!.secret).toHaveLength(48);
  });

  it.each([
    ['an empty set', ''],
    ['a pair without a secret', 'k1'],
    ['a secret shorter than 256 bits', `k1:${randomBytes(16).toString('base64url')}`],
    ['a kid with odd characters', `k 1:${randomBytes(32).toString('base64url')}`],
  ])('refuses %s', (_name, text) => {
    expect(() => parseSessionKeys(text)).toThrow(TypeError);
  });
});
