import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { newTenant } from '../../test/tenants.ts';
import { ApiKey } from '../../shared/schemas/helpdesk/index.ts';

/** API_KEY_SESSIONS_PER_MINUTE here (6,000 by default). */
const PER_KEY = 3;

/**
 * Verified customers' messages are not counted per address (the shop vouched for them, and many
 * share one mobile network's address), and their sessions come from the shop's server, whose one
 * address would be counted, not its customers. What bounds a flood of sign-ups, or a leaked key
 * used from many addresses, is the key's own count: verified sessions one API key mints a minute,
 * from every address together. Real BFF and engine over HTTP.
 */
describe('verified sessions one API key mints a minute', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack(
      undefined,
      { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN, TRUST_PROXY_HOPS: '1' },
      { apiKeySessionsPerMinute: PER_KEY },
    );
  });
  afterAll(() => stack?.stop());

  const mint = (key: string, customerRef: string, address: string) =>
    request(`${stack.url}/v1/widget-sessions`, {
      token: key,
      body: { customer_ref: customerRef },
      headers: { 'x-forwarded-for': address },
    });

  it('refuses the key past its minute with 429 and Retry-After, from whatever address, and leaves other keys theirs', async () => {
    for (let i = 0; i < PER_KEY; i++) {
      const minted = await mint(stack.apiKey, `signup-${i}`, `198.51.100.${i + 1}`);
      expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    }
    const refused = await mint(stack.apiKey, 'signup-flood', '203.0.113.77');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.message).toMatch(/This API key may make 3 requests a minute/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(PER_KEY));
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

    // Another account's key, from the very same address, still mints.
    const shop = await newTenant(stack, 'Other Key Shop');
    const made = await desk(`${stack.url}/api/v1/accounts/${shop.accountId}/api_keys`, shop.admin.access_token, {
      body: { environment: 'sandbox' },
    });
    const key = ApiKey.parse(made.body).key!;
    expect((await mint(key, 'their-customer', '203.0.113.77')).status).toBe(201);
  });
});
