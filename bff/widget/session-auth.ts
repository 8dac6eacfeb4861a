import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { ParleyError, SESSION_TOKEN_PREFIX, WidgetStartRequest } from '../../shared/index.ts';
import {
  bearerToken,
  DEFAULT_BODY_LIMIT,
  enforceRateDecision,
  readJson,
  type RateLimiter,
  type Sql,
} from '../../shared/server/index.ts';
import { inboxPresentation } from './limited-presentation.ts';
import { assertSessionOrigin } from './origins.ts';
import type { Session, WidgetSessions } from './sessions.ts';

export interface WidgetState {
  session: Session;
}

/** Lets through only requests that carry a valid, unrevoked `wst_` token, from an origin its session allows. */
export function sessionAuth(sessions: WidgetSessions, sql: Sql): Middleware<WidgetState> {
  return async (ctx, next) => {
    const token = isStarting(ctx) && !ctx.get('authorization') ? await startToken(ctx) : bearerToken(ctx);
    if (!token.startsWith(SESSION_TOKEN_PREFIX)) {
      throw new ParleyError(
        'unauthorized',
        'Widget routes take a wst_ session token; get one from POST /v1/widget-sessions.',
      );
    }
    // Sending a message asks the deny-lists in the statement that keeps it (one round trip fewer).
    const session = isSendingMessage(ctx) ? await sessions.verifyLeavingStanding(token) : await sessions.verify(token);
    // Not ctx.origin: in Koa 3 that is the request's Origin header, not this server's own origin.
    await assertSessionOrigin(sql, session, ctx.get('origin'), `${ctx.protocol}://${ctx.host}`);
    ctx.state.session = session;
    await next();
  };
}

/** The widget's opening request, which a browser sends without a preflight: a form with the token in it (issue 34). */
export const isStarting = (ctx: Pick<Context, 'method' | 'path'>): boolean =>
  ctx.method === 'POST' && ctx.path === '/v1/widget/start';

/** The token in the body of `POST /v1/widget/start` (the route reads the body again, from the copy kept). */
async function startToken(ctx: Context): Promise<string> {
  const { token } = await readJson(ctx, StartToken, DEFAULT_BODY_LIMIT, true);
  if (!token) {
    throw new ParleyError(
      'unauthorized',
      'Send the session token as the token field, or as Authorization: Bearer <token>.',
    );
  }
  return token;
}
const StartToken = z.object({ token: WidgetStartRequest.shape.token });

/** The widget's send, whose one statement asks whether the session still stands (`storeCustomerMessage`). */
export const isSendingMessage = (ctx: Pick<Context, 'method' | 'path'>): boolean =>
  ctx.method === 'POST' && /^\/v1\/widget\/conversations\/[^/]+\/messages$/.test(ctx.path);

/** Polling for new lines is free (SPEC "Limits"); everything else a customer does counts. */
export const isPolling = (ctx: Pick<Context, 'method' | 'path'>): boolean =>
  ctx.method === 'GET' && /^\/v1\/widget\/conversations\/[^/]+\/messages$/.test(ctx.path);

/**
 * How often a customer may poll for new lines a minute: free of the widget limit (SPEC "Limits"),
 * but not unlimited. The widget polls every few seconds while its socket is down, in each tab.
 */
export const POLLS_PER_MINUTE = 600;

/**
 * Limits each customer's widget requests per minute, with `X-RateLimit-*` on every answer; polling
 * counts apart, against its own, higher limit.
 */
export function widgetRateLimit(
  limiter: RateLimiter,
  perMinute: number,
  now: () => Date,
  /** With it, a refused start carries the shop's name and e-mail, as its config would have shown them. */
  sql?: Sql,
): Middleware<WidgetState> {
  return async (ctx, next) => {
    const at = now();
    const { inboxId, customerRef } = ctx.state.session;
    if (isPolling(ctx))
      enforceRateDecision(
        ctx,
        await limiter.consume(`poll:${inboxId}:${customerRef}`, POLLS_PER_MINUTE, at),
        at,
        'Polling by this customer',
      );
    else {
      const decision = await limiter.consume(`${inboxId}:${customerRef}`, perMinute, at);
      // A refused start carries the shop's name and e-mail, which its config would have shown (issue 34).
      const shown = !decision.allowed && sql && isStarting(ctx) ? await inboxPresentation(sql, inboxId) : undefined;
      enforceRateDecision(ctx, decision, at, 'This customer', shown);
    }
    await next();
  };
}
