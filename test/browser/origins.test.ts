import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request, Response } from 'playwright-core';
import { addSiteKey, createInbox } from '../../bff/index.ts';
import { useBrowserStack } from './browser-stack.ts';
import { ARTIFACTS_DIR } from './chromium.ts';

/**
 * A live site key in a real browser, across real origins: the BFF answers on http://localhost:<A>
 * (its stack URL says 127.0.0.1, a different origin), and a shop's page is served by a second
 * server on port B, reachable as http://localhost:<B> (the key's one listed origin) and as
 * http://127.0.0.1:<B> (not listed). Both pages embed the widget from the BFF with the same tag.
 */
describe('a live site key in Chromium, on a listed and on an unlisted origin', () => {
  // The shop's page comes from the page server on 127.0.0.1, reached as localhost too.
  const harness = useBrowserStack({ pageServer: true });
  let inboxId: string;
  let bffOrigin: string;
  let listedOrigin: string;
  let unlistedOrigin: string;

  beforeAll(async () => {
    bffOrigin = `http://localhost:${new URL(harness.stack.url).port}`;
    unlistedOrigin = harness.pages.origin;
    listedOrigin = `http://localhost:${new URL(unlistedOrigin).port}`;

    const inbox = await createInbox(harness.stack.bffSql, { name: 'Another shop', greeting: 'Ask us anything.' });
    inboxId = inbox.id;
    const { key } = await addSiteKey(harness.stack.bffSql, inbox.id, 'live', [listedOrigin]);
    const html = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Another shop</title></head>
  <body>
    <main><h1>Another shop</h1><p>Questions? Use the chat in the corner.</p></main>
    <script src="${bffOrigin}/widget.js" data-site-key="${key}" async></script>
  </body>
</html>`;
    harness.pages.set('/', html);
  });

  const conversationsOfInbox = async () =>
    (
      await harness.stack.bffSql.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM conversations WHERE inbox_id = $1',
        [inboxId],
      )
    )[0]!.count;

  const isSessionRequest = (request: Request) =>
    request.url() === `${bffOrigin}/v1/widget-sessions` && request.method() === 'POST';

  /** Opens the shop's page on `origin` and clicks the launcher. */
  async function openWidget(page: Page, origin: string): Promise<void> {
    await page.goto(`${origin}/`);
    expect(new URL(page.url()).origin).toBe(origin);
    await page.getByRole('button', { name: /chat/i }).click();
  }

  /**
   * The BFF's real answer to the page's session request, read off the wire in Chromium (a
   * pass-through tap: the request and its answer go on unchanged). Needed where the page itself may
   * not read the answer, so Playwright reports no response for it.
   */
  async function tapSessionAnswer(page: Page): Promise<{
    answer: Promise<{ origin: string | undefined; status: number; headers: Record<string, string>; body: string }>;
  }> {
    const cdp = await page.context().newCDPSession(page);
    const answer = new Promise<{
      origin: string | undefined;
      status: number;
      headers: Record<string, string>;
      body: string;
    }>((resolve) => {
      cdp.on('Fetch.requestPaused', (event) => {
        void (async () => {
          try {
            if (event.request.method === 'POST' && event.responseStatusCode !== undefined) {
              const { body, base64Encoded } = await cdp.send('Fetch.getResponseBody', { requestId: event.requestId });
              resolve({
                origin: Object.entries(event.request.headers).find(([name]) => name.toLowerCase() === 'origin')?.[1],
                status: event.responseStatusCode,
                headers: Object.fromEntries(
                  (event.responseHeaders ?? []).map((header) => [header.name.toLowerCase(), header.value]),
                ),
                body: base64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body,
              });
            }
          } finally {
            await cdp.send('Fetch.continueRequest', { requestId: event.requestId });
          }
        })();
      });
    });
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/v1/widget-sessions', requestStage: 'Response' }] });
    return { answer };
  }

  it('gives the page on the listed origin a working widget that answers from the knowledge base', async () => {
    const { page, problems } = await harness.freshPage();
    const sessionResponse = page.waitForResponse((response: Response) => isSessionRequest(response.request()));
    await openWidget(page, listedOrigin);
    const session = await sessionResponse;
    expect(session.status()).toBe(201);
    expect(await session.request().headerValue('origin')).toBe(listedOrigin);
    expect(await session.headerValue('access-control-allow-origin')).toBe(listedOrigin);

    const box = page.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill('How do I return an item?');
    await box.press('Enter');
    const log = page.getByRole('log');
    await log.getByText('within 30 days of delivery').waitFor();
    expect(await log.locator('.text').allTextContents()).toEqual([
      'How do I return an item?',
      expect.stringContaining('within 30 days of delivery'),
    ]);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await conversationsOfInbox()).toBe(1);

    await page.screenshot({ path: `${ARTIFACTS_DIR}/origins-listed.png` });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('refuses the page on an unlisted origin: 403 origin_not_allowed that the page may not even read, an alert in the widget, and no conversation', async () => {
    const before = await conversationsOfInbox();
    const { page, problems } = await harness.freshPage();
    const { answer } = await tapSessionAnswer(page);
    const failed = page.waitForEvent('requestfailed', isSessionRequest);
    await openWidget(page, unlistedOrigin);

    const session = await answer;
    expect(session.status).toBe(403);
    expect(JSON.parse(session.body).error.code).toBe('origin_not_allowed');
    // No Access-Control-Allow-Origin: the browser keeps the refusal from the refused page.
    expect(session.headers['access-control-allow-origin']).toBeUndefined();
    expect(session.origin).toBe(unlistedOrigin);
    expect((await failed).failure()?.errorText).toBeTruthy();

    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).not.toBe('');
    expect(await conversationsOfInbox()).toBe(before);

    await page.screenshot({ path: `${ARTIFACTS_DIR}/origins-unlisted.png` });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
