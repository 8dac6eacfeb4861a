import { mkdir } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import type { BffDeps } from '../../bff/index.ts';
import { startStack, type TestStack } from '../stack.ts';
import { ARTIFACTS_DIR, launchChromium } from './chromium.ts';
import { freshPage, startPageServer, type OpenPage, type PageServer } from './widget-helpers.ts';

export interface BrowserStack {
  /** The BFF and its engine, with the shop (startStack). */
  readonly stack: TestStack;
  /** Chromium, shared by the block's tests. */
  readonly browser: Browser;
  /** The server of the tests' own host pages; there only with `{ pageServer: true }`. */
  readonly pages: PageServer;
  /** A fresh context and page (see `freshPage`) whose context is closed after the test. */
  freshPage(options?: BrowserContextOptions): Promise<OpenPage>;
}

/**
 * Registers the hooks that a describe block of browser tests shares: before all, the stack
 * and Chromium (and a page server, if asked for) start together and ARTIFACTS_DIR is made for
 * screenshots; after each test, the contexts of its `freshPage` calls close; after all, all stops.
 * Call it in the describe block; read `stack`, `browser` and `pages` only once the hooks have run
 * (in tests and later hooks), not when the block is collected.
 *
 * @example
 * const harness = useBrowserStack();
 * it('…', async () => {
 *   const { page } = await harness.freshPage();
 *   await page.goto(harness.stack.url);
 * });
 */
export function useBrowserStack(
  options: {
    pageServer?: boolean;
    /** Variables for the stack (made once the hooks run). */ env?: () => Promise<Record<string, string>>;
    /** What the stack's BFF is made with besides. */ bff?: Partial<BffDeps>;
  } = {},
): BrowserStack {
  let stack: TestStack | undefined;
  let browser: Browser | undefined;
  let pages: PageServer | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const stackReady = (options.env ? options.env() : Promise.resolve({})).then((env) =>
      startStack(undefined, env, options.bff),
    );
    [stack, browser, pages] = await Promise.all([
      stackReady,
      launchChromium(),
      options.pageServer ? startPageServer() : undefined,
    ]);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    await stack?.stop();
  });

  return {
    get stack() {
      return started(stack, 'the stack');
    },
    get browser() {
      return started(browser, 'Chromium');
    },
    get pages() {
      return started(pages, options.pageServer ? 'the page server' : 'the page server (ask with { pageServer: true })');
    },
    async freshPage(contextOptions = {}) {
      const opened = await freshPage(started(browser, 'Chromium'), contextOptions);
      contexts.push(opened.context);
      return opened;
    },
  };
}

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined)
    throw new Error(
      `${what} has not started: read it in a test or a later hook, not while the describe block is collected`,
    );
  return value;
}
