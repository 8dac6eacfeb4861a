import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Environment } from '../environment.ts';
import { ParleyError } from '../errors.ts';
import { randomToken } from '../ids.ts';
import { SESSION_TOKEN_PREFIX } from '../schemas/widget.ts';
import { parseKeyPairs } from './key-pairs.ts';

/**
 * Widget session tokens (`wst_…`): HS256 JWTs behind a prefix, signed with the first key of a
 * configured key set and verified with whichever key the token's `kid` names, so keys rotate
 * without downtime. Any node that holds the key set verifies a token without a lookup.
 */
export interface SessionKey {
  kid: string;
  secret: Uint8Array;
}

export interface SessionClaims {
  /** The customer the token speaks for (`vis_…` for a visitor). */
  customerRef: string;
  /**
   * The inbox the session belongs to. Tokens minted by the engine carry none: the BFF that
   * accepts them puts them in its default inbox.
   */
  inboxId?: string | undefined;
  /** What the site's server said about a verified customer. */
  name?: string | undefined;
  email?: string | undefined;
  /** True only for a customer whose site's server vouched for them with its API key. */
  verified: boolean;
  environment: Environment;
  /**
   * The engine account whose API key minted the token (tokens minted by the engine, or by a BFF
   * with a site's API key). A BFF takes a token that names no inbox only from its own account.
   */
  accountId?: string | undefined;
  /** When this customer's identity began: renewals carry it forward, so a visitor cannot renew for ever. */
  identitySince?: Date | undefined;
}

export interface VerifiedSession extends SessionClaims {
  /** The token's own id, by which it can be revoked before it expires. */
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
  /** When the identity began: the token's `since`, or when it was issued. */
  identitySince: Date;
}

const ALGORITHM = 'HS256';
const ISSUER = 'parley';
const AUDIENCE = 'parley-widget';

/** Parses `kid:base64url-secret` pairs separated by commas; the first one signs. */
export function parseSessionKeys(text: string): SessionKey[] {
  // OWASP: an HS256 secret is at least as long as the hash output (256 bits).
  const keys = parseKeyPairs(
    text,
    'session key',
    (kid, bytes) => bytes.length >= 32 || `session key ${kid} is ${bytes.length} bytes; it must be at least 32`,
  );
  return keys.map(({ kid, bytes }) => ({ kid, secret: new Uint8Array(bytes) }));
}

export class SessionTokens {
  readonly #keys: readonly SessionKey[];
  readonly #now: () => Date;

  constructor(keys: readonly SessionKey[], now: () => Date = () => new Date()) {
    if (keys.length === 0) throw new TypeError('SessionTokens needs at least one key');
    this.#keys = keys;
    this.#now = now;
  }

  /** Signs a token for `claims` that lives `ttlS` seconds. */
  async issue(claims: SessionClaims, ttlS: number): Promise<{ token: string; expiresAt: Date; jti: string }> {
    const signer = this.#keys[0]!;
    const jti = randomToken(22);
    const nowMs = this.#now().getTime();
    // The issue time keeps its milliseconds (a NumericDate may have a fraction, RFC 7519 §2): a token
    // given just after the customer's identity was ended, in the same second, is not taken for one
    // from before the end.
    const issuedAt = nowMs / 1000;
    const expiresAt = Math.floor(nowMs / 1000) + ttlS;
    const extra: JWTPayload = {};
    if (claims.inboxId !== undefined) extra['inb'] = claims.inboxId;
    if (claims.name !== undefined) extra['name'] = claims.name;
    if (claims.email !== undefined) extra['email'] = claims.email;
    if (claims.accountId !== undefined) extra['acc'] = claims.accountId;
    if (claims.identitySince !== undefined) extra['since'] = Math.floor(claims.identitySince.getTime() / 1000);
    const jwt = await new SignJWT({ ...extra, vrf: claims.verified, env: claims.environment })
      .setProtectedHeader({ alg: ALGORITHM, kid: signer.kid, typ: 'JWT' })
      .setSubject(claims.customerRef)
      .setJti(jti)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(signer.secret);
    return { token: SESSION_TOKEN_PREFIX + jwt, expiresAt: new Date(expiresAt * 1000), jti };
  }

  /**
   * Verifies a `wst_` token; anything wrong with it is a 401 `unauthorized`.
   * `expiredGraceS` accepts a token that expired at most that long ago (only for renewing it).
   */
  async verify(token: string, options: { expiredGraceS?: number } = {}): Promise<VerifiedSession> {
    if (!token.startsWith(SESSION_TOKEN_PREFIX)) throw invalid('it does not start with wst_');
    try {
      const { payload } = await jwtVerify(
        token.slice(SESSION_TOKEN_PREFIX.length),
        (header) => {
          const key = this.#keys.find((candidate) => candidate.kid === header.kid);
          if (!key) throw invalid('its key id is unknown');
          return key.secret;
        },
        {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          requiredClaims: ['exp', 'iat', 'sub', 'jti'],
          currentDate: this.#now(),
          clockTolerance: options.expiredGraceS ?? 0,
        },
      );
      return toSession(payload);
    } catch (error) {
      if (error instanceof ParleyError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw invalid('it has expired');
      throw invalid('it could not be verified');
    }
  }
}

function toSession(payload: JWTPayload): VerifiedSession {
  const { sub, jti, inb, vrf, env, exp, iat, name, email, acc, since } = payload as JWTPayload &
    Record<'inb' | 'vrf' | 'env' | 'name' | 'email' | 'acc' | 'since', unknown>;
  if (
    typeof sub !== 'string' ||
    typeof jti !== 'string' ||
    typeof vrf !== 'boolean' ||
    (env !== 'sandbox' && env !== 'live') ||
    typeof exp !== 'number' ||
    typeof iat !== 'number'
  ) {
    throw invalid('its claims are incomplete');
  }
  const text = (value: unknown) => value === undefined || typeof value === 'string';
  if (
    !text(inb) ||
    !text(name) ||
    !text(email) ||
    !text(acc) ||
    (since !== undefined && (typeof since !== 'number' || since > iat))
  ) {
    throw invalid('its claims have the wrong types');
  }
  const session: VerifiedSession = {
    customerRef: sub,
    jti,
    verified: vrf,
    environment: env,
    issuedAt: new Date(iat * 1000),
    expiresAt: new Date(exp * 1000),
    identitySince: new Date((typeof since === 'number' ? since : iat) * 1000),
  };
  if (typeof acc === 'string') session.accountId = acc;
  if (typeof inb === 'string') session.inboxId = inb;
  if (typeof name === 'string') session.name = name;
  if (typeof email === 'string') session.email = email;
  return session;
}

function invalid(reason: string): ParleyError {
  return new ParleyError('unauthorized', `The session token is not valid: ${reason}.`);
}
