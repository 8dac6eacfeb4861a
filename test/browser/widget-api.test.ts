import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { request } from '../stack.ts';
import { useBrowserStack } from './browser-stack.ts';
import {
  SHORT,
  currentConversation,
  hostPage,
  launcher,
  messageBox,
  openChat,
  panel,
  personSays,
  send,
  stored,
  waitForAnswer,
  waitReady,
} from './widget-helpers.ts';

/**
 * The loader's public JavaScript API in Chromium: `window.Parley` as a command queue that is safe
 * before widget.js has run, `Parley.ready`, `Parley('on', …)` and its unsubscribe, the events, the
 * script tag's data attributes, and the commands at run time.
 */

/** The snippet sites paste before the script tag, so that calls made early are queued. */
const SNIPPET = 'window.Parley=window.Parley||function(){(Parley.q=Parley.q||[]).push(arguments)};';

interface Recorded {
  event: string;
  payload: unknown;
}

type Listener = (payload: unknown) => void;
interface PageWindow {
  Parley: ((command: string, ...args: unknown[]) => unknown) & { ready: Promise<void>; q?: unknown[] };
  recorded: Recorded[];
  unsubscribers: Record<string, () => void>;
}

/** Listens to every event from the page, keeping what arrives in `window.recorded`. */
async function recordEvents(
  page: Page,
  events: readonly string[] = ['ready', 'open', 'close', 'message', 'unread', 'error'],
): Promise<void> {
  await page.evaluate((names) => {
    const w = window as unknown as PageWindow;
    w.recorded ??= [];
    w.unsubscribers ??= {};
    for (const name of names) {
      const listener: Listener = (payload) => w.recorded.push({ event: name, payload });
      w.unsubscribers[name] = w.Parley('on', name, listener) as () => void;
    }
  }, events);
}

const recorded = (page: Page, event?: string): Promise<Recorded[]> =>
  page.evaluate(
    (name) =>
      ((window as unknown as PageWindow).recorded ?? []).filter((entry) => name === undefined || entry.event === name),
    event,
  );

describe('the widget API (window.Parley) in Chromium', () => {
  const harness = useBrowserStack({ pageServer: true });

  async function open(
    path: string,
    html: string,
    headers: Record<string, string> = {},
  ): Promise<{ page: Page; problems: string[] }> {
    const { page, problems } = await harness.freshPage();
    await page.goto(harness.pages.set(path, html, headers));
    return { page, problems };
  }

  it('runs commands queued by the snippet before widget.js has run, and Parley.ready resolves', async () => {
    const { page, problems } = await open(
      '/queued',
      hostPage(harness.stack, {}, `${SNIPPET} window.earlyType = typeof window.Parley; Parley('open');`),
    );

    // The queued 'open' opens the chat without a click.
    await waitReady(page);
    await expect.poll(() => panel(page).isVisible(), SHORT).toBe(true);
    expect(await launcher(page).getAttribute('aria-expanded')).toBe('true');

    const state = await page.evaluate(async () => {
      const w = window as unknown as PageWindow & { earlyType: string };
      const resolved = await Promise.race([
        w.Parley.ready.then(() => 'resolved'),
        new Promise((resolve) => setTimeout(() => resolve('pending'), 5_000)),
      ]);
      return {
        earlyType: w.earlyType,
        nowType: typeof w.Parley,
        readyIsPromise: w.Parley.ready instanceof Promise,
        resolved,
      };
    });
    expect(state).toEqual({ earlyType: 'function', nowType: 'function', readyIsPromise: true, resolved: 'resolved' });
    expect(problems).toEqual([]);
  });

  it('keeps event listeners queued by the snippet before widget.js has run', async () => {
    // A site that listens early: `Parley('on', …)` goes into the same queue as the commands.
    const early = `${SNIPPET}
      window.early = [];
      Parley('on', 'ready', function () { early.push('ready'); });
      Parley('on', 'open', function () { early.push('open'); });
      Parley('open');`;
    const { page, problems } = await open('/queued-listeners', hostPage(harness.stack, {}, early));
    await waitReady(page);
    await recordEvents(page, ['error']);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { early: string[] }).early), SHORT)
      .toEqual(expect.arrayContaining(['ready', 'open']));
    // Replaying the queue must not report the early `on` calls as unknown commands.
    expect(await recorded(page, 'error')).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("draws a change of the chat at once, in one render from the fresh state: the panel is there as soon as Parley('open') returns, and gone after close", async () => {
    const { page, problems } = await open('/one-render', hostPage(harness.stack));
    await launcher(page).waitFor(SHORT);
    await page.evaluate(() => (window as unknown as PageWindow).Parley.ready);
    // Within one task: no second, later render may be what shows the change.
    const shown = await page.evaluate(() => {
      const root = document.querySelector('[data-parley]')!.shadowRoot!;
      const w = window as unknown as PageWindow;
      w.Parley('open');
      const afterOpen = root.querySelector('section.panel') !== null;
      w.Parley('close');
      const afterClose = root.querySelector('section.panel') !== null;
      return { afterOpen, afterClose };
    });
    expect(shown).toEqual({ afterOpen: true, afterClose: false });
    expect(problems).toEqual([]);
  });

  it("Parley('on') returns an unsubscribe function that works, and open/close fire", async () => {
    const { page, problems } = await open('/on', hostPage(harness.stack));
    await launcher(page).waitFor(SHORT);
    await page.evaluate(() => (window as unknown as PageWindow).Parley.ready);
    await recordEvents(page, ['open', 'close']);

    await page.evaluate(() => (window as unknown as PageWindow).Parley('open'));
    await waitReady(page);
    await page.evaluate(() => (window as unknown as PageWindow).Parley('close'));
    await expect.poll(() => panel(page).count(), SHORT).toBe(0);
    expect((await recorded(page)).map((entry) => entry.event)).toEqual(['open', 'close']);

    // Unsubscribed from 'open': a second open is not heard, while 'close' still is.
    const result = await page.evaluate(() => {
      const w = window as unknown as PageWindow;
      return typeof w.unsubscribers['open'] === 'function'
        ? (w.unsubscribers['open']!(), 'unsubscribed')
        : 'no function';
    });
    expect(result).toBe('unsubscribed');
    await page.evaluate(() => (window as unknown as PageWindow).Parley('toggle'));
    await waitReady(page);
    await page.evaluate(() => (window as unknown as PageWindow).Parley('toggle'));
    await expect.poll(() => panel(page).count(), SHORT).toBe(0);
    expect((await recorded(page)).map((entry) => entry.event)).toEqual(['open', 'close', 'close']);

    // Clicking the launcher fires the same events.
    await page.evaluate(() => (window as unknown as PageWindow).unsubscribers['close']!());
    await recordEvents(page, ['open']);
    await launcher(page).click();
    await waitReady(page);
    expect((await recorded(page)).map((entry) => entry.event)).toEqual(['open', 'close', 'close', 'open']);
    expect(problems).toEqual([]);
  });

  it("fires 'message' for answers and 'unread' (with the launcher's badge) for answers that arrive while the chat is closed", async () => {
    const { page, problems } = await open('/events', hostPage(harness.stack));
    await launcher(page).waitFor(SHORT);
    await recordEvents(page);
    await page.evaluate(() => (window as unknown as PageWindow).Parley('open'));
    await waitReady(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    const conversationId = await currentConversation(page, harness.stack.siteKey);

    await expect.poll(async () => (await recorded(page, 'message')).length, SHORT).toBe(1);
    const [message] = await recorded(page, 'message');
    expect(message!.payload).toEqual({
      conversation_id: conversationId,
      author: 'ai',
      text: expect.stringContaining('within 30 days of delivery'),
    });

    // A person answers while the chat is closed: 'message' and 'unread' fire, the badge shows it.
    await send(page, 'I want to talk to a person');
    await page.getByText('connected with a person').waitFor(SHORT);
    await page.evaluate(() => (window as unknown as PageWindow).Parley('close'));
    await expect.poll(() => panel(page).count(), SHORT).toBe(0);
    await personSays(harness.stack, conversationId, 'Hi, Sam here. How can I help?');

    await expect
      .poll(async () => (await recorded(page, 'unread')).map((entry) => entry.payload).at(-1), SHORT)
      .toEqual({ count: 1 });
    expect((await recorded(page, 'message')).map((entry) => entry.payload)).toContainEqual({
      conversation_id: conversationId,
      author: 'human',
      text: 'Hi, Sam here. How can I help?',
    });
    const badge = page.locator('[data-parley] .b');
    await expect.poll(() => badge.isVisible(), SHORT).toBe(true);
    expect(await badge.textContent()).toBe('1');
    expect(await launcher(page).getAttribute('aria-label')).toBe('Open chat, 1 unread');

    // Opening reads it: the count goes back to 0 and the badge hides.
    await launcher(page).click();
    await waitReady(page);
    await expect
      .poll(async () => (await recorded(page, 'unread')).map((entry) => entry.payload).at(-1), SHORT)
      .toEqual({ count: 0 });
    await expect.poll(() => badge.isVisible(), SHORT).toBe(false);
    // System notices (the handover) are not 'message' events.
    expect(
      (await recorded(page, 'message')).every((entry) => (entry.payload as { author: string }).author !== 'system'),
    ).toBe(true);
    expect(await recorded(page, 'error')).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("an unknown command emits 'error' with code invalid_request and does not throw, before and after the app has loaded", async () => {
    // Before widget.js: the bad call waits in the queue with the others.
    const { page, problems } = await open('/unknown', hostPage(harness.stack, {}, `${SNIPPET} Parley('fly', 1, 2);`));
    await launcher(page).waitFor(SHORT);
    await recordEvents(page, ['error', 'open']);

    const outcomes = await page.evaluate(() => {
      const w = window as unknown as PageWindow;
      const results: string[] = [];
      for (const call of [
        ['explode'],
        [42],
        [''],
        ['toString'],
        ['on', 'no-such-event', () => undefined],
      ] as unknown[][]) {
        try {
          const value = w.Parley(call[0] as string, ...call.slice(1));
          results.push(typeof value);
        } catch (error) {
          results.push(`threw ${String(error)}`);
        }
      }
      return results;
    });
    // Commands give back nothing; `on` with an unknown event still gives a (harmless) function.
    expect(outcomes).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'function']);
    await expect.poll(async () => (await recorded(page, 'error')).length, SHORT).toBeGreaterThanOrEqual(4);
    for (const entry of await recorded(page, 'error'))
      expect(entry.payload).toEqual({ code: 'invalid_request', message: expect.any(String) });

    // After the app has loaded, unknown commands and bad arguments are reported the same way.
    await page.evaluate(() => (window as unknown as PageWindow).Parley.ready);
    await page.evaluate(() => {
      (window as unknown as PageWindow).recorded = [];
    });
    await page.evaluate(() => {
      const w = window as unknown as PageWindow;
      w.Parley('explode');
      w.Parley('setLocale', 'xx');
      w.Parley('setTheme', { color: 'red' });
      w.Parley('setTheme', { position: 'top' });
      w.Parley('identify', { token: 42 });
    });
    await expect.poll(async () => (await recorded(page, 'error')).length, SHORT).toBe(5);
    for (const entry of await recorded(page, 'error'))
      expect(entry.payload).toEqual({ code: 'invalid_request', message: expect.any(String) });

    // Still working after all that.
    await page.evaluate(() => (window as unknown as PageWindow).Parley('open'));
    await waitReady(page);
    expect((await recorded(page, 'open')).length).toBe(1);
    expect(problems).toEqual([]);
  });

  it('honours data-locale, data-color and data-position', async () => {
    const { page, problems } = await open(
      '/attributes',
      hostPage(harness.stack, { 'data-locale': 'fr', 'data-color': '#8a1c12', 'data-position': 'left' }),
    );
    const button = launcher(page);
    await button.waitFor(SHORT);
    const viewport = page.viewportSize()!;
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeLessThan(viewport.width / 2);
    expect(box.y).toBeGreaterThan(viewport.height / 2);
    expect(await button.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(138, 28, 18)');

    await page.evaluate(() => (window as unknown as PageWindow).Parley.ready);
    await expect.poll(() => button.getAttribute('aria-label'), SHORT).toBe('Ouvrir le chat');
    await button.click();
    await waitReady(page, page.getByRole('textbox', { name: 'Message' }));
    await expect.poll(() => page.getByRole('button', { name: 'Envoyer' }).count(), SHORT).toBe(1);
    expect(await page.locator('[data-parley] .root').getAttribute('lang')).toBe('fr');

    const dialog = panel(page);
    const panelBox = (await dialog.boundingBox())!;
    expect(panelBox.x).toBeLessThan(viewport.width / 2);
    expect(
      await page.locator('[data-parley] .header').evaluate((element) => getComputedStyle(element).backgroundColor),
    ).toBe('rgb(138, 28, 18)');
    // Text on the site's colour is chosen for contrast: white on this dark red.
    expect(await page.locator('[data-parley] .header').evaluate((element) => getComputedStyle(element).color)).toBe(
      'rgb(255, 255, 255)',
    );
    expect(problems).toEqual([]);
  });

  it('honours data-mode', async () => {
    const { page, problems } = await open('/mode', hostPage(harness.stack, { 'data-mode': 'dark' }));
    await launcher(page).click();
    await waitReady(page);
    expect(await page.locator('[data-parley] .root').getAttribute('data-theme')).toBe('dark');
    expect(await panel(page).evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(21, 24, 29)');
    expect(problems).toEqual([]);
  });

  it('works on a page with a strict Content-Security-Policy (no inline styles or scripts allowed)', async () => {
    const bff = new URL(harness.stack.url);
    const csp = [
      "default-src 'none'",
      `script-src ${bff.origin}`,
      `connect-src ${bff.origin} ws://${bff.host}`,
      "style-src 'none'",
      "img-src 'none'",
      "font-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; ');
    const { page, problems } = await harness.freshPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await page.goto(harness.pages.set('/strict-csp', hostPage(harness.stack), { 'content-security-policy': csp }));
    // The policy is in force on this page: a <style> element does not apply.
    const styled = await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = 'body { color: rgb(1, 2, 3) }';
      document.head.append(style);
      const color = getComputedStyle(document.body).color;
      style.remove();
      return color;
    });
    expect(styled).not.toBe('rgb(1, 2, 3)');
    violations.length = 0;
    await openChat(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    // The adopted stylesheets apply: the panel is laid out and coloured as designed.
    expect(
      await page.locator('[data-parley] .header').evaluate((element) => getComputedStyle(element).backgroundColor),
    ).toBe('rgb(31, 58, 95)');
    expect(await panel(page).evaluate((element) => getComputedStyle(element).position)).toBe('fixed');
    // Answers come live over the WebSocket (connect-src allows it).
    expect(sockets.length).toBeGreaterThan(0);
    await launcher(page).click();
    await expect.poll(() => panel(page).count(), SHORT).toBe(0);
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('changes locale and theme at run time with setLocale and setTheme', async () => {
    const { page, problems } = await open('/runtime', hostPage(harness.stack));
    await launcher(page).waitFor(SHORT);
    await page.evaluate(() => (window as unknown as PageWindow).Parley('open'));
    await waitReady(page);
    const root = page.locator('[data-parley] .root');

    await page.evaluate(() => (window as unknown as PageWindow).Parley('setLocale', 'ja'));
    await expect
      .poll(() => page.locator('[data-parley] .composer button[type=submit]').textContent(), SHORT)
      .toBe('送信');
    expect(await root.getAttribute('lang')).toBe('ja');

    await page.evaluate(() =>
      (window as unknown as PageWindow).Parley('setTheme', { mode: 'dark', position: 'left', color: '#0b6e4f' }),
    );
    await expect.poll(() => root.getAttribute('data-theme'), SHORT).toBe('dark');
    expect(await root.evaluate((element) => element.classList.contains('left'))).toBe(true);
    expect(
      await page.locator('[data-parley] .header').evaluate((element) => getComputedStyle(element).backgroundColor),
    ).toBe('rgb(11, 110, 79)');
    const box = (await page.locator('[data-parley] .l').boundingBox())!;
    expect(box.x).toBeLessThan(page.viewportSize()!.width / 2);

    await page.evaluate(() => (window as unknown as PageWindow).Parley('setTheme', { mode: 'light' }));
    await expect.poll(() => root.getAttribute('data-theme'), SHORT).toBe('light');
    await page.evaluate(() => (window as unknown as PageWindow).Parley('setLocale', 'en'));
    await expect
      .poll(() => page.locator('[data-parley] .composer button[type=submit]').textContent(), SHORT)
      .toBe('Send');
    expect(problems).toEqual([]);
  });

  it("data-session-token runs the chat as the site's verified customer, and shutdown forgets the visitor", async () => {
    const issued = await request(`${harness.stack.url}/v1/widget-sessions`, {
      token: harness.stack.apiKey,
      body: { customer_ref: 'cus_api_test', name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(issued.status).toBe(201);
    const token = (issued.body as { token: string }).token;

    const { page, problems } = await open('/verified', hostPage(harness.stack, { 'data-session-token': token }));
    await openChat(page);
    await send(page, 'Do you ship abroad?');
    await waitForAnswer(page, 'Norway');
    const list = await request(`${harness.stack.url}/v1/widget/conversations`, { token });
    expect(list.status).toBe(200);
    const conversations = (list.body as { conversations: { id: string; last_message: { text: string } | null }[] })
      .conversations;
    expect(conversations.map((conversation) => conversation.id)).toContain(
      await currentConversation(page, harness.stack.siteKey),
    );

    // shutdown: the stored session and conversation are gone, and the chat starts over.
    await page.evaluate(() => (window as unknown as PageWindow).Parley('shutdown'));
    await expect
      .poll(() => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('parley:'))), SHORT)
      .toEqual([]);
    expect(await stored(page, harness.stack.siteKey, 'session')).toBeNull();
    await expect.poll(() => page.locator('[data-parley] .message').count(), SHORT).toBe(0);
    expect(await messageBox(page).count()).toBeLessThanOrEqual(1);
    expect(problems).toEqual([]);
  });
});
