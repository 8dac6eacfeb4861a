import type { Context, Middleware } from 'koa';
import type { Caller } from './store/environment.ts';
import { clientLimitKey, enforceRateDecision, type RateLimiter } from '../shared/server/index.ts';

/**
 * Requests a minute from one client address without a valid API key (a wrong or revoked key, or
 * none, on a public route such as the OpenAPI document or a voice token's use). SPEC names no
 * number for these; this is the live default, since an app's users behind one carrier NAT share an
 * address when they use their voice tokens, and it still makes a flood cheap to refuse.
 */
export const ADDRESS_REQUESTS_PER_MINUTE = 300;

/** What every request carries before its route. */
export interface RequestState {
  /** The caller, when it sent a valid API key. */
  caller?: Caller | undefined;
  /** Why the request may go no further: over its limit, or it could not be counted. */
  refusal?: unknown;
}

/**
 * Finds who calls (`identify`), counts every request and puts `X-RateLimit-*` on every answer
 * (SPEC "Limits"): a request with a valid API key against its account and environment, whichever
 * of their keys it sent, so two keys of one environment share a budget and sandbox and live have
 * one each; any other request against its client's address (its /64 for IPv6, behind
 * `trustProxyHops` proxies).
 *
 * It runs before the error boundary, so even the boundary's own answers (a malformed path) carry
 * the headers; it therefore never throws, and `refuseOverLimit`, inside the boundary, turns what
 * it kept into the usual error answer (429 with `Retry-After`, or the failure to count).
 */
export function countRequests({
  identify,
  limiter,
  now,
  trustProxyHops,
}: {
  identify: (ctx: Context) => Promise<Caller | undefined>;
  limiter: RateLimiter;
  now: () => Date;
  trustProxyHops: number;
}): Middleware<RequestState> {
  return async (ctx, next) => {
    try {
      const caller = (ctx.state.caller = await identify(ctx));
      const at = now();
      const decision = caller
        ? await limiter.consume(`account:${caller.accountId}:${caller.environment}`, caller.requestsPerMinute, at)
        : await limiter.consume(`address:${clientLimitKey(ctx.req, trustProxyHops)}`, ADDRESS_REQUESTS_PER_MINUTE, at);
      enforceRateDecision(
        ctx,
        decision,
        at,
        caller ? `This account's ${caller.environment} environment` : 'This address, without an API key,',
      );
    } catch (refusal) {
      ctx.state.refusal = refusal;
    }
    await next();
  };
}

/** Gives the answer `countRequests` decided on, inside the error boundary; the request goes no further, so nothing changes. */
export function refuseOverLimit(): Middleware<RequestState> {
  return async (ctx, next) => {
    if (ctx.state.refusal !== undefined) throw ctx.state.refusal;
    await next();
  };
}
