import { ParleyError } from '../../shared/index.ts';
import type { SessionClaims, SessionTokens, Sql, VerifiedSession } from '../../shared/server/index.ts';
import { bffCustomerRef } from './customer-refs.ts';
import { accountSuspendedError } from '../helpdesk/store/accounts.ts';
import type { Environment } from '../store/inboxes.ts';

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
  /** A verified customer's address, as the site's server gave it (issue 32: answers they miss are e-mailed there). */
  email?: string | undefined;
  /** When this customer's identity began (renewals keep it). */
  identitySince: Date;
  issuedAt: Date;
  /**
   * Set only when the token's revocation and the end of its identity were not asked yet, because
   * the one statement that acts for this request asks them itself, in its own snapshot (the
   * widget's send: `storeCustomerMessage`). Nothing else may take such a session.
   */
  standingToCheck?: SessionStanding | undefined;
}

/**
 * What a statement asks to know that a session still stands: no revocation of the token `jti`, no
 * end of its identity at or after `issuedAt`. When the statement finds nothing, `confirm` asks the
 * whole question (a 401 for a revoked or ended session, rather than a 404).
 */
export interface SessionStanding {
  jti: string;
  issuedAt: Date;
  confirm: () => Promise<void>;
}

/**
 * Verified tokens are remembered, by the token itself, until they expire: the HMAC is checked once
 * per token, not on every request. The deny-lists are still asked on every request. The bound
 * keeps the memory flat (about a kilobyte a token); the least recently used goes first.
 */
const VERIFIED_TOKENS_KEPT = 10_000;

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
  readonly #identitiesEnded = new Set<(customer: { inboxId: string; customerRef: string }) => void>();
  readonly #verified = new Map<string, VerifiedSession>();

  constructor(
    sql: Sql,
    tokens: SessionTokens,
    defaultInboxId: string | undefined,
    ownAccount: () => Promise<string>,
    now: () => Date,
  ) {
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

  /** Hears of every identity this node ends (the open sockets of all its tokens must close at once). */
  onIdentityEnd(listener: (customer: { inboxId: string; customerRef: string }) => void): void {
    this.#identitiesEnded.add(listener);
  }

  get defaultInboxId(): string | undefined {
    return this.#defaultInboxId;
  }

  issue(claims: SessionClaims, ttlS: number): Promise<{ token: string; expiresAt: Date; jti: string }> {
    return this.#tokens.issue(claims, ttlS);
  }

  /** The session of a valid, unrevoked token; a 401 otherwise. */
  async verify(token: string): Promise<Session> {
    const session = await this.#claims(token);
    await this.#stands(session);
    return session;
  }

  /**
   * The session of a valid token whose revocation and identity are left to the one statement that
   * acts for the request (`standingToCheck`); a 401 for a forged, expired or foreign token.
   */
  async verifyLeavingStanding(token: string): Promise<Session> {
    const session = await this.#claims(token);
    return {
      ...session,
      standingToCheck: { jti: session.jti, issuedAt: session.issuedAt, confirm: () => this.#stands(session) },
    };
  }

  /** Like `verify`, but also takes a token that expired within `graceS` (for renewing a visitor). */
  async verifyForRenewal(token: string, graceS: number): Promise<Session> {
    const session = await this.#toSession(await this.#tokens.verify(token, { expiredGraceS: graceS }));
    await this.#stands(session);
    return session;
  }

  /** The token's verified claims, remembered until it expires. */
  async #claims(token: string): Promise<Session> {
    let verified = this.#verified.get(token);
    if (verified && this.#now().getTime() < verified.expiresAt.getTime()) {
      // Most recently used goes last: the first key is the one to drop.
      this.#verified.delete(token);
      this.#verified.set(token, verified);
    } else {
      this.#verified.delete(token);
      verified = await this.#tokens.verify(token);
      this.#verified.set(token, verified);
      if (this.#verified.size > VERIFIED_TOKENS_KEPT) this.#verified.delete(this.#verified.keys().next().value!);
    }
    return this.#toSession(verified);
  }

  /** Puts a token on the deny-list until it would have expired anyway. */
  async revoke(session: Pick<Session, 'jti' | 'expiresAt'>): Promise<void> {
    await this.#sql.query('INSERT INTO revoked_sessions (jti, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      session.jti,
      session.expiresAt,
    ]);
    // Rows of tokens past their expiry and the renewal grace protect nothing any more.
    await this.#sql.query('DELETE FROM revoked_sessions WHERE expires_at < $1', [
      new Date(this.#now().getTime() - RENEWAL_GRACE_S * 1000),
    ]);
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
    await this.#sql.query('DELETE FROM revoked_identities WHERE revoked_at < $1', [
      new Date(now.getTime() - (VISITOR_LIFETIME_S + RENEWAL_GRACE_S) * 1000),
    ]);
    await this.revoke(session);
    for (const listener of this.#identitiesEnded) listener(session);
  }

  /** Whose session the verified claims are: the inbox must be one this BFF may speak for. */
  async #toSession(verified: VerifiedSession): Promise<Session> {
    if (!verified.inboxId) {
      // Minted by the engine: only a key of this BFF's own account may speak for customers here.
      const own = await this.#ownAccount().catch(() => {
        throw new ParleyError(
          'upstream_unavailable',
          'The session token could not be checked right now; try again shortly.',
        );
      });
      if (verified.accountId !== own)
        throw new ParleyError('unauthorized', 'The session token was minted for another account.');
    }
    const inboxId = verified.inboxId ?? this.#defaultInboxId;
    if (!inboxId)
      throw new ParleyError('unauthorized', 'The session token names no inbox, and this server has no default inbox.');
    return {
      inboxId,
      // A sandbox key's verified customers live apart from the live ones of the same reference.
      customerRef: bffCustomerRef(verified.customerRef, verified.verified, verified.environment),
      verified: verified.verified,
      jti: verified.jti,
      environment: verified.environment,
      expiresAt: verified.expiresAt,
      name: verified.name,
      email: verified.verified ? verified.email : undefined,
      identitySince: verified.identitySince,
      issuedAt: verified.issuedAt,
    };
  }

  /**
   * Asks the deny-lists and the inbox: a 401 for a revoked token, an ended identity, or an inbox
   * this BFF lacks; a 403 `account_suspended` while the inbox's account is suspended (the token
   * works again once it is resumed).
   */
  async #stands(session: Session): Promise<void> {
    // One statement: is the token revoked, is its inbox one of ours (and its account not suspended), has its identity been ended since it was issued?
    // The identity is the BFF's own reference (`endIdentity` keeps that one: a sandbox verified customer's is `test:<ref>`).
    const [state] = await this.#sql.query<{ revoked: boolean; inbox: boolean; suspended: boolean; ended: Date | null }>(
      `SELECT EXISTS (SELECT 1 FROM revoked_sessions WHERE jti = $1) AS revoked, EXISTS (SELECT 1 FROM inboxes WHERE id = $2) AS inbox,
         EXISTS (SELECT 1 FROM inboxes i JOIN accounts a ON a.id = i.account_id WHERE i.id = $2 AND a.status = 'suspended') AS suspended,
         (SELECT revoked_at FROM revoked_identities WHERE inbox_id = $2 AND customer_ref = $3) AS ended`,
      [session.jti, session.inboxId, session.customerRef],
    );
    if (state?.revoked) throw new ParleyError('unauthorized', 'The session token has been revoked.');
    if (!state?.inbox)
      throw new ParleyError('unauthorized', 'The session token is for an inbox this server does not have.');
    if (state.suspended) throw accountSuspendedError();
    if (state.ended && session.issuedAt.getTime() <= state.ended.getTime())
      throw new ParleyError('unauthorized', 'This session has been ended.');
  }
}
