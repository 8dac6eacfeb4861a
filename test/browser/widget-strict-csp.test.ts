import { readFile } from 'node:fs/promises';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserStack } from './browser-stack.ts';
import { hostPage, openChat, send, waitForAnswer } from './widget-helpers.ts';

/**
 * The widget under a strict Content-Security-Policy (issue 35): scripts only by nonce, no
 * `unsafe-inline`, no `unsafe-eval`, no style source at all. The nonce goes on the loader's script tag
 * (or through `loadParley({ nonce })`); the app and its chunks are imported by it and need none of their own.
 */
const NONCE = 'cGFybGV5LWNzcC10ZXN0';

interface PageWindow {
  violations: string[];
}

describe('the widget on a page with a strict, nonce-based CSP, in Chromium', () => {
  const harness = useBrowserStack({ pageServer: true });
  let esmEntry: string;

  beforeAll(async () => {
    const source = await readFile(new URL('../../widget/esm/index.ts', import.meta.url), 'utf8');
    esmEntry = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    }).outputText;
  });

  const policy = () => {
    const bff = new URL(harness.stack.url);
    return [
      "default-src 'none'",
      `script-src 'nonce-${NONCE}'`,
      `connect-src ${bff.origin} ws://${bff.host}`,
      "style-src 'none'",
      "img-src 'none'",
      "font-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "object-src 'none'",
    ].join('; ');
  };

  /** A fresh page that records every CSP violation (the recorder comes from the browser, not the page, so the policy lets it run). */
  async function strictPage(path: string, html: string): Promise<{ page: Page; problems: string[] }> {
    const { page, problems } = await harness.freshPage();
    await page.addInitScript(() => {
      const w = window as unknown as PageWindow;
      w.violations = [];
      document.addEventListener(
        'securitypolicyviolation',
        (event) => w.violations.push(`${event.effectiveDirective} ${event.blockedURI}`),
        true,
      );
    });
    await page.goto(harness.pages.set(path, html, { 'content-security-policy': policy() }));
    return { page, problems };
  }

  const violations = (page: Page) => page.evaluate(() => (window as unknown as PageWindow).violations);

  /** Chats, then checks that nothing was blocked, and that the policy was in force all along (a <style> is blocked and reported). */
  async function chatsWithoutViolations(page: Page, problems: string[]): Promise<void> {
    await openChat(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    expect(
      await page.locator('[data-parley] .header').evaluate((element) => getComputedStyle(element).backgroundColor),
    ).toBe('rgb(31, 58, 95)');
    expect(await violations(page)).toEqual([]);
    expect(problems).toEqual([]);

    const styled = await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = 'body { color: rgb(1, 2, 3) }';
      document.head.append(style);
      return getComputedStyle(document.body).color;
    });
    expect(styled).not.toBe('rgb(1, 2, 3)');
    await expect.poll(() => violations(page)).toEqual(['style-src-elem inline']);
  }

  it('runs from the script tag with the nonce: the chat answers and nothing is blocked', async () => {
    const { page, problems } = await strictPage('/csp-tag', hostPage(harness.stack, { nonce: NONCE }));
    await chatsWithoutViolations(page, problems);
  });

  it('runs from loadParley({ nonce }) in a bundled module: the chat answers and nothing is blocked', async () => {
    const options = JSON.stringify({ baseUrl: harness.stack.url, siteKey: harness.stack.siteKey, nonce: NONCE });
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>A shop</title></head>
<body><main><h1>A shop</h1></main>
<script type="module" nonce="${NONCE}">${esmEntry}
loadParley(${options});</script></body></html>`;
    const { page, problems } = await strictPage('/csp-esm', html);
    await chatsWithoutViolations(page, problems);
  });
});
