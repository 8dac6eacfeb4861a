import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { ParleyError } from '../../shared/index.ts';
import { MemoryRateLimiter } from '../../shared/server/index.ts';
import { createHelpdeskCounter, helpdeskLimits } from './rate-limits.ts';

/** A request from `address`, enough of Koa's context for the counter: the peer and the headers it sets. */
function request(address: string) {
  const headers = new Map<string, string>();
  const ctx = {
    req: { socket: { remoteAddress: address }, headers: {} },
    set: (name: string, value: string) => headers.set(name, value),
  };
  return { ctx: ctx as unknown as Context, headers };
}

describe('the helpdesk counter', () => {
  const at = new Date('2026-11-27T10:00:20Z');
  const counter = createHelpdeskCounter({
    limiter: new MemoryRateLimiter(),
    limits: helpdeskLimits({ requestsPerAddress: 5, requestsPerToken: 3 }),
    now: () => at,
    trustProxyHops: 0,
  });

  it('limits one address over every caller it brings, with the headers and Retry-After on the refusal', async () => {
    for (let index = 0; index < 5; index++) {
      const { ctx } = request('203.0.113.9');
      await counter.address(ctx);
      await counter.caller(ctx, `user:${index}`);
    }
    const { ctx, headers } = request('203.0.113.9');
    const refusal = await counter.address(ctx).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ParleyError);
    expect((refusal as ParleyError).code).toBe('rate_limited');
    expect(Object.fromEntries(headers)).toEqual({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Date.parse('2026-11-27T10:01:00Z') / 1000),
      'Retry-After': '40',
    });
    // Another address is counted apart.
    await counter.address(request('198.51.100.1').ctx);
  });

  it('limits one caller from any address', async () => {
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) await counter.caller(request(address).ctx, 'bot:1');
    await expect(counter.caller(request('192.0.2.4').ctx, 'bot:1')).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('refuses a limit that is not a positive whole number when it is built', () => {
    expect(() => helpdeskLimits({ requestsPerToken: 0 })).toThrow(TypeError);
    expect(() => helpdeskLimits({ wrongTokensPerAddress: 1.5 })).toThrow(TypeError);
  });
});
