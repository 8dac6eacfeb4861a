import type { Context } from 'koa';
import { clientLimitKey, enforceRateDecision, type RateLimiter } from '../../shared/server/index.ts';

/**
 * How many requests a minute the Platform and Application APIs take (issue 33: 400 quick calls and
 * 300 wrong tokens were all answered). Every answer carries `X-RateLimit-Limit`, `-Remaining` and
 * `-Reset` (401s included); past a limit it is 429 `rate_limited` with `Retry-After`.
 */
export interface HelpdeskLimits {
  /** From one caller (a person, an agent bot or a platform app, over all their tokens). */
  requestsPerToken: number;
  /** From one client address (an IPv6 client by its /64), whatever the token. */
  requestsPerAddress: number;
  /** Tokens that are not valid (or missing) from one client address: guessing tokens is slowed down. */
  wrongTokensPerAddress: number;
}

/**
 * The defaults: 300 a minute per caller is the engine's own live quota, five a second, more than
 * the console or a script that syncs an account needs; 1,200 per address leaves room for an office
 * of agents behind one address; 150 wrong tokens a minute is far more than mistyped tokens give
 * (and a token of 32 random bytes cannot be guessed at any rate).
 */
export const HELPDESK_LIMITS: HelpdeskLimits = {
  requestsPerToken: 300,
  requestsPerAddress: 1_200,
  wrongTokensPerAddress: 150,
};

/** The limits in force: the defaults with `overrides` (configuration, or a test lifting one), checked when built. */
export function helpdeskLimits(overrides: Partial<HelpdeskLimits> = {}): HelpdeskLimits {
  const limits = { ...HELPDESK_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1)
      throw new TypeError(`The helpdesk limit ${name} must be a positive integer, got ${value}`);
  }
  return limits;
}

/** What the helpdesk's credential checks count with: one limiter (in Redis when several nodes share it). */
export interface HelpdeskRateLimit {
  limiter: RateLimiter;
  limits: HelpdeskLimits;
  now: () => Date;
  trustProxyHops: number;
}

/** Counts a helpdesk request by its parts; each count sets the X-RateLimit headers and refuses past its limit. */
export function createHelpdeskCounter({ limiter, limits, now, trustProxyHops }: HelpdeskRateLimit) {
  const count = async (ctx: Context, key: string, limit: number, who: string) => {
    const at = now();
    enforceRateDecision(ctx, await limiter.consume(`helpdesk:${key}`, limit, at), at, who);
  };
  return {
    /** Every request, before its token is looked up. */
    address: (ctx: Context) =>
      count(ctx, `address:${clientLimitKey(ctx.req, trustProxyHops)}`, limits.requestsPerAddress, 'This address'),
    /** A request whose token was not valid: 429 instead of 401 past the limit. */
    wrongToken: (ctx: Context) =>
      count(
        ctx,
        `wrong-token:${clientLimitKey(ctx.req, trustProxyHops)}`,
        limits.wrongTokensPerAddress,
        'This address (with tokens that are not valid)',
      ),
    /** A request of a known caller (`platform:7`, `user:3`, `agent_bot:2`). */
    caller: (ctx: Context, caller: string) => count(ctx, `caller:${caller}`, limits.requestsPerToken, 'This token'),
  };
}

export type HelpdeskCounter = ReturnType<typeof createHelpdeskCounter>;
