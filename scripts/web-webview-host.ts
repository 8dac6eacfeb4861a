import type { Page } from 'playwright-core';

/**
 * The engine half of scripts/web-webview.tsx, done by Chromium through Playwright as a native
 * WebView does it through WKWebView or Android's WebView:
 * - `__webViewPrepare(name, script)`: runs `script` at document start in the frame of that name,
 *   with `window.ReactNativeWebView.postMessage` (WKUserScript at document start);
 * - a page's `ReactNativeWebView.postMessage(data)` reaches the WebView's `onMessage` with the
 *   frame's own URL, which the page cannot forge (WKScriptMessageHandler);
 * - `__webViewInject(name, script)`: runs `script` in that frame now (evaluateJavaScript).
 * Like the native ones, these scripts are not the page's own, so its content security policy
 * does not govern them.
 */
export async function hostWebViews(page: Page): Promise<void> {
  await page.exposeBinding('__webViewPrepare', async (_source, name: string, script: string) => {
    await page.addInitScript({
      content: `if (window.name === ${JSON.stringify(name)}) {
  window.ReactNativeWebView = { postMessage: (data) => window.__webViewPost(String(data)) };
  ${script}
}`,
    });
  });
  await page.exposeBinding('__webViewPost', async ({ frame }, data: string) => {
    await page
      .mainFrame()
      .evaluate(
        ([name, url, text]) =>
          (
            window as unknown as { __webViewMessages?: Record<string, (url: string, data: string) => void> }
          ).__webViewMessages?.[name]?.(url, text),
        [frame.name(), frame.url(), data] as const,
      );
  });
  await page.exposeBinding('__webViewInject', async (_source, name: string, script: string) => {
    await page
      .frames()
      .find((frame) => frame.name() === name)
      ?.evaluate(script);
  });
}
