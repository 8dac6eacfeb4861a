import { describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { useBrowserStack } from './browser-stack.ts';
import { hostPage, launcher, log, send, SHORT } from './widget-helpers.ts';

/**
 * A returning visitor's cold first open (issue 34): the config, the list and the history come in
 * one request, `POST /v1/widget/start`, which the loader asks for before the app's code has come,
 * and which is a CORS simple request (a form, no Authorization header), so no preflight goes first.
 */
describe("the widget's start in Chromium", () => {
  const harness = useBrowserStack({ pageServer: true });

  it("opens a returning visitor's chat from one start request, asked by the loader before app.js and sent without a preflight", async () => {
    const { stack, pages } = harness;
    pages.set('/', hostPage(stack));
    const first = await harness.freshPage();
    await first.page.goto(`${pages.origin}/`);
    await launcher(first.page).click();
    await send(first.page, 'Do you ship abroad?');
    await log(first.page).locator('.message.theirs').first().waitFor({ timeout: 60_000 });
    const shown = await log(first.page).locator('.message').count();

    // The same visitor on a new visit: their storage, an empty HTTP cache.
    const again = await harness.freshPage({ storageState: await first.context.storageState() });
    const asked: Request[] = [];
    again.page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/')) asked.push(request);
    });
    await again.page.goto(`${pages.origin}/`);
    await launcher(again.page).click();
    await expect.poll(() => log(again.page).locator('.message').count(), SHORT).toBe(shown);

    const start = asked[0]!;
    expect(`${start.method()} ${new URL(start.url()).pathname}`).toBe('POST /v1/widget/start');
    // What makes it a simple request: a form's content type and no header of its own (the token is in the form).
    const headers = await start.allHeaders();
    expect(headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(headers['authorization']).toBeUndefined();
    expect(new URLSearchParams(start.postData() ?? '').get('token')).toMatch(/^wst_/);
    expect(start.url()).not.toContain('wst_');
    // Neither the config nor the list was asked apart.
    expect(asked.filter((request) => /\/v1\/widget\/config/.test(request.url()))).toEqual([]);
    // The loader asked for it before the app's code: its fetch started no later than app.js's.
    const started = await again.page.evaluate(() => {
      const entries = performance.getEntriesByType('resource');
      const at = (path: string) => entries.find((entry) => new URL(entry.name).pathname === path)?.startTime;
      return { start: at('/v1/widget/start'), app: at('/widget/app.js') };
    });
    expect(started.start).toBeLessThanOrEqual(started.app!);
    expect([...first.problems, ...again.problems]).toEqual([]);
  });
});
