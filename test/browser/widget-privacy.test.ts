import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { useBrowserStack } from './browser-stack.ts';
import { SHORT, hostPage, launcher, log, openChat, send, shownTexts, waitForAnswer } from './widget-helpers.ts';

/**
 * Private by default (issue 35): a visitor who never opens the chat leaves nothing on the device and
 * sends the BFF nothing but the requests for the widget's own files; `Parley('consent', false)`
 * keeps everything in memory until `Parley('consent', true)`.
 */

/** The snippet sites paste before the script tag, so that calls made early are queued. */
const SNIPPET = 'window.Parley=window.Parley||function(){(Parley.q=Parley.q||[]).push(arguments)};';

interface PageWindow {
  Parley: ((command: string, ...args: unknown[]) => unknown) & { ready: Promise<void> };
}

interface Traces {
  localStorage: string[];
  sessionStorage: string[];
  indexedDB: string[];
  cookies: string[];
}

/** Everything a page can leave on the device: its storage, its databases, and the cookies of every origin. */
async function traces(page: Page): Promise<Traces> {
  const inPage = await page.evaluate(async () => ({
    localStorage: Object.keys(localStorage),
    sessionStorage: Object.keys(sessionStorage),
    indexedDB: (await indexedDB.databases()).map((database) => database.name ?? ''),
  }));
  const cookies = (await page.context().cookies()).map((cookie) => `${cookie.domain} ${cookie.name}`);
  return { ...inPage, cookies };
}

const NO_TRACES: Traces = { localStorage: [], sessionStorage: [], indexedDB: [], cookies: [] };

/** The requests of the context to `origin` (WebSockets included), by path. */
function recordRequests(context: BrowserContext, page: Page, origin: string): string[] {
  const paths: string[] = [];
  const note = (url: string) => {
    const parsed = new URL(url.replace(/^ws/, 'http'));
    if (parsed.origin === origin) paths.push(parsed.pathname);
  };
  context.on('request', (request) => note(request.url()));
  page.on('websocket', (socket) => note(socket.url()));
  return paths;
}

/** The widget's own files: the loader, the app and its chunks. */
const isWidgetFile = (path: string) => path === '/widget.js' || /^\/widget\/[\w.-]+\.js$/.test(path);

/** Waits until the app has loaded (the loader loads it when the browser is idle), and a moment more. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as PageWindow).Parley.ready);
  await page.waitForTimeout(1_500);
}

describe('the widget, private by default, in Chromium', () => {
  const harness = useBrowserStack({ pageServer: true });
  const storageKey = (name: string) => `parley:${harness.stack.siteKey}:${name}`;

  it('leaves no trace and asks the BFF only for its files until the visitor opens the chat; a returning visitor resumes', async () => {
    const { context, page, problems } = await harness.freshPage();
    const requests = recordRequests(context, page, new URL(harness.stack.url).origin);
    const url = harness.pages.set('/first-visit', hostPage(harness.stack));
    await page.goto(url);
    await settle(page);
    expect(requests.filter((path) => !isWidgetFile(path))).toEqual([]);
    expect(requests).toContain('/widget/app.js');
    expect(await traces(page)).toEqual(NO_TRACES);

    await openChat(page);
    expect(await page.evaluate(() => Object.keys(localStorage))).toContain(storageKey('session'));
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    expect(await page.evaluate(() => Object.keys(localStorage))).toContain(storageKey('conversation'));

    await page.reload();
    await openChat(page);
    await waitForAnswer(page, 'within 30 days');
    expect(await shownTexts(page)).toEqual(['How do I return an item?', expect.stringContaining('within 30 days')]);
    expect(problems).toEqual([]);
  });

  it("keeps everything in memory after Parley('consent', false), and stores it once consent is given", async () => {
    const { page, problems } = await harness.freshPage();
    const withheld = hostPage(harness.stack, {}, `${SNIPPET}Parley('consent', false);`);
    await page.goto(harness.pages.set('/consent-withheld', withheld));
    await openChat(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    expect(await traces(page)).toEqual(NO_TRACES);

    await page.evaluate(() => (window as unknown as PageWindow).Parley('consent', true));
    const stored = await page.evaluate(() => Object.keys(localStorage).sort());
    expect(stored).toEqual(expect.arrayContaining([storageKey('conversation'), storageKey('session')]));

    // Next time the page says consent was given before the chat loads: the visitor resumes.
    const given = hostPage(harness.stack, {}, `${SNIPPET}Parley('consent', true);`);
    await page.goto(harness.pages.set('/consent-given', given));
    await openChat(page);
    await waitForAnswer(page, 'within 30 days');
    expect(await shownTexts(page)).toHaveLength(2);
    expect(problems).toEqual([]);
  });

  it('removes what it stored when consent is withdrawn, and the chat goes on in memory', async () => {
    const { page, problems } = await harness.freshPage();
    await page.goto(harness.pages.set('/withdrawn', hostPage(harness.stack)));
    await openChat(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    expect((await traces(page)).localStorage).not.toEqual([]);

    await page.evaluate(() => (window as unknown as PageWindow).Parley('consent', false));
    expect(await traces(page)).toEqual(NO_TRACES);
    await send(page, 'Do you ship abroad?');
    await log(page).getByText('Norway').waitFor(SHORT);
    expect(await traces(page)).toEqual(NO_TRACES);
    await expect.poll(() => launcher(page).getAttribute('aria-expanded'), SHORT).toBe('true');
    expect(problems).toEqual([]);
  });
});
