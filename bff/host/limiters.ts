import { ParleyError } from '../../shared/index.ts';
import {
  MemoryRateLimiter,
  MemoryRollingLimiter,
  RedisRateLimiter,
  RedisRollingLimiter,
  type Logger,
  type RateLimiter,
  type Redis,
  type RollingLimiter,
} from '../../shared/server/index.ts';
import type { Metrics } from './metrics.ts';

/** At most 20 site-key requests per client address in any rolling 60 minutes (SPEC "Limits"). */
export const SITE_KEY_LIMIT = { requests: 20, windowMs: 60 * 60_000 } as const;
/** What one customer may do on the widget routes per minute (polling excluded). */
export const WIDGET_REQUESTS_PER_MINUTE = 120;

export interface BffLimiters {
  widgetLimiter: RateLimiter;
  siteKeyLimiter: RollingLimiter;
  /** New messages, uploads and sign-in attempts. */
  floodLimiter: RateLimiter;
  /** Counts one Socket.IO command of a customer against the widget's limit; throws `rate_limited` past it. */
  consumeCommand(session: { inboxId: string; customerRef: string }): Promise<void>;
}

export interface BffLimiterDeps {
  logger: Logger;
  metrics: Metrics;
  now: () => Date;
  redis?: { client: Redis; prefix: string } | undefined;
  siteKeyLimiter?: RollingLimiter | undefined;
  widgetLimiter?: RateLimiter | undefined;
}

/** The BFF's rate limits: in Redis when several nodes share one, else in this process. */
export function createLimiters({ logger, metrics, now, redis, ...given }: BffLimiterDeps): BffLimiters {
  // While Redis is away the limits let requests through; said in the log at most every 10 s.
  let warnedAt = 0;
  const redisTrouble = (error: Error) => {
    if (Date.now() - warnedAt < 10_000) return;
    warnedAt = Date.now();
    logger.warn({ err: error }, 'Redis did not answer; rate limits are letting requests through until it does');
  };
  const widgetLimiter =
    given.widgetLimiter ??
    (redis ? new RedisRateLimiter(redis.client, `${redis.prefix}widget:`, redisTrouble) : new MemoryRateLimiter());
  const siteKeyLimiter =
    given.siteKeyLimiter ??
    (redis
      ? new RedisRollingLimiter(
          redis.client,
          `${redis.prefix}site-key:`,
          SITE_KEY_LIMIT.requests,
          SITE_KEY_LIMIT.windowMs,
          redisTrouble,
        )
      : new MemoryRollingLimiter(SITE_KEY_LIMIT.requests, SITE_KEY_LIMIT.windowMs));
  const floodLimiter = redis
    ? new RedisRateLimiter(redis.client, `${redis.prefix}flood:`, redisTrouble)
    : new MemoryRateLimiter();
  const consumeCommand = async (session: { inboxId: string; customerRef: string }) => {
    const decision = await widgetLimiter.consume(
      `${session.inboxId}:${session.customerRef}`,
      WIDGET_REQUESTS_PER_MINUTE,
      now(),
    );
    if (decision.allowed) return;
    metrics.refusals.inc({ surface: 'socket' });
    throw new ParleyError('rate_limited', `This customer may make ${decision.limit} requests a minute.`);
  };
  return { widgetLimiter, siteKeyLimiter, floodLimiter, consumeCommand };
}
