import type { Middleware } from 'koa';
import type { EngineState } from './auth.ts';
import { enforceRateDecision, type RateLimiter } from '../shared/server/index.ts';

/**
 * Limits each API key to its requests per minute and says so on every answer, errors included.
 * Over the limit: 429 with `Retry-After`, and the request goes no further, so nothing changes.
 */
export function rateLimit(limiter: RateLimiter, now: () => Date): Middleware<EngineState> {
  return async (ctx, next) => {
    const { caller } = ctx.state;
    const at = now();
    enforceRateDecision(ctx, await limiter.consume(caller.keyId, caller.requestsPerMinute, at), at);
    await next();
  };
}
