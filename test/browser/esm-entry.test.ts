import { readFile } from 'node:fs/promises';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowserStack } from './browser-stack.ts';

/** The typed ESM entry (widget/esm/index.ts), as a bundler would ship it: transpiled, on a page of its own. */
describe('the ESM entry for bundlers', () => {
  const harness = useBrowserStack();
  let entry: string;

  beforeAll(async () => {
    const source = await readFile(new URL('../../widget/esm/index.ts', import.meta.url), 'utf8');
    // Its imports are types only, so the transpiled module stands alone.
    entry = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    }).outputText;
    expect(entry).not.toMatch(/^import /m);
  });

  it('adds the script tag once, queues commands until the loader runs, and gives working listeners', async () => {
    const page = await harness.browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${harness.stack.url}/openapi.json`);
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1></body></html>',
    );
    await page.addScriptTag({
      type: 'module',
      content: `${entry}
        const seen = (window.seen = []);
        const parley = loadParley({ baseUrl: ${JSON.stringify(harness.stack.url)}, siteKey: ${JSON.stringify(harness.stack.siteKey)}, locale: 'de' });
        const again = loadParley({ baseUrl: ${JSON.stringify(harness.stack.url)} });
        const stop = parley.on('open', () => seen.push('open'));
        parley.on('close', () => seen.push('close'));
        parley.command('open');
        window.parley = parley;
        window.stopOpen = stop;
        window.tags = document.querySelectorAll('script[src$="/widget.js"]').length;
        void again;`,
    });
    await page.waitForFunction(() => (window as { parley?: { ready: Promise<void> } }).parley !== undefined);
    await page.evaluate(() => (window as unknown as { parley: { ready: Promise<void> } }).parley.ready);
    expect(await page.evaluate(() => (window as unknown as { tags: number }).tags)).toBe(1);
    // The command queued before the loader ran opened the chat, in the locale asked for.
    await page.getByRole('textbox', { name: 'Nachricht' }).waitFor();
    await expect.poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['open']);
    await page.evaluate(() => {
      const w = window as unknown as { stopOpen: () => void; parley: { command: (name: string) => void } };
      w.stopOpen();
      w.parley.command('close');
      w.parley.command('open');
    });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen))
      .toEqual(['open', 'close']);
    expect(problems).toEqual([]);
  });
});
