import { ParleyError } from '../shared/index.ts';
import type { SessionClaims, SessionTokens, Sql, VerifiedSession } from '../shared/server/index.ts';

/** A visitor who comes back within this long keeps their conversations, though their token expired. */
export const RENEWAL_GRACE_S = 7 * 24 * 3600;

/** Who is asking: one customer of one inbox. A widget session and (later) a Client API contact both map to it. */
export interface Customer {
  inboxId: string;
  customerRef: string;
  verified: boolean;
}

export interface Session extends Customer {
  jti: string;
  environment: 'sandbox' | 'live';
  expiresAt: Date;
  name: string | undefined;
}

/**
 * Widget sessions: tokens from `SessionTokens`, checked against the deny-list of revoked tokens,
 * and tied to an inbox (a token minted by the engine names none and belongs to the default inbox).
 */
export class WidgetSessions {
  readonly #sql: Sql;
  readonly #tokens: SessionTokens;
  readonly #defaultInboxId: string | undefined;
  readonly #now: () => Date;

  constructor(sql: Sql, tokens: SessionTokens, defaultInboxId: string | undefined, now: () => Date) {
    this.#sql = sql;
    this.#tokens = tokens;
    this.#defaultInboxId = defaultInboxId;
    this.#now = now;
  }

  get defaultInboxId(): string | undefined {
    return this.#defaultInboxId;
  }

  issue(claims: SessionClaims, ttlS: number): Promise<{ token: string; expiresAt: Date; jti: string }> {
    return this.#tokens.issue(claims, ttlS);
  }

  /** The session of a valid, unrevoked token; a 401 otherwise. */
  async verify(token: string): Promise<Session> {
    return this.#check(await this.#tokens.verify(token));
  }

  /** Like `verify`, but also takes a token that expired within `graceS` (for renewing a visitor). */
  async verifyForRenewal(token: string, graceS: number): Promise<Session> {
    return this.#check(await this.#tokens.verify(token, { expiredGraceS: graceS }));
  }

  /** Puts a token on the deny-list until it would have expired anyway. */
  async revoke(session: Pick<Session, 'jti' | 'expiresAt'>): Promise<void> {
    await this.#sql.query('INSERT INTO revoked_sessions (jti, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [session.jti, session.expiresAt]);
    // Rows of tokens past their expiry and the renewal grace protect nothing any more.
    await this.#sql.query('DELETE FROM revoked_sessions WHERE expires_at < $1', [new Date(this.#now().getTime() - RENEWAL_GRACE_S * 1000)]);
  }

  async #check(verified: VerifiedSession): Promise<Session> {
    const revoked = await this.#sql.query('SELECT 1 FROM revoked_sessions WHERE jti = $1', [verified.jti]);
    if (revoked.length > 0) throw new ParleyError('unauthorized', 'The session token has been revoked.');
    const inboxId = verified.inboxId ?? this.#defaultInboxId;
    if (!inboxId) throw new ParleyError('unauthorized', 'The session token names no inbox, and this server has no default inbox.');
    return {
      inboxId,
      customerRef: verified.customerRef,
      verified: verified.verified,
      jti: verified.jti,
      environment: verified.environment,
      expiresAt: verified.expiresAt,
      name: verified.name,
    };
  }
}
