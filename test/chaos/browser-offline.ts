import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../browser/chromium.ts';
import { until } from '../until.ts';
import { sleep, type Customer } from './customers.ts';
import type { Demo } from './demo-kill.ts';
import { tally, type FaultResult } from './tally.ts';

/**
 * A customer's network dropped and restored in Chromium: the real widget on the demo's storefront,
 * its network cut (`context.setOffline`) right after a send, messages typed while offline, then the
 * network back. The widget's outbox sends each message once it can, with its own `message_id`;
 * the conversation (read through the BFF) and the page itself must each show every message once,
 * in the order typed, and the AI must answer each once.
 */
const CUSTOMERS = 3;
const WAIT = { timeout: 20_000 } as const;

export async function dropNetworkInChromium(demo: Demo): Promise<FaultResult> {
  const browser = await launchChromium();
  try {
    const customers = await Promise.all(
      Array.from({ length: CUSTOMERS }, (_, index) => chatThroughAnOutage(browser, demo, index)),
    );
    const result = await tally(
      'network dropped and restored in Chromium',
      customers.map(({ customer }) => customer),
      { settleMs: 60_000 },
    );
    // What the page shows: the customer's messages, once each and in the order typed.
    for (const { page, customer } of customers) {
      const typed = customer.sent.map((message) => message.text);
      const everyOne = (texts: string[]) => typed.every((text) => texts.includes(text));
      const shown = await until(() => mine(page), everyOne, 'the page to show every message typed', 10_000).catch(() =>
        mine(page),
      );
      result.lost += typed.filter((text) => !shown.includes(text)).length;
      result.duplicated += shown.length - new Set(shown).size;
      const order = [...new Set(shown)].map((text) => typed.indexOf(text));
      result.outOfOrder += order.filter((position, index) => index > 0 && position < order[index - 1]!).length;
    }
    return result;
  } finally {
    await browser.close();
  }
}

/** One customer's chat: two messages, a third with the network cut as it goes, three typed offline, the network back, two more. */
async function chatThroughAnOutage(
  browser: Browser,
  demo: Demo,
  index: number,
): Promise<{ page: Page; customer: Customer }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(demo.url);
  await page.getByRole('button', { name: /chat/i }).first().click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.waitFor(WAIT);
  await until(() => box.isEnabled(), Boolean, 'the message box to be enabled', WAIT.timeout);

  const questions = [
    'How do I return an item?',
    'Do you ship abroad?',
    'How long does delivery take?',
    'Which payment methods do you accept?',
  ];
  const typed: string[] = [];
  const type = async (number: number) => {
    // Unique per customer, so that the page's copies can be counted by their text.
    const text = `${questions[number % questions.length]} (customer ${index + 1}, message ${number + 1})`;
    typed.push(text);
    await box.fill(text);
    await box.press('Enter');
    await sleep(300);
  };
  await type(0);
  await type(1);
  await box.fill(`${questions[2]} (customer ${index + 1}, message 3)`);
  typed.push(`${questions[2]} (customer ${index + 1}, message 3)`);
  await box.press('Enter');
  // Cut off while that send may still be on its way: the widget cannot know whether the BFF kept it.
  await context.setOffline(true);
  await page.getByRole('status').filter({ hasText: 'You are offline' }).waitFor(WAIT);
  for (let number = 3; number < 6; number++) await type(number);
  await sleep(2_000);
  await context.setOffline(false);
  for (let number = 6; number < 8; number++) await type(number);

  const siteKey = demo.siteKey;
  const stored = (name: string) => page.evaluate((key) => localStorage.getItem(key), `parley:${siteKey}:${name}`);
  // Acknowledged: the widget's outbox is empty once the BFF has answered 2xx to every message.
  const flushed = await until(
    () => stored('outbox'),
    (outbox) => outbox === null,
    "the widget's outbox to empty",
    60_000,
  ).then(
    () => true,
    () => false,
  );
  const session = JSON.parse((await stored('session')) ?? '{}') as { token?: string; customer_ref?: string };
  const conversationId = await stored('conversation');
  if (!session.token || !conversationId)
    throw new Error(`customer ${index + 1}: the widget stored no session or conversation`);
  const customer: Customer = {
    ref: session.customer_ref ?? `browser-${index + 1}`,
    token: session.token,
    conversationId,
    nodes: [demo.url],
    sent: typed.map((text) => ({ messageId: text, text, acknowledged: flushed, failedTries: 0 })),
    matchBy: 'text',
  };
  return { page, customer };
}

/** The customer's own messages as the page shows them, in order. */
const mine = (page: Page): Promise<string[]> => page.getByRole('log').locator('.message.mine .text').allTextContents();
