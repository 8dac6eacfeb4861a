import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page, Route } from 'playwright-core';
import { closeServer, request, type TestStack } from '../stack.ts';

/**
 * Shared pieces of the browser tests (most of all the widget's, widget-*.test.ts): pages of one's
 * own, the launcher and the panel, axe, and a person answering from the helpdesk through the engine.
 */

/** axe-core's minified build, injected with `page.addScriptTag({ path })`. */
export const AXE_PATH = join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js');

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Bounded waits, so a broken widget fails a test instead of hanging it. */
export const SHORT = { timeout: 10_000 } as const;

export interface OpenPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page. */
  problems: string[];
}

/** A fresh context (its own localStorage) and a page in it that collects uncaught errors. */
export async function freshPage(browser: Browser, options: BrowserContextOptions = {}): Promise<OpenPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  return { context, page, problems };
}

/**
 * Sends the context's requests that match `pattern` through a test's handler until the returned
 * stop() is called. A handler still busy when the page reloads or the context closes finds its
 * request already answered or gone: that is expected and ignored, where a bare `context.route`
 * would leave an unhandled rejection behind. Anything else a handler throws, stop() throws.
 */
export async function intercept(
  context: BrowserContext,
  pattern: string,
  handler: (route: Route) => Promise<void>,
): Promise<() => Promise<void>> {
  const failures: unknown[] = [];
  const guarded = async (route: Route): Promise<void> => {
    try {
      await handler(route);
    } catch (error) {
      if (!/already handled|has been closed|Target closed|disposed/i.test(String(error))) failures.push(error);
    }
  };
  await context.route(pattern, guarded);
  return async () => {
    await context.unroute(pattern, guarded);
    if (failures.length > 0) throw failures[0];
  };
}

/**
 * Lets the widget's sends (POST …/messages) reach the server, and holds each answer back until
 * `release` resolves: whatever the server pushes meanwhile overtakes the answer. Gives the undo.
 */
export function holdSends(context: BrowserContext, release: () => Promise<unknown>): Promise<() => Promise<void>> {
  return intercept(context, '**/v1/widget/conversations/*/messages', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const response = await route.fetch();
    await release();
    await route.fulfill({ response });
  });
}

/** Another page (tab) in the same context: same storage, same BroadcastChannel. */
export async function anotherTab(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, problems };
}

/** The launcher, found by its label (English, German, French and Spanish labels all say "chat"). */
export const launcher = (page: Page): Locator => page.getByRole('button', { name: /chat/i }).first();
/** The launcher whatever the language: the first button of the widget's host (Playwright's CSS pierces open shadow roots). */
export const anyLauncher = (page: Page): Locator => page.locator('[data-parley]').getByRole('button').first();
export const panel = (page: Page): Locator => page.locator('[data-parley] section.panel');
export const messageBox = (page: Page): Locator => page.getByRole('textbox', { name: 'Message' });
export const log = (page: Page): Locator => page.getByRole('log');

/** Waits until the message box can take text (the chat has connected). */
export async function waitReady(page: Page, box: Locator = messageBox(page)): Promise<void> {
  await box.waitFor(SHORT);
  await expect.poll(() => box.isEnabled(), SHORT).toBe(true);
  // The panel opens with a scale and fade: measured before it ends, it is a pixel short.
  await animationsSettled(page);
}

/**
 * Resolves once what fades, scales or slides in (the panel, the preview card) has arrived.
 * `document.getAnimations()` leaves out shadow roots' own, so each is asked.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(() => {
    const roots = [
      document,
      ...[...document.querySelectorAll('*')].flatMap((element) => (element.shadowRoot ? [element.shadowRoot] : [])),
    ];
    const ending = roots
      .flatMap((root) => root.getAnimations())
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    return Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** Clicks the launcher and waits until the chat is ready. */
export async function openChat(page: Page): Promise<void> {
  await launcher(page).click();
  await waitReady(page);
}

/** Types a message and presses Enter. */
export async function send(page: Page, text: string, box: Locator = messageBox(page)): Promise<void> {
  await box.fill(text);
  await box.press('Enter');
}

/** The texts of the messages shown (customers', answers', people's), in order; notices apart. */
export const shownTexts = (page: Page): Promise<string[]> => log(page).locator('.message .text').allTextContents();

/** Waits until the last answer (AI or person) contains `text`. */
export async function waitForAnswer(page: Page, text: string): Promise<void> {
  await log(page).locator('.message.theirs .text', { hasText: text }).first().waitFor(SHORT);
}

/** Asks a question the demo answers, then says thanks, which the AI takes as the end: the conversation closes. */
export async function endAfterThanks(page: Page): Promise<void> {
  await send(page, 'How do I return an item?');
  await waitForAnswer(page, 'within 30 days');
  await send(page, 'thanks');
  await page.getByText('This conversation has ended.').waitFor(SHORT);
}

/** What has focus, looking into the widget's shadow root: a short description. */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let element: Element | null = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    if (!element) return 'nothing';
    const label = element.getAttribute('aria-label');
    return `${element.tagName.toLowerCase()}${label ? `[${label}]` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ').join('.')}` : ''}`;
  });
}

/**
 * Clicks `control` (inside the widget) and reports what had focus at the moment an element matching
 * `selector` was added to the widget: 'it' when that element itself, else a short description. A
 * poll afterwards cannot tell focus moved in the same commit from focus moved a frame later, while
 * it rested on the control just removed.
 */
export function focusWhenShown(control: Locator, selector: string): Promise<string> {
  return control.evaluate(
    (element: HTMLElement, wanted: string) =>
      new Promise<string>((resolve) => {
        const root = element.getRootNode() as ShadowRoot;
        new MutationObserver((_, observer) => {
          const shown = root.querySelector(wanted);
          if (!shown) return;
          observer.disconnect();
          resolve(
            shown === root.activeElement
              ? 'it'
              : (root.activeElement?.outerHTML.slice(0, 80) ?? 'nothing in the widget'),
          );
        }).observe(root, { childList: true, subtree: true });
        element.click();
      }),
    selector,
  );
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown; summary: string | undefined }[];
}

/**
 * Runs axe-core over the whole document (it looks into open shadow roots) with the WCAG 2.x A/AA
 * rules, once what fades or slides in has arrived: axe reads a text half faded in as too light.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await animationsSettled(page);
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async (tags) => {
    interface AxeResult {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown; failureSummary?: string }[];
      }[];
    }
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<AxeResult> } }).axe;
    const result = await axe.run(document, { runOnly: tags });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target, summary: node.failureSummary })),
    }));
  }, AXE_TAGS);
}

/** What the widget stored on this device for the stack's site key. */
export function stored(page: Page, siteKey: string, name: string): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), `parley:${siteKey}:${name}`);
}

/** The session token the widget keeps in localStorage. */
export async function storedToken(page: Page, siteKey: string): Promise<string> {
  const session = await stored(page, siteKey, 'session');
  expect(session).toBeTruthy();
  return (JSON.parse(session!) as { token: string }).token;
}

export interface ServerMessage {
  id: number;
  author: string;
  text: string;
  message_id: string | null;
  status: string;
}

/** Every message of a conversation as the BFF has it, read with the widget's own token. */
export async function serverMessages(
  stack: TestStack,
  token: string,
  conversationId: string,
): Promise<ServerMessage[]> {
  const messages: ServerMessage[] = [];
  let after = 0;
  for (;;) {
    const page = await request(`${stack.url}/v1/widget/conversations/${conversationId}/messages?after=${after}`, {
      token,
    });
    expect(page.status).toBe(200);
    const batch = (page.body as { messages: ServerMessage[] }).messages;
    messages.push(...batch);
    if (batch.length < 100) return messages;
    after = batch.at(-1)!.id;
  }
}

/** The engine's id (`cnv_…`) of the BFF's conversation. */
export async function engineConversationId(stack: TestStack, conversationId: string): Promise<string> {
  let id: string | null | undefined;
  await expect
    .poll(async () => {
      const rows = await stack.bffSql.query<{ engine_conversation_id: string | null }>(
        'SELECT engine_conversation_id FROM conversations WHERE uuid = $1',
        [conversationId],
      );
      id = rows[0]?.engine_conversation_id;
      return id;
    }, SHORT)
    .toBeTruthy();
  return id!;
}

/** Calls the engine as the helpdesk would, with the stack's API key. */
export async function engineCall(stack: TestStack, path: string, body: unknown): Promise<void> {
  const answer = await request(`${stack.engineUrl}${path}`, { token: stack.apiKey, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  // The BFF hears of it from the engine's feed; read it now rather than waiting for the next poll.
  await stack.bff.feed.catchUp();
}

/** A person from the team answers in a conversation that was handed over. */
export async function personSays(
  stack: TestStack,
  conversationId: string,
  text: string,
  authorName = 'Sam',
): Promise<void> {
  const engineId = await engineConversationId(stack, conversationId);
  await engineCall(stack, `/v1/conversations/${engineId}/human-messages`, { text, author_name: authorName });
}

/** The conversation the widget has open, as it stored it. */
export async function currentConversation(page: Page, siteKey: string): Promise<string> {
  let id: string | null = null;
  await expect
    .poll(async () => {
      id = await stored(page, siteKey, 'conversation');
      return id;
    }, SHORT)
    .toBeTruthy();
  return id!;
}

export interface PageServer {
  /** `http://127.0.0.1:<port>`: a page origin of its own (the widget comes from the BFF, another origin). */
  origin: string;
  /** Serves `html` at `path` from now on (with extra response headers, such as a CSP); gives its URL. */
  set(path: string, html: string, headers?: Record<string, string>): string;
  close(): Promise<void>;
}

/**
 * A tiny web server for host pages of the tests' own making (a real server on 127.0.0.1 rather
 * than `page.route`, so the browser's local-network checks let the page's WebSocket reach the BFF).
 */
export async function startPageServer(): Promise<PageServer> {
  const pages = new Map<string, { html: string; headers: Record<string, string> }>();
  const server: Server = createServer((req, res) => {
    const page = pages.get((req.url ?? '/').split('?')[0] ?? '/');
    if (req.method === 'GET' && page !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...page.headers });
      res.end(page.html);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    set(path, html, headers = {}) {
      pages.set(path, { html, headers });
      return origin + path;
    },
    close: () => closeServer(server),
  };
}

/** A plain host page that embeds the widget with the given script attributes, after an optional inline script. */
export function hostPage(
  stack: TestStack,
  attributes: Record<string, string> = {},
  inlineScript = '',
  head = '',
): string {
  const attrs = Object.entries({ 'data-site-key': stack.siteKey, ...attributes })
    .map(([name, value]) => ` ${name}="${value.replace(/"/g, '&quot;')}"`)
    .join('');
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>A shop</title>${head}</head>
  <body>
    <main><h1>A shop</h1><p>Questions? Use the chat in the corner.</p></main>
    ${inlineScript ? `<script>${inlineScript}</script>` : ''}
    <script src="${stack.url}/widget.js"${attrs} async></script>
  </body>
</html>`;
}
