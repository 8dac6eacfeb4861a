import type { Page } from 'playwright-core';
import type { BrowserStack } from './browser-stack.ts';
import { log, openChat, send, type OpenPage } from './widget-helpers.ts';

// The machine runs many suites at once: a live change may take longer than the usual 10 s here.
export const LIVE_WAIT = { timeout: 30_000 } as const;

/**
 * A customer in Chromium, on the shop's page of the stack, who writes `words` in the widget and
 * then asks for a person: their page once the handover shows.
 */
export async function customerHandsOver(harness: BrowserStack, words: string): Promise<OpenPage> {
  const customer = await harness.freshPage();
  await customer.page.goto(harness.stack.url);
  await openChat(customer.page);
  await send(customer.page, words);
  await send(customer.page, 'I want to talk to a person');
  await log(customer.page).getByText('connected with a person').waitFor(LIVE_WAIT);
  return customer;
}

/** Opens, in the console on `page`, the conversation whose customer wrote `words`, found with the search box. */
export async function openBySearch(page: Page, words: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill(words);
  const results = page.getByRole('list', { name: 'Search results' });
  await results.locator('mark', { hasText: words }).first().waitFor(LIVE_WAIT);
  await results.getByRole('button').first().click();
  await page.getByRole('log', { name: 'Transcript' }).getByText(words, { exact: false }).first().waitFor(LIVE_WAIT);
}
