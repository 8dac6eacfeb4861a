import type { RouterContext } from '@koa/router';
import { z } from 'zod';
import {
  newId,
  ParleyError,
  RevokeSessionRequest,
  VerifiedSessionRequest,
  VisitorSessionRequest,
  WidgetSession,
} from '../../shared/index.ts';
import {
  bearerToken,
  clientLimitKey,
  enforceRateDecision,
  readJson,
  type ApiRoutes,
  type RateLimiter,
  type RollingLimiter,
  type Sql,
} from '../../shared/server/index.ts';
import { EngineCallError } from '../engine-link/engine-client.ts';
import type { EngineAccounts, EngineScope } from '../engine-link/engine-accounts.ts';
import { accountOfEngineAccount, inboxServedBy } from '../engine-link/engine-accounts-store.ts';
import { limitedPresentation } from './limited-presentation.ts';
import { assertSiteKeyOrigin } from './origins.ts';
import { RENEWAL_GRACE_S, VISITOR_LIFETIME_S, type WidgetSessions } from './sessions.ts';
import { accountSuspendedError, inboxSuspended } from '../helpdesk/store/accounts.ts';
import { findSiteKey, type Environment, type SiteKey } from '../store/inboxes.ts';
import { browserName, keepVisitorTraits, visitorTimeZone } from './visitor-traits.ts';

export const DEFAULT_SESSION_TTL_S = 3600;
/**
 * API-key session requests a minute from one client address (a site's server), before its key is
 * checked: above what the engine lets a live key make (300), so the engine's quota decides for a
 * real server, while wrong keys from one address are slowed down; its count is on every answer.
 */
export const API_KEY_SESSIONS_PER_ADDRESS = 1_200;
/**
 * Verified sessions one API key mints a minute, from every address together
 * (API_KEY_SESSIONS_PER_MINUTE). A verified customer's messages are not counted per address (the
 * shop vouched for them, and many share a mobile network's address); their sessions come from the
 * shop's server, so what bounds a flood of sign-ups (or a leaked key used from many addresses) is
 * the key's own count: far above what a shop's sign-ups need, and below what would let one key
 * make customers faster than the per-inbox message limit could hold them.
 */
export const API_KEY_SESSIONS_PER_MINUTE = 6_000;
/** What a caller is told to wait when the engine could not check its key and did not say for how long. */
const UPSTREAM_RETRY_AFTER_MS = 5_000;

export interface SessionRouteDeps {
  sql: Sql;
  sessions: WidgetSessions;
  engines: EngineAccounts;
  /** The installation's engine account (its configured keys'): a site's API key is of it, or of an account's own engine account. */
  ownAccountId: () => Promise<string>;
  siteKeyLimiter: RollingLimiter;
  /** Counts API-key requests per client address (API_KEY_SESSIONS_PER_ADDRESS a minute) and sessions per key. */
  apiKeyLimiter: RateLimiter;
  /** Verified sessions one API key mints a minute (API_KEY_SESSIONS_PER_MINUTE when unset). */
  apiKeySessionsPerMinute?: number | undefined;
  trustProxyHops: number;
  now: () => Date;
}

/** Whose API key it is: its environment, its engine account, and the inboxes that engine account serves (`scope`). */
interface KeyHolder {
  /** The key's id at the engine (`key_…`): its sessions are counted under it. */
  keyId: string;
  environment: Environment;
  accountId: string;
  scope: EngineScope;
}

/**
 * `POST /v1/widget-sessions`: a site key buys a visitor session (at most 20 an hour per client
 * address, from the key's origins); an API key buys a verified customer's session (checked with
 * the engine on every call, so a revoked key fails at once) for an inbox its engine account serves:
 * a helpdesk account's own engine account's key for that account's inboxes (`inbox_id`, or its
 * first), the installation's (AI_API_KEY's account) for the default inbox, or an inbox of no account
 * or of an account without its own engine account when `inbox_id` names one.
 * `DELETE /v1/widget-sessions/current` and `POST /v1/widget-sessions/revoke` end a session before
 * it expires.
 */
export function addSessionRoutes(routes: ApiRoutes, deps: SessionRouteDeps): void {
  addStartSessionRoute(routes, deps);
  addEndSessionRoutes(routes, deps);
}

/** `POST /v1/widget-sessions`: a site key's visitor session, or an API key's verified customer session. */
function addStartSessionRoute(routes: ApiRoutes, deps: SessionRouteDeps): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/widget-sessions',
      tag: 'Sessions',
      security: 'siteKeyOrApiKey',
      summary: 'Start a widget session',
      description:
        "With a site key (pk_…): a visitor session; send the previous token to renew the same visitor. At most 20 site-key requests per client address in any 60 minutes; the 429 then carries the inbox's public name and e-mail in error.details.inbox (for a valid key from one of its origins). With an API key (service_…): a verified customer session for {customer_ref, name?, email?, ttl_s?, inbox_id?}; ttl_s defaults to 3600 and is at most 21600. One API key mints at most API_KEY_SESSIONS_PER_MINUTE sessions a minute (6,000 by default) from all addresses together; past it 429 rate_limited with Retry-After. An account's API key (Application API POST /api/v1/accounts/{id}/api_keys) mints for the account's inbox inbox_id, by default its first; the installation's key for the default inbox. An inbox_id the key's account does not serve, or an account without an inbox, is 422.",
      body: z.union([VisitorSessionRequest, VerifiedSessionRequest]),
      responses: { 201: { description: 'The session.', schema: WidgetSession } },
      errors: [
        'origin_not_allowed',
        'account_suspended',
        'rate_limited',
        'unprocessable',
        'upstream_unavailable',
        'not_configured',
      ],
    },
    async (ctx) => {
      const credential = bearerToken(ctx);
      if (credential.startsWith('pk_')) return startVisitorSession(ctx, credential, deps);
      if (credential.startsWith('service_')) return startVerifiedSession(ctx, credential, deps);
      throw new ParleyError(
        'unauthorized',
        'Send a site key (pk_test_… or pk_live_…) or an API key (service_…) as the bearer credential.',
      );
    },
  );
}

/** Ending a session before it expires: the customer's own (`DELETE …/current`), or any with the site's API key. */
function addEndSessionRoutes(routes: ApiRoutes, deps: SessionRouteDeps): void {
  const { sessions, engines } = deps;
  routes
    .add(
      {
        method: 'delete',
        path: '/v1/widget-sessions/current',
        tag: 'Sessions',
        security: 'sessionToken',
        summary: 'End this session and the identity it speaks for (the widget forgets the visitor)',
        description:
          'Every token of this customer issued until now stops working, and an expired one no longer renews the visitor: the next session is a new visitor.',
        responses: { 204: { description: 'The token no longer works.' } },
      },
      async (ctx) => {
        const session = await sessions.verify(bearerToken(ctx));
        await sessions.endIdentity(session);
        ctx.status = 204;
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/widget-sessions/revoke',
        tag: 'Sessions',
        security: 'apiKey',
        summary: "Revoke a customer's session token (for example when they sign out)",
        body: RevokeSessionRequest,
        responses: { 204: { description: 'The token no longer works.' } },
        errors: ['upstream_unavailable'],
      },
      async (ctx, { body }) => {
        const credential = bearerToken(ctx);
        if (!credential.startsWith('service_'))
          throw new ParleyError('unauthorized', 'Revoking a session takes your API key.');
        const holder = await checkApiKey(credential, deps);
        const session = await sessions.verifyForRenewal(body.token, RENEWAL_GRACE_S).catch(() => undefined);
        // A key revokes only sessions of its own environment, of the inboxes its engine account
        // serves; of any other the answer is the same, and nothing changes.
        const ours =
          session !== undefined &&
          session.environment === holder.environment &&
          (await engines.scopeOfInbox(session.inboxId).catch(() => undefined)) === holder.scope;
        if (ours) await sessions.revoke(session);
        ctx.status = 204;
      },
    );
}

/** A site key's session: limited per client address, from the key's origins, for an inbox this BFF can answer. */
async function startVisitorSession(ctx: RouterContext, siteKeyToken: string, deps: SessionRouteDeps): Promise<void> {
  const { sql, engines, siteKeyLimiter, trustProxyHops, now } = deps;
  // Every site-key request counts, valid or not, so the limit also slows down key guessing.
  const decision = await siteKeyLimiter.consume(clientLimitKey(ctx.req, trustProxyHops), now());
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  // When the oldest request of the rolling hour ages out, and one more is allowed.
  ctx.set('X-RateLimit-Reset', String(Math.ceil((now().getTime() + decision.resetMs) / 1000)));
  if (!decision.allowed) {
    const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    ctx.set('Retry-After', String(retryAfter));
    throw new ParleyError(
      'rate_limited',
      `At most ${decision.limit} site-key requests an hour come from one address. Try again in ${retryAfter} s.`,
      await limitedPresentation(sql, siteKeyToken, ctx.get('origin')),
    );
  }
  const siteKey = await findSiteKey(sql, siteKeyToken);
  if (!siteKey) throw new ParleyError('unauthorized', 'The site key is not valid or has been revoked.');
  if (await inboxSuspended(sql, siteKey.inboxId)) throw accountSuspendedError();
  assertSiteKeyOrigin(siteKey.environment, siteKey.allowedOrigins, ctx.get('origin'));
  // A customer of an environment this BFF holds no engine key for could never be answered.
  await engines.forInbox(siteKey.inboxId, siteKey.environment);
  const body = await readJson(ctx, VisitorSessionRequest);
  const session = await visitorSession(siteKey, body.token, deps);
  // What the browser tells names the visitor for the people ("Visitor from Berlin · Chrome"), without a geo-IP database.
  const traits = { timeZone: visitorTimeZone(body.time_zone), browser: browserName(ctx.get('user-agent')) };
  await keepVisitorTraits(sql, { inboxId: siteKey.inboxId, customerRef: session.customer_ref }, traits, now());
  ctx.status = 201;
  ctx.body = session;
}

/** An API key's session for a verified customer of an inbox the key's engine account serves. */
async function startVerifiedSession(ctx: RouterContext, apiKey: string, deps: SessionRouteDeps): Promise<void> {
  const at = deps.now();
  const address = clientLimitKey(ctx.req, deps.trustProxyHops);
  const decision = await deps.apiKeyLimiter.consume(
    `widget-sessions:api-key:${address}`,
    API_KEY_SESSIONS_PER_ADDRESS,
    at,
  );
  enforceRateDecision(ctx, decision, at, 'This address');
  const body = await readJson(ctx, VerifiedSessionRequest);
  const holder = await checkApiKey(apiKey, deps);
  const perKey = await deps.apiKeyLimiter.consume(
    `widget-sessions:key:${holder.keyId}`,
    deps.apiKeySessionsPerMinute ?? API_KEY_SESSIONS_PER_MINUTE,
    at,
  );
  // On a success the address's count stays on the answer; past the key's own, the key's is shown.
  if (!perKey.allowed) enforceRateDecision(ctx, perKey, at, 'This API key');
  const inboxId = await verifiedInbox(holder, body.inbox_id, deps);
  const ttl = body.ttl_s ?? DEFAULT_SESSION_TTL_S;
  const { environment, accountId } = holder;
  const issued = await deps.sessions.issue(
    {
      customerRef: body.customer_ref,
      inboxId,
      verified: true,
      environment,
      accountId,
      name: body.name,
      email: body.email,
    },
    ttl,
  );
  ctx.status = 201;
  ctx.body = {
    token: issued.token,
    ttl_s: ttl,
    expires_at: issued.expiresAt.toISOString(),
    customer_ref: body.customer_ref,
    verified: true,
  } satisfies WidgetSession;
}

/**
 * A visitor's session: the same visitor again when the previous token (expired at most a week
 * ago) was a visitor's of this inbox and environment, and their identity is younger than
 * VISITOR_LIFETIME_S; a new visitor otherwise.
 */
async function visitorSession(
  siteKey: SiteKey,
  previous: string | undefined,
  { sessions, now }: SessionRouteDeps,
): Promise<WidgetSession> {
  const renewed = previous
    ? await sessions.verifyForRenewal(previous, RENEWAL_GRACE_S).catch(() => undefined)
    : undefined;
  const same =
    renewed &&
    !renewed.verified &&
    renewed.inboxId === siteKey.inboxId &&
    renewed.environment === siteKey.environment &&
    now().getTime() - renewed.identitySince.getTime() < VISITOR_LIFETIME_S * 1000;
  const customerRef = same ? renewed.customerRef : newId('visitor');
  // A new identity begins when its first token is issued (the token's own time); a renewal carries the start forward.
  const issued = await sessions.issue(
    {
      customerRef,
      inboxId: siteKey.inboxId,
      verified: false,
      environment: siteKey.environment,
      identitySince: same ? renewed.identitySince : undefined,
    },
    DEFAULT_SESSION_TTL_S,
  );
  return {
    token: issued.token,
    ttl_s: DEFAULT_SESSION_TTL_S,
    expires_at: issued.expiresAt.toISOString(),
    customer_ref: customerRef,
    verified: false,
  };
}

/**
 * The inbox a verified session is for: with the installation's key the default inbox (as before
 * accounts had engine accounts of their own) unless `inbox_id` names another it serves; with an
 * account's own key the account's inbox `inbox_id`, or its first. Its account must not be
 * suspended, and the BFF must hold a key of the session's environment for it.
 */
async function verifiedInbox(
  holder: KeyHolder,
  displayId: number | undefined,
  { sql, sessions, engines }: SessionRouteDeps,
): Promise<string | undefined> {
  if (holder.scope === null && displayId === undefined) {
    engines.installation.for(holder.environment);
    return sessions.defaultInboxId;
  }
  const inboxId = await inboxServedBy(sql, holder.scope, displayId);
  if (!inboxId) {
    throw displayId === undefined
      ? new ParleyError(
          'unprocessable',
          "This API key's account has no inbox yet: make one (Application API POST /api/v1/accounts/{id}/inboxes) first.",
        )
      : new ParleyError('unprocessable', `This API key's account has no inbox ${displayId}.`, {
          problems: [{ field: 'inbox_id', message: "not an inbox of this key's account" }],
        });
  }
  if (await inboxSuspended(sql, inboxId)) throw accountSuspendedError();
  await engines.forInbox(inboxId, holder.environment);
  return inboxId;
}

/**
 * Checks a site's server's API key with the engine: valid now, and of an engine account this BFF
 * serves: the installation's, or a helpdesk account's own.
 */
async function checkApiKey(apiKey: string, { sql, engines, ownAccountId }: SessionRouteDeps): Promise<KeyHolder> {
  try {
    const me = await engines.installation.first.withKey(apiKey).me();
    const account = await accountOfEngineAccount(sql, me.account_id);
    const holder = { keyId: me.key.id, environment: me.environment, accountId: me.account_id };
    if (account !== undefined) return { ...holder, scope: account };
    if (me.account_id !== (await ownAccountId()))
      throw new ParleyError('unauthorized', 'This API key belongs to another account.');
    return { ...holder, scope: null };
  } catch (error) {
    if (error instanceof ParleyError) throw error;
    if (error instanceof EngineCallError && error.status === 401)
      throw new ParleyError('unauthorized', 'The API key is not valid or has been revoked.');
    if (error instanceof EngineCallError && error.code === 'account_suspended') throw accountSuspendedError();
    // The engine is busy (its own 429 or 503 says for how long) or away: the caller hears when to try again.
    const retryAfterMs = error instanceof EngineCallError ? error.retryAfterMs : undefined;
    throw new ParleyError(
      'upstream_unavailable',
      'The API key could not be checked right now; try again shortly.',
    ).retryAfter((retryAfterMs ?? UPSTREAM_RETRY_AFTER_MS) / 1000);
  }
}
