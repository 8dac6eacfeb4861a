import { ParleyError } from '../shared/index.ts';
import type { SessionClaims, SessionTokens, Sql, VerifiedSession } from '../shared/server/index.ts';
import { bffCustomerRef } from './customer-refs.ts';
import type { Environment } from './store/inboxes.ts';

/** A visitor who comes back within this long keeps their conversations, though their token expired. */
export const RENEWAL_GRACE_S = 7 * 24 * 3600;
/**
 * However often a visitor renews, their identity lasts at most this long from its first session;
 * then they are a new visitor (a stolen token cannot be kept alive for ever).
 */
export const VISITOR_LIFETIME_S = 30 * 24 * 3600;

/** Who is asking: one customer of one inbox, in one environment. A widget session and a Client API contact both map to it. */
export interface Customer {
  inboxId: string;
  customerRef: string;
  environment: Environment;
  verified: boolean;
}

export interface Session extends Customer {
  jti: string;
  expiresAt: Date;
  name: string | undefined;
  /** When this customer's identity began (renewals keep it). */
  identitySince: Date;
}

/**
 * Widget sessions: tokens from `SessionTokens`, checked against the deny-lists of revoked tokens
 * and ended identities, and tied to one of this BFF's inboxes. A token that names no inbox (minted
 * by the engine) belongs to the default inbox, and is taken only when the key that minted it is of
 * this BFF's own engine account (`ownAccount`): another tenant's key, under shared session keys,
 * reaches nothing here.
 */
export class WidgetSessions {
  readonly #sql: Sql;
  readonly #tokens: SessionTokens;
  readonly #defaultInboxId: string | undefined;
  readonly #ownAccount: () => Promise<string>;
  readonly #now: () => Date;
  readonly #revoked = new Set<(jti: string) => void>();

  constructor(sql: Sql, tokens: SessionTokens, defaultInboxId: string | undefined, ownAccount: () => Promise<string>, now: () => Date) {
    this.#sql = sql;
    this.#tokens = tokens;
    this.#defaultInboxId = defaultInboxId;
    this.#ownAccount = ownAccount;
    this.#now = now;
  }

  /** Hears of every token this node revokes (its open sockets must close at once). */
  onRevoke(listener: (jti: string) => void): void {
    this.#revoked.add(listener);
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
    for (const listener of this.#revoked) listener(session.jti);
  }

  /**
   * Ends the customer's identity as a whole (the widget's shutdown): this token and every other of
   * the same customer issued until now stop working, and a visitor is not renewed from them.
   */
  async endIdentity(session: Session): Promise<void> {
    const now = this.#now();
    await this.#sql.query(
      'INSERT INTO revoked_identities (inbox_id, customer_ref, revoked_at) VALUES ($1, $2, $3) ON CONFLICT (inbox_id, customer_ref) DO UPDATE SET revoked_at = EXCLUDED.revoked_at',
      [session.inboxId, session.customerRef, now],
    );
    await this.#sql.query('DELETE FROM revoked_identities WHERE revoked_at < $1', [new Date(now.getTime() - (VISITOR_LIFETIME_S + RENEWAL_GRACE_S) * 1000)]);
    await this.revoke(session);
  }

  async #check(verified: VerifiedSession): Promise<Session> {
    if (!verified.inboxId) {
      // Minted by the engine: only a key of this BFF's own account may speak for customers here.
      const own = await this.#ownAccount().catch(() => {
        throw new ParleyError('upstream_unavailable', 'The session token could not be checked right now; try again shortly.');
      });
      if (verified.accountId !== own) throw new ParleyError('unauthorized', 'The session token was minted for another account.');
    }
    const inboxId = verified.inboxId ?? this.#defaultInboxId;
    if (!inboxId) throw new ParleyError('unauthorized', 'The session token names no inbox, and this server has no default inbox.');
    // One statement: is the token revoked, is its inbox one of ours, has its identity been ended since it was issued?
    const [state] = await this.#sql.query<{ revoked: boolean; inbox: boolean; ended: Date | null }>(
      `SELECT EXISTS (SELECT 1 FROM revoked_sessions WHERE jti = $1) AS revoked, EXISTS (SELECT 1 FROM inboxes WHERE id = $2) AS inbox,
         (SELECT revoked_at FROM revoked_identities WHERE inbox_id = $2 AND customer_ref = $3) AS ended`,
      [verified.jti, inboxId, verified.customerRef],
    );
    if (state?.revoked) throw new ParleyError('unauthorized', 'The session token has been revoked.');
    if (!state?.inbox) throw new ParleyError('unauthorized', 'The session token is for an inbox this server does not have.');
    if (state.ended && verified.issuedAt.getTime() <= state.ended.getTime()) throw new ParleyError('unauthorized', 'This session has been ended.');
    return {
      inboxId,
      // A sandbox key's verified customers live apart from the live ones of the same reference.
      customerRef: bffCustomerRef(verified.customerRef, verified.verified, verified.environment),
      verified: verified.verified,
      jti: verified.jti,
      environment: verified.environment,
      expiresAt: verified.expiresAt,
      name: verified.name,
      identitySince: verified.identitySince,
    };
  }
}
