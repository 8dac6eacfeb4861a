import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { startStack, type TestStack } from '../../test/stack.ts';
import { HELPDESK_LIMITS } from './rate-limits.ts';

/**
 * Issue 33: 400 quick Application API calls and 300 wrong Platform tokens were all answered. With
 * the default limits, over real HTTP: a caller, an address and wrong tokens are each limited a
 * minute, and every answer (401s and 429s included) says how many are left.
 */
describe('the helpdesk rate limits', () => {
  let stack: TestStack;
  // The clock stands still in the middle of a minute, so that no window ends during a burst.
  const clock = { at: Math.floor(Date.now() / 60_000) * 60_000 + 30_000 };
  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN }, { now: () => new Date(clock.at) });
  });
  afterAll(() => stack?.stop());

  const platform = (path: string, options: { method?: string; body?: unknown } = {}, token = PLATFORM_TOKEN) =>
    desk(`${stack.url}/platform/api/v1${path}`, token, options);
  const nextMinute = () => {
    clock.at += 60_000;
  };
  const expectHeaders = (headers: Headers, limit: number) => {
    expect(headers.get('x-ratelimit-limit')).toBe(String(limit));
    expect(Number(headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
    expect(Number(headers.get('x-ratelimit-reset'))).toBe(Math.floor(clock.at / 60_000) * 60 + 60);
  };

  it('answers at most 300 of 400 quick Application API calls of one token; the rest 429 rate_limited with Retry-After', async () => {
    nextMinute();
    const user = await platform('/users', { method: 'POST', body: { name: 'Quick', email: 'quick@example.com' } });
    expect(user.status).toBe(200);
    const answers = [];
    for (let index = 0; index < 400; index++)
      answers.push(await desk(`${stack.url}/api/v1/accounts/1`, user.body.access_token as string));
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited).toHaveLength(400 - HELPDESK_LIMITS.requestsPerToken);
    expect(answers.slice(0, HELPDESK_LIMITS.requestsPerToken).every((answer) => answer.status !== 429)).toBe(true);
    for (const answer of answers) expectHeaders(answer.headers, HELPDESK_LIMITS.requestsPerToken);
    expect(limited[0]!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited[0]!.headers.get('retry-after'))).toBe(30);
    expect(limited[0]!.body.errors[0].code).toBe('rate_limited');
    // Another caller from the same address is not held back by the first one's limit.
    const platformAnswer = await platform('/users/1');
    expect(platformAnswer.status).not.toBe(429);
  });

  it('refuses wrong Platform tokens from one address with 429 past 150 a minute (the right token too), each with the headers', async () => {
    nextMinute();
    const answers = [];
    for (let index = 0; index < 300; index++) answers.push(await platform('/accounts/1', {}, `plat-wrong-${index}`));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.slice(0, HELPDESK_LIMITS.wrongTokensPerAddress).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(HELPDESK_LIMITS.wrongTokensPerAddress).every((status) => status === 429)).toBe(true);
    for (const answer of answers) expectHeaders(answer.headers, HELPDESK_LIMITS.wrongTokensPerAddress);
    expect(answers[0]!.headers.get('x-ratelimit-remaining')).toBe(String(HELPDESK_LIMITS.wrongTokensPerAddress - 1));
    expect(answers.at(-1)!.headers.get('retry-after')).toBe('30');
    // No token at all counts the same way.
    expect((await desk(`${stack.url}/api/v1/accounts/1`, undefined)).status).toBe(429);
    // The valid token still works: its own count decides.
    const right = await platform('/users/1');
    expect(right.status).not.toBe(429);
    expectHeaders(right.headers, HELPDESK_LIMITS.requestsPerToken);
    nextMinute();
    expect((await platform('/accounts/1', {}, 'plat-wrong-again')).status).toBe(401);
  });
});
