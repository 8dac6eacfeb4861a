import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addSiteKey } from '../../bff/index.ts';
import { PAGE_PROBLEMS } from '../../widget/app/i18n/page-problems.ts';
import { request } from '../stack.ts';
import { useBrowserStack } from './browser-stack.ts';
import { axeViolations } from './widget-helpers.ts';

/**
 * The hosted chat's error page (issue 16): `/chat` that cannot open a chat says why, in the
 * browser's language, with the right status and the page's usual headers, over HTTP and in Chromium.
 */
describe('the hosted chat page at /chat when it cannot open a chat', () => {
  const harness = useBrowserStack();

  /** The page's headers that must not change with its status. */
  async function headersOf(query: string) {
    const response = await request(`${harness.stack.url}/chat${query}`);
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      csp: response.headers.get('content-security-policy'),
      referrer: response.headers.get('referrer-policy'),
      sniff: response.headers.get('x-content-type-options'),
    };
  }

  async function revokedKey(): Promise<string> {
    const [inbox] = await harness.stack.bffSql.query<{ id: string }>(
      'SELECT id FROM inboxes ORDER BY created_at LIMIT 1',
    );
    const { key } = await addSiteKey(harness.stack.bffSql, inbox!.id, 'sandbox', []);
    await harness.stack.bffSql.query('UPDATE site_keys SET revoked_at = now() WHERE key = $1', [key]);
    return key;
  }

  /**
   * Opens `/chat<query>` in a browser speaking `locale`; gives the page once its heading shows.
   * With `forAxe` the browser ignores the page's CSP so that axe's script can be added (the policy
   * itself is checked over HTTP above, and with it on in the first browser test).
   */
  async function open(query: string, options: { locale?: string; dark?: boolean; forAxe?: boolean } = {}) {
    const { page, problems } = await harness.freshPage({
      locale: options.locale ?? 'en-US',
      colorScheme: options.dark ? 'dark' : 'light',
      bypassCSP: options.forAxe ?? false,
    });
    await page.addInitScript(() => {
      const blocked: string[] = ((window as unknown as { __csp: string[] }).__csp = []);
      document.addEventListener('securitypolicyviolation', (event) =>
        blocked.push(`${event.effectiveDirective} ${event.blockedURI}`),
      );
    });
    const response = await page.goto(`${harness.stack.url}/chat${query}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const blocked = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
    return { page, status: response?.status(), problems, blocked };
  }

  it('answers 400 for a malformed site_key and 404 for an unknown or revoked one, with the same headers as the chat', async () => {
    const chat = await headersOf(`?site_key=${harness.stack.siteKey}`);
    expect(chat.status).toBe(200);
    const cases: [string, number][] = [
      ['?site_key=not-a-key', 400],
      ['?site_key=pk_test_short', 400],
      ['?site_key=a&site_key=b', 400],
      ['?site_key=pk_test_AAAAAAAAAAAAAAAAAAAAAAAA', 404],
      [`?site_key=${await revokedKey()}`, 404],
    ];
    for (const [query, status] of cases) {
      const problem = await headersOf(query);
      expect(problem, query).toEqual({ ...chat, status });
    }
    // Without a site_key the page is still the chat: an app or a framing page sends the key by message.
    expect((await headersOf('')).status).toBe(200);
    const unknownLive = await request(`${harness.stack.url}/chat?site_key=pk_live_AAAAAAAAAAAAAAAAAAAAAAAA`);
    expect(unknownLive.status).toBe(404);
    expect(unknownLive.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const body = String(unknownLive.body);
    expect(body).toContain('<meta name="parley-problem" content="unknown_site_key">');
    expect(body).toContain('<script type="module" src="widget/chat.js"></script>');
  });

  it('a bare /chat says the link is incomplete, with a line for the site owner, and passes axe', async () => {
    const { page, status, problems, blocked } = await open('');
    expect(status).toBe(200);
    // Drawn under the page's own policy, with nothing blocked.
    expect(await blocked()).toEqual([]);
    const text = PAGE_PROBLEMS.en;
    expect(await page.getByRole('main').getByRole('heading', { level: 1, name: text.title }).isVisible()).toBe(true);
    expect(await page.getByText(text.incomplete).isVisible()).toBe(true);
    expect(await page.getByText(text.forOwner).textContent()).toContain('No site_key in the address');
    expect(await page.title()).toBe(text.title);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    // No chat was started: there is no text box.
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(problems).toEqual([]);
    expect(await axeViolations((await open('', { forAxe: true })).page)).toEqual([]);
  });

  it('an unknown or revoked site_key says the chat is no longer available, in the browser’s language', async () => {
    const { page, status } = await open('?site_key=pk_test_AAAAAAAAAAAAAAAAAAAAAAAA', {
      locale: 'de-DE',
      forAxe: true,
    });
    expect(status).toBe(404);
    const text = PAGE_PROBLEMS.de;
    expect(await page.getByRole('heading', { level: 1, name: text.title }).isVisible()).toBe(true);
    expect(await page.getByText(text.unavailable).isVisible()).toBe(true);
    expect(await page.getByText(text.forOwner).textContent()).toContain('unknown or was revoked');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await axeViolations(page)).toEqual([]);

    const revoked = await open(`?site_key=${await revokedKey()}`, { locale: 'ja' });
    expect(revoked.status).toBe(404);
    expect(await revoked.page.getByRole('heading', { level: 1, name: PAGE_PROBLEMS.ja.title }).isVisible()).toBe(true);
  });

  it('a malformed site_key says the link is incomplete, right to left in Arabic, in the dark, and passes axe', async () => {
    const { page: opened, status } = await open('?site_key=pk_oops', { locale: 'ar', dark: true, forAxe: true });
    expect(status).toBe(400);
    const text = PAGE_PROBLEMS.ar;
    expect(await opened.getByRole('heading', { level: 1, name: text.title }).isVisible()).toBe(true);
    expect(await opened.getByText(text.incomplete).isVisible()).toBe(true);
    expect(await opened.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'ar',
      'rtl',
    ]);
    expect(await opened.getByText(text.forOwner).textContent()).toContain('is not a site key');
    expect(await axeViolations(opened)).toEqual([]);
  });
});
