import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/index.ts';
import { MemoryRollingLimiter } from '../../shared/server/index.ts';
import { DEMO_SITE_KEY, request, startStack, type TestStack } from '../../test/stack.ts';
import { addSiteKey } from '../index.ts';

/**
 * A widget refused by the site-key limit still shows the shop: the 429 carries the inbox's public
 * name and e-mail, and only those, for a valid key from one of its origins. A guessed key, a
 * revoked one or a live key from another site learns nothing.
 */
describe("the site-key limit's refusal", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // One request an hour from an address: the second is refused.
    stack = await startStack(undefined, {}, { siteKeyLimiter: new MemoryRollingLimiter(1, 3_600_000) });
    await stack.bffSql.query("UPDATE inboxes SET email = 'help@shop.example' WHERE id = $1", [stack.inboxId]);
    expect((await start(DEMO_SITE_KEY)).status).toBe(201);
  });
  afterAll(() => stack?.stop());

  const start = (siteKey: string, headers: Record<string, string> = {}) =>
    request(`${stack.url}/v1/widget-sessions`, { token: siteKey, body: {}, headers });

  it('names the inbox and its e-mail for a valid key, and nothing else of it', async () => {
    const [inbox] = await stack.bffSql.query<{ name: string }>('SELECT name FROM inboxes WHERE id = $1', [
      stack.inboxId,
    ]);
    const refused = await start(DEMO_SITE_KEY);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.details).toEqual({ inbox: { name: inbox!.name, email: 'help@shop.example' } });
    expect(refused.body.token).toBeUndefined();
  });

  it('tells nothing for a guessed key or a live key used from a site not its own', async () => {
    const guessed = await start(`pk_test_${randomToken(24)}`);
    expect(guessed.status).toBe(429);
    expect(guessed.body.error.details).toBeUndefined();
    const { key } = await addSiteKey(stack.bffSql, stack.inboxId, 'live', ['https://shop.example']);
    const elsewhere = await start(key, { origin: 'https://evil.example' });
    expect(elsewhere.status).toBe(429);
    expect(elsewhere.body.error.details).toBeUndefined();
    const home = await start(key, { origin: 'https://shop.example' });
    expect(home.body.error.details).toMatchObject({ inbox: { email: 'help@shop.example' } });
  });
});
