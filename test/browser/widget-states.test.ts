import { mkdir } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MemoryRollingLimiter, type RollingLimiter } from '../../shared/server/index.ts';
import { request, startStack, type TestStack } from '../stack.ts';
import { until } from '../until.ts';
import { ARTIFACTS_DIR, launchChromium } from './chromium.ts';
import {
  SHORT,
  axeViolations,
  endAfterThanks,
  currentConversation,
  freshPage,
  holdSends,
  intercept,
  launcher,
  log,
  messageBox,
  openChat,
  personSays,
  send,
  waitForAnswer,
  type OpenPage,
} from './widget-helpers.ts';

/**
 * The widget's states in Chromium on the demo store (issue 16): rate limited, a send the server
 * fails, who wrote what (the AI marked as AI, a person by name), delivery states that mean
 * something, days apart in the log, the survey's rating buttons and the list of conversations.
 */

/**
 * The BFF's real site-key limit (20 an hour per address) for the test that spends it; the other
 * tests make their sessions from the same address, so until then a generous one counts them.
 */
class SiteKeyLimit implements RollingLimiter {
  strict = false;
  readonly #real = new MemoryRollingLimiter(20, 3_600_000);
  readonly #generous = new MemoryRollingLimiter(100_000, 3_600_000);
  consume(key: string, now: Date) {
    return (this.strict ? this.#real : this.#generous).consume(key, now);
  }
}

describe('the widget in each of its states', () => {
  const limit = new SiteKeyLimit();
  let stack: TestStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(undefined, {}, { siteKeyLimiter: limit }), launchChromium()]);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
  });
  afterEach(async () => {
    limit.strict = false;
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** The demo store in a fresh context (its own localStorage), the launcher there. */
  async function store(options: Parameters<typeof freshPage>[1] = {}): Promise<OpenPage> {
    const opened = await freshPage(browser, options);
    contexts.push(opened.context);
    await opened.page.goto(stack.url);
    await launcher(opened.page).waitFor(SHORT);
    return opened;
  }

  const alert = (page: Page) => page.locator('[data-parley]').getByRole('alert');

  it("says in the customer's words how many minutes to wait after the site-key limit, with the text box and Send disabled and looking it", async () => {
    // The shop's e-mail, which the refusal carries with the inbox's name (no config can load).
    const [inbox] = await stack.bffSql.query<{ name: string; email: string }>(
      'SELECT name, email FROM inboxes WHERE id = $1',
      [stack.inboxId],
    );
    await stack.bffSql.query("UPDATE inboxes SET email = 'help@shop.example' WHERE id = $1", [stack.inboxId]);
    limit.strict = true;
    // Spend what is left of this address's 20 site-key requests an hour.
    for (let spent = 0; spent < 20; spent++) {
      if ((await request(`${stack.url}/v1/widget-sessions`, { token: stack.siteKey, body: {} })).status === 429) break;
    }
    const { page, problems } = await store();
    await launcher(page).click();
    await alert(page).waitFor(SHORT);
    // The wait is the rest of the hour, rounded up to whole minutes; never the server's own sentence.
    const said = await alert(page).textContent();
    expect(said).toMatch(
      /Too many requests came from your connection\. You can chat again in about (5[0-9]|60) minutes\./,
    );
    expect(said).not.toMatch(/site-key|\d+ s\b/);
    // Without a config, the refusal still names the shop and offers its e-mail.
    expect(said).toContain(inbox!.name);
    expect(await alert(page).getByRole('link', { name: 'help@shop.example' }).getAttribute('href')).toBe(
      'mailto:help@shop.example',
    );
    await stack.bffSql.query('UPDATE inboxes SET email = $2 WHERE id = $1', [stack.inboxId, inbox!.email]);

    const box = messageBox(page);
    const sendButton = page.locator('[data-parley] .composer').getByRole('button', { name: 'Send' });
    expect(await box.isDisabled()).toBe(true);
    expect(await sendButton.isDisabled()).toBe(true);
    const look = (element: typeof box) =>
      element.evaluate((node) => ({
        cursor: getComputedStyle(node).cursor,
        opacity: Number(getComputedStyle(node).opacity),
        border: getComputedStyle(node).borderTopStyle,
      }));
    expect(await look(box)).toMatchObject({ cursor: 'not-allowed', border: 'dashed' });
    // Greyed out (the theme's "off" colours, legible at 4.5:1), not the site's colour faded by opacity.
    expect(
      await sendButton.evaluate((node) => [getComputedStyle(node).backgroundColor, getComputedStyle(node).opacity]),
    ).toEqual(['rgb(228, 232, 238)', '1']);
    await page.screenshot({ path: `${ARTIFACTS_DIR}/widget-states-limited.png` });

    // In German too, with German plurals from the browser's Intl.
    const german = await store({ locale: 'de-DE' });
    await launcher(german.page).click();
    await expect
      .poll(() => alert(german.page).textContent(), SHORT)
      .toMatch(
        /Von Ihrer Verbindung kamen zu viele Anfragen\. Sie können in etwa (5[0-9]|60) Minuten wieder chatten\./,
      );
    expect([...problems, ...german.problems]).toEqual([]);
  });

  it("offers the shop's email beside the wait when the chat's start is limited", async () => {
    const { context, page, problems } = await store();
    // The customer's limit is hard to reach on purpose through the real stack: the test answers the
    // start with 429 itself, carrying the shop's name and e-mail as the BFF's refusal of a start does
    // (bff/widget/start-routes.test.ts; the inbox's contact e-mail is a setting of its own).
    const stopLimiting = await intercept(context, '**/v1/widget/start', (route) =>
      route.fulfill({
        status: 429,
        headers: {
          'retry-after': '61',
          'access-control-allow-origin': '*',
          'access-control-expose-headers': 'retry-after',
        },
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            code: 'rate_limited',
            message: 'This customer may make 120 requests a minute.',
            details: { inbox: { name: 'Demo shop', email: 'help@shop.example' } },
          },
        }),
      }),
    );
    await launcher(page).click();
    await expect
      .poll(() => alert(page).textContent(), SHORT)
      .toBe(
        // No config came: the refusal names the shop too.
        'Demo shopToo many requests came from your connection. You can chat again in about 2 minutes.You can also write to us: help@shop.example',
      );
    expect(await alert(page).getByRole('link', { name: 'help@shop.example' }).getAttribute('href')).toBe(
      'mailto:help@shop.example',
    );
    await stopLimiting();
    expect(problems).toEqual([]);
  });

  it('shows "Not sent" with Retry within seconds when the server fails a send, and Retry sends it', async () => {
    const { context, page, problems } = await store();
    await openChat(page);
    // A BFF that answers 500 cannot be made on purpose through the real stack: the test answers
    // the customer's sends with 500 itself, as a broken deploy would.
    let failed = 0;
    const stopFailing = await intercept(context, '**/v1/widget/conversations/*/messages', (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      failed++;
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'internal', message: 'Something went wrong on our side.' } }),
      });
    });
    await send(page, 'Do you ship abroad?');
    const mine = log(page).locator('.message.mine', { hasText: 'Do you ship abroad?' });
    await mine.getByText('Sending…').waitFor(SHORT);
    await mine.getByText('Not sent').waitFor(SHORT);
    expect(failed).toBe(3);
    // The failed state is axe-clean in both themes (issue 16).
    expect(await axeViolations(page), 'not sent, light').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page), 'not sent, dark').toEqual([]);
    await stopFailing();

    await mine.getByRole('button', { name: 'Retry' }).click();
    await waitForAnswer(page, 'Norway');
    await expect.poll(() => mine.locator('.status').textContent(), SHORT).toBe('Delivered');
    expect(await mine.count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('marks the AI as AI and a person by name, groups each sender, and says "Read" only when a person read', async () => {
    const { context, page, problems } = await store();
    await openChat(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    await send(page, 'Do you ship abroad?');
    await waitForAnswer(page, 'Norway');

    // The AI answered: its answers are one group per question, each with a robot, "Assistant" and an AI badge.
    const ai = log(page).locator('.message.ai.first');
    expect(await ai.count()).toBe(2);
    expect(await ai.locator('.author').allTextContents()).toEqual(['Assistant', 'Assistant']);
    expect(await ai.locator('.badge').allTextContents()).toEqual(['AI', 'AI']);
    expect(await ai.first().locator('.avatar svg').count()).toBe(1);
    // The AI read nothing: the customer's message is delivered, and only the last one says so.
    const mine = log(page).locator('.message.mine');
    await expect.poll(() => mine.last().getAttribute('data-status'), SHORT).toBe('delivered');
    expect(await mine.locator('.status').allTextContents()).toEqual(['Delivered']);

    await send(page, 'I want to talk to a person');
    await page.getByText('connected with a person').waitFor(SHORT);
    const conversationId = await currentConversation(page, stack.siteKey);
    await personSays(stack, conversationId, 'Hi, I am Sam. Let me help.', 'Sam Lee');
    await personSays(stack, conversationId, 'What is your order number?', 'Sam Lee');
    await waitForAnswer(page, 'order number');
    const person = log(page).locator('.message.human');
    // One group of two: the name and initials once, no AI badge.
    expect(await person.locator('.author').allTextContents()).toEqual(['Sam Lee']);
    expect(await person.locator('.avatar').allTextContents()).toEqual(['SL']);
    expect(await person.locator('.badge').count()).toBe(0);

    // A person answered this one: now "Read" means someone read it. The answer to the send is held
    // until the engine has the message, so its "delivered" push overtakes it (this tab gets no push of
    // its own message to hang the status on): the widget keeps the status for the message.
    const stopOvertaking = await holdSends(context, async () => {
      await until(
        async () =>
          (
            await stack.bffSql.query<{ upstream: string }>("SELECT upstream FROM messages WHERE text = 'It is 1234.'")
          )[0]?.upstream,
        (upstream) => upstream === 'forwarded',
        'the engine to have the message',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await send(page, 'It is 1234.');
    await expect.poll(() => mine.last().locator('.status').textContent(), SHORT).toBe('Delivered');
    await stopOvertaking();
    await personSays(stack, conversationId, 'Thanks, looking now.', 'Sam Lee');
    await expect.poll(() => mine.last().locator('.status').textContent(), SHORT).toBe('Read');
    expect(await person.locator('.author').allTextContents()).toEqual(['Sam Lee', 'Sam Lee']);
    expect(problems).toEqual([]);
  });

  it("shows the customer's message once and before the AI's answer when the answer comes before the answer to the send (the tab gets no push of its own message)", async () => {
    const { context, page, problems } = await store();
    await openChat(page);
    // The answer to the send is held until the AI's reply, pushed meanwhile, is on the page.
    const stopOvertaking = await holdSends(context, () => waitForAnswer(page, 'within 30 days'));
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    const mine = log(page).locator('.message.mine');
    await expect.poll(() => mine.getAttribute('data-status'), SHORT).toBe('delivered');
    await stopOvertaking();
    // In the log in order, once each, and the list's preview is the answer.
    expect(
      await log(page)
        .locator('.message')
        .evaluateAll((messages) => messages.map((message) => message.classList.contains('mine'))),
    ).toEqual([true, false]);

    await page.getByRole('button', { name: 'Your conversations' }).click();
    const items = page.locator('[data-parley] .list li');
    await expect.poll(() => items.count(), SHORT).toBe(1);
    expect(await items.nth(0).locator('.preview').textContent()).toMatch(/^Assistant: .*30 days/);
    expect(problems).toEqual([]);
  });

  it('puts the day between messages of different days, and wraps a long word instead of scrolling sideways', async () => {
    const { page, problems } = await store();
    await openChat(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    // Yesterday's question and answer, as the store would have kept them: moved to noon yesterday in
    // the browser's time zone (a day back from now would be two days back just after midnight).
    const conversationId = await currentConversation(page, stack.siteKey);
    const yesterdayNoon = await page.evaluate(() => {
      const noon = new Date();
      noon.setDate(noon.getDate() - 1);
      noon.setHours(12, 0, 0, 0);
      return noon.toISOString();
    });
    await stack.bffSql.query(
      `UPDATE messages SET created_at = $2::timestamptz + (created_at - (SELECT min(created_at) FROM messages WHERE conversation_id = (SELECT id FROM conversations WHERE uuid = $1)))
        WHERE conversation_id = (SELECT id FROM conversations WHERE uuid = $1)`,
      [conversationId, yesterdayNoon],
    );
    await page.reload();
    await openChat(page);
    await send(page, `Look at https://shop.example/${'very-long-path-'.repeat(12)}end`);
    const days = log(page).locator('.day');
    await expect.poll(() => days.allTextContents(), SHORT).toEqual(['Yesterday', 'Today']);
    await days.last().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS_DIR}/widget-states-days.png` });
    const widths = await log(page).evaluate((element) => ({
      scroll: element.scrollWidth,
      client: element.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(problems).toEqual([]);
  });

  it('ends with a survey of five named ratings that leaves the log half the panel, then lists the conversations under a heading, by date, with who said what, an unread dot and the resolved marked', async () => {
    const { page, problems } = await store();
    await openChat(page);
    await endAfterThanks(page);

    const survey = page.locator('[data-parley] form.survey');
    await survey.waitFor(SHORT);
    const ratings = survey.getByRole('radio');
    expect(await Promise.all((await ratings.all()).map((radio) => radio.getAttribute('aria-label')))).toEqual([
      '1 – Very poor',
      '2 – Poor',
      '3 – Okay',
      '4 – Good',
      '5 – Excellent',
    ]);
    await survey.getByRole('radio', { name: '4 – Good' }).check();
    expect(await survey.getByRole('radio', { name: '4 – Good' }).isChecked()).toBe(true);
    // With the rating chosen and the comment open, the conversation keeps at least half the panel.
    await survey.getByRole('textbox', { name: /Anything you would like to add/ }).fill('Quick and clear.');
    const [logBox, panelBox] = [
      await log(page).boundingBox(),
      await page.locator('[data-parley] section.panel').boundingBox(),
    ];
    expect(panelBox!.height).toBe(560);
    expect(logBox!.height).toBeGreaterThanOrEqual(panelBox!.height / 2);
    await survey.getByRole('button', { name: 'Send rating' }).click();
    await page.getByText('Thank you for your feedback!').waitFor(SHORT);

    await page.locator('[data-parley] .ended').getByRole('button', { name: 'New conversation' }).click();
    await send(page, 'I want to talk to a person');
    await page.getByText('connected with a person').waitFor(SHORT);
    const open = await currentConversation(page, stack.siteKey);

    await page.getByRole('button', { name: 'Your conversations' }).click();
    await page.locator('[data-parley]').getByRole('heading', { name: 'Your conversations' }).waitFor(SHORT);
    // A person answers while the customer looks at the list: the open conversation gets its dot.
    await personSays(stack, open, 'Hi, I am Sam.', 'Sam');
    const items = page.locator('[data-parley] .list li');
    await expect.poll(() => items.count(), SHORT).toBe(2);
    const newest = items.nth(0).getByRole('button');
    await expect.poll(() => newest.textContent(), SHORT).toContain('1 unread');
    expect(await items.nth(0).locator('.dot').count()).toBe(1);
    expect(await items.nth(0).locator('.preview').textContent()).toBe('Sam: Hi, I am Sam.');
    expect(await items.nth(1).locator('.preview').textContent()).toMatch(/^Assistant: /);
    expect(await items.nth(1).locator('.tag').textContent()).toBe('Resolved');
    expect(await items.nth(0).locator('.tag').count()).toBe(0);
    // Titled by when it began, in the browser's locale, not by its last message.
    const title = await items.nth(1).locator('time').textContent();
    expect(title).toMatch(/\d{1,2}:\d{2}/);
    expect(await items.nth(1).locator('.dot').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS_DIR}/widget-states-list.png` });
    expect(problems).toEqual([]);
  });
});
