import { describe, expect, it } from 'vitest';
import { useBrowserStack } from './browser-stack.ts';
import { ARTIFACTS_DIR } from './chromium.ts';

describe('the widget on the shop page, in Chromium', () => {
  const harness = useBrowserStack();

  it('lets a visitor ask a question from the launcher and shows the answer from the knowledge base', async () => {
    const page = await harness.browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(harness.stack.url);

    const launcher = page.getByRole('button', { name: /chat/i });
    await launcher.click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect
      .poll(() => box.evaluate((element) => element === (element.getRootNode() as ShadowRoot).activeElement))
      .toBe(true);
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill('How do I return an item?');
    await box.press('Enter');

    const log = page.getByRole('log');
    await log.getByText('within 30 days of delivery').waitFor();
    const texts = await log.locator('.text').allTextContents();
    expect(texts).toEqual(['How do I return an item?', expect.stringContaining('within 30 days of delivery')]);
    await expect.poll(() => box.inputValue()).toBe('');

    await page.screenshot({ path: `${ARTIFACTS_DIR}/shop-page-chat.png` });
    expect(problems).toEqual([]);
  });

  it('renders the widget in an open shadow root that the page cannot style', async () => {
    const page = await harness.browser.newPage();
    await page.goto(harness.stack.url);
    await page.getByRole('button', { name: /chat/i }).waitFor();
    const shadow = await page.evaluate(() => {
      const host = document.querySelector('[data-parley]');
      return {
        open: host?.shadowRoot !== null && host?.shadowRoot !== undefined,
        inLightDom: document.querySelectorAll('button').length,
      };
    });
    expect(shadow).toEqual({ open: true, inLightDom: 0 });
  });

  it("shows markup in the customer's own text as inert text", async () => {
    const page = await harness.browser.newPage();
    await page.goto(harness.stack.url);
    await page.getByRole('button', { name: /chat/i }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => box.isEnabled()).toBe(true);
    const attack = '<img src=x onerror="window.pwned=1"> **[x](javascript:window.pwned=2)**';
    await box.fill(attack);
    await box.press('Enter');
    const log = page.getByRole('log');
    await log.getByText('<img src=x').waitFor();
    await log.locator('.theirs').waitFor();
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(await log.locator('img, a[href^="javascript"]').count()).toBe(0);
  });

  it('keeps the conversation across a reload', async () => {
    const page = await harness.browser.newPage();
    await page.goto(harness.stack.url);
    await page.getByRole('button', { name: /chat/i }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill('Do you ship abroad?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('log').getByText('Norway').waitFor();

    await page.reload();
    await page.getByRole('button', { name: /chat/i }).click();
    await page.getByRole('log').getByText('Norway').waitFor();
    expect(await page.getByRole('log').locator('.text').allTextContents()).toHaveLength(2);
  });
});
