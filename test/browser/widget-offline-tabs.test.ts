import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { request } from '../stack.ts';
import { useBrowserStack } from './browser-stack.ts';
import {
  SHORT,
  anotherTab,
  axeViolations,
  currentConversation,
  intercept,
  launcher,
  log,
  openChat,
  panel,
  personSays,
  send,
  serverMessages,
  stored,
  storedToken,
  waitForAnswer,
  waitReady,
} from './widget-helpers.ts';

/**
 * Never losing a message, and several tabs, in Chromium: the outbox in localStorage across going
 * offline and a reload, exactly one copy of every message after reconnects, tabs kept in step
 * through BroadcastChannel, and the opt-in sound that plays in one tab only.
 */

/** Long enough for a retry (every 5 s) or a reconnect (Socket.IO backs off up to 5 s). */
const RECONNECT = { timeout: 20_000 } as const;

const MESSAGES_ROUTE = '**/v1/widget/conversations/*/messages';

interface OutboxItem {
  conversationId: string;
  messageId: string;
  text: string;
}

/** Waits until the app behind the launcher has loaded (it listens to the other tabs from then on). */
async function appReady(page: Page): Promise<void> {
  await launcher(page).waitFor(SHORT);
  await page.evaluate(() => (window as unknown as { Parley: { ready: Promise<void> } }).Parley.ready);
}

const badge = (page: Page) => page.locator('[data-parley] .b');

/** What the log shows, notices included, in order. */
const everythingShown = (page: Page): Promise<string[]> =>
  log(page).locator('.message .text, .notice').allTextContents();

describe('offline, reconnects and tabs in Chromium', () => {
  const harness = useBrowserStack();

  const serverConversations = async (token: string): Promise<string[]> => {
    const answer = await request(`${harness.stack.url}/v1/widget/conversations`, { token });
    expect(answer.status).toBe(200);
    return (answer.body as { conversations: { id: string }[] }).conversations.map((conversation) => conversation.id);
  };

  it('keeps a message written offline in the outbox, across a reload, and sends it once with the same message_id', async () => {
    const { context, page, problems } = await harness.freshPage();
    await page.goto(harness.stack.url);
    await openChat(page);
    await send(page, 'Do you ship abroad?');
    await waitForAnswer(page, 'Norway');
    const conversationId = await currentConversation(page, harness.stack.siteKey);

    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: 'You are offline' }).waitFor(SHORT);
    await send(page, 'When will I get my refund?');
    await send(page, 'Which payment methods do you accept?');
    const offline = log(page)
      .locator('.message.mine')
      .filter({ hasText: /refund|payment methods/ });
    await expect.poll(() => offline.count(), SHORT).toBe(2);
    expect(await offline.locator('.status').allTextContents()).toEqual(['Sending…', 'Sending…']);
    // The offline state is axe-clean in both themes (issue 16).
    expect(await axeViolations(page), 'offline, light').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page), 'offline, dark').toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    // Grouped by sender: the second of two messages in a row carries no name and time of its own.
    expect(
      await offline.evaluateAll((messages) => messages.map((message) => message.classList.contains('first'))),
    ).toEqual([true, false]);

    const outbox = JSON.parse((await stored(page, harness.stack.siteKey, 'outbox')) ?? '[]') as OutboxItem[];
    expect(outbox.map((item) => [item.conversationId, item.text])).toEqual([
      [conversationId, 'When will I get my refund?'],
      [conversationId, 'Which payment methods do you accept?'],
    ]);

    // Back online, but nothing may leave before the reload: sends are cut off for now.
    const cutOff = async (route: Route) => {
      if (route.request().method() === 'POST') await route.abort('internetdisconnected');
      else await route.continue();
    };
    const stopCutting = await intercept(context, MESSAGES_ROUTE, cutOff);
    await context.setOffline(false);
    await page.reload();
    await openChat(page);
    await log(page).getByText('Norway').first().waitFor(SHORT);
    const waiting = log(page)
      .locator('.message.mine')
      .filter({ hasText: /refund|payment methods/ });
    await expect.poll(() => waiting.count(), SHORT).toBe(2);
    expect(await waiting.locator('.status').allTextContents()).toEqual(['Sending…', 'Sending…']);
    expect(JSON.parse((await stored(page, harness.stack.siteKey, 'outbox')) ?? '[]')).toHaveLength(2);

    // Sends go through again: both are sent, once each, with the ids they were written with.
    await stopCutting();
    await waitForAnswer(page, '5 business days');
    await expect
      .poll(
        () => waiting.evaluateAll((messages) => messages.map((message) => message.getAttribute('data-status'))),
        RECONNECT,
      )
      .toEqual(['delivered', 'delivered']);
    await expect.poll(() => stored(page, harness.stack.siteKey, 'outbox'), RECONNECT).toBeNull();

    const server = await serverMessages(harness.stack, await storedToken(page, harness.stack.siteKey), conversationId);
    const customer = server.filter((message) => message.author === 'customer');
    expect(customer.map((message) => message.text)).toEqual([
      'Do you ship abroad?',
      'When will I get my refund?',
      'Which payment methods do you accept?',
    ]);
    expect(customer.slice(1).map((message) => message.message_id)).toEqual(outbox.map((item) => item.messageId));
    await expect
      .poll(() => log(page).locator('.message').count(), RECONNECT)
      .toBe(server.filter((message) => message.author !== 'system').length);
    const shown = await everythingShown(page);
    expect(shown.filter((text) => text === 'When will I get my refund?')).toHaveLength(1);
    expect(shown.filter((text) => text === 'Which payment methods do you accept?')).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('shows "Not sent" with Retry after the server fails a send three times, and Retry sends it once with the same message_id', async () => {
    const { context, page, problems } = await harness.freshPage();
    await page.goto(harness.stack.url);
    await openChat(page);
    await send(page, 'Do you ship abroad?');
    await waitForAnswer(page, 'Norway');
    const conversationId = await currentConversation(page, harness.stack.siteKey);

    // The BFF's own failure, as a broken deploy answers it: every send gets 500.
    const failedSends: string[] = [];
    const stopFailing = await intercept(context, MESSAGES_ROUTE, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      failedSends.push((JSON.parse(route.request().postData() ?? '{}') as { message_id: string }).message_id);
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'internal', message: 'Something went wrong on our side.' } }),
      });
    });
    await send(page, 'When will I get my refund?');
    const mine = log(page).locator('.message.mine').filter({ hasText: 'refund' });
    await mine.getByText('Sending…').waitFor(SHORT);
    await mine.getByText('Not sent').waitFor(RECONNECT);
    expect(failedSends).toHaveLength(3);
    expect(new Set(failedSends).size).toBe(1);
    // It stays failed (no more tries in the background), also after a reload.
    await page.waitForTimeout(6_000);
    expect(failedSends).toHaveLength(3);
    await page.reload();
    await openChat(page);
    await mine.getByText('Not sent').waitFor(SHORT);

    await stopFailing();
    await mine.getByRole('button', { name: 'Retry' }).click();
    await waitForAnswer(page, '5 business days');
    await expect.poll(() => stored(page, harness.stack.siteKey, 'outbox'), RECONNECT).toBeNull();
    const server = await serverMessages(harness.stack, await storedToken(page, harness.stack.siteKey), conversationId);
    const refunds = server.filter((message) => message.text === 'When will I get my refund?');
    expect(refunds.map((message) => message.message_id)).toEqual([failedSends[0]]);
    expect(await mine.count()).toBe(1);
    expect(await mine.getAttribute('data-status')).not.toBe('failed');
    expect(problems).toEqual([]);
  });

  it('shows every message exactly once after reconnects, catching up on what came while offline', async () => {
    const { context, page, problems } = await harness.freshPage();
    await page.goto(harness.stack.url);
    await openChat(page);
    await send(page, 'I want to talk to a person');
    await page.getByText('connected with a person').waitFor(SHORT);
    const conversationId = await currentConversation(page, harness.stack.siteKey);
    await personSays(harness.stack, conversationId, 'Hello, this is Sam.');
    await waitForAnswer(page, 'this is Sam');

    for (const round of [1, 2]) {
      await context.setOffline(true);
      await page.getByRole('status').filter({ hasText: 'You are offline' }).waitFor(SHORT);
      // While the customer is away, the person writes; the customer writes too.
      await personSays(harness.stack, conversationId, `Sam's message ${round}, written while you were offline.`);
      await send(page, `Customer message ${round}, written offline.`);
      await context.setOffline(false);
      await waitForAnswer(page, `Sam's message ${round}`);
      await expect
        .poll(
          () =>
            log(page)
              .locator('.message.mine', { hasText: `Customer message ${round}` })
              .getAttribute('data-status'),
          RECONNECT,
        )
        .not.toBe('sending');
    }
    // And once more while connected.
    await personSays(harness.stack, conversationId, 'All sorted now?');
    await waitForAnswer(page, 'All sorted now?');

    const server = await serverMessages(harness.stack, await storedToken(page, harness.stack.siteKey), conversationId);
    const expected = server.map((message) => message.text);
    expect(new Set(expected).size).toBe(expected.length);
    await expect.poll(() => everythingShown(page), RECONNECT).toEqual(expected);

    // The same after a reload: history by cursor, once each.
    await page.reload();
    await openChat(page);
    await expect.poll(() => everythingShown(page), RECONNECT).toEqual(expected);
    expect(problems).toEqual([]);
  });

  it('reads what it missed by cursor (GET …/messages?after=<last id>) after every reconnect', async () => {
    const { context, page, problems } = await harness.freshPage();
    await page.goto(harness.stack.url);
    await openChat(page);
    await send(page, 'I want to talk to a person');
    await page.getByText('connected with a person').waitFor(SHORT);
    const conversationId = await currentConversation(page, harness.stack.siteKey);
    const reads: number[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname.endsWith(`/conversations/${conversationId}/messages`))
        reads.push(Number(url.searchParams.get('after')));
    });

    for (const round of [1, 2]) {
      const token = await storedToken(page, harness.stack.siteKey);
      const lastId = (await serverMessages(harness.stack, token, conversationId)).at(-1)!.id;
      reads.length = 0;
      await context.setOffline(true);
      await page.getByRole('status').filter({ hasText: 'You are offline' }).waitFor(SHORT);
      await context.setOffline(false);
      // Connected again: a person's message comes through live.
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'You are offline' }).count(), RECONNECT)
        .toBe(0);
      await personSays(harness.stack, conversationId, `Back online ${round}?`);
      await waitForAnswer(page, `Back online ${round}?`);
      // The cursor is the last message shown: the one it had, or a later one if recovery replayed it first.
      expect(
        reads.some((after) => after >= lastId),
        `round ${round}: a read by cursor after the reconnect (reads: ${reads.join(', ')}; last id before: ${lastId})`,
      ).toBe(true);
    }
    expect(problems).toEqual([]);
  });

  /**
   * A customer who already chats on this site: a first tab opens the chat and starts `setup`'s
   * conversation alone, closes the panel, and only then does a second tab load (so both share the
   * stored session and conversation from the start).
   */
  async function returningCustomer(setup: (page: Page) => Promise<void>) {
    const { context, page: first, problems } = await harness.freshPage();
    await first.goto(harness.stack.url);
    await openChat(first);
    await setup(first);
    // The conversation `setup` started, if it started one.
    const conversationId = (await stored(first, harness.stack.siteKey, 'conversation')) ?? '';
    await first.keyboard.press('Escape');
    await expect.poll(() => panel(first).count(), SHORT).toBe(0);
    const { page: second, problems: secondProblems } = await anotherTab(context);
    await second.goto(harness.stack.url);
    await appReady(second);
    return { context, first, second, conversationId, problems: [problems, secondProblems] };
  }

  it('keeps two tabs in step: opening and closing in one does it in the other, and both show each message once', async () => {
    const { first, second, problems } = await returningCustomer(async (page) => {
      await send(page, 'Do you ship abroad?');
      await waitForAnswer(page, 'Norway');
    });

    await launcher(first).click();
    await waitReady(first);
    await expect.poll(() => panel(second).isVisible(), SHORT).toBe(true);
    expect(await launcher(second).getAttribute('aria-expanded')).toBe('true');
    await waitForAnswer(second, 'Norway');
    expect(await everythingShown(second)).toEqual(['Do you ship abroad?', expect.stringContaining('Norway')]);

    // Writing in either tab shows in both, once.
    await send(first, 'Which payment methods do you accept?');
    await waitForAnswer(second, 'PayPal');
    await waitReady(second);
    await send(second, 'How long does delivery take?');
    await waitForAnswer(first, 'business days');
    await expect.poll(() => everythingShown(first), SHORT).toHaveLength(6);
    await expect.poll(() => everythingShown(second), SHORT).toEqual(await everythingShown(first));
    expect(new Set(await everythingShown(first)).size).toBe(6);

    await first.keyboard.press('Escape');
    await expect.poll(() => panel(first).count(), SHORT).toBe(0);
    await expect.poll(() => panel(second).count(), SHORT).toBe(0);
    expect(await launcher(second).getAttribute('aria-expanded')).toBe('false');

    await launcher(second).click();
    await expect.poll(() => panel(first).isVisible(), SHORT).toBe(true);
    expect(problems.flat()).toEqual([]);
  });

  it('two tabs that open the chat together for the first time are one visitor with one session', async () => {
    const { context, page: first, problems } = await harness.freshPage();
    const sessionRequests: string[] = [];
    context.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/widget-sessions')
        sessionRequests.push(request.url());
    });
    const { page: second } = await anotherTab(context);
    await first.goto(harness.stack.url);
    await second.goto(harness.stack.url);
    await Promise.all([appReady(first), appReady(second)]);

    // Opening in the first tab opens the second too: both start the chat at the same moment.
    await launcher(first).click();
    await waitReady(first);
    await waitReady(second);
    await send(first, 'Do you ship abroad?');
    await waitForAnswer(first, 'Norway');
    await send(second, 'How long does delivery take?');
    await waitForAnswer(second, 'business days');

    // One visitor: one session was made, and the stored token sees both messages.
    const token = await storedToken(first, harness.stack.siteKey);
    const list = await serverConversations(token);
    const texts = (await Promise.all(list.map((conversation) => serverMessages(harness.stack, token, conversation))))
      .flat()
      .map((message) => message.text);
    expect(sessionRequests).toHaveLength(1);
    expect(texts).toEqual(expect.arrayContaining(['Do you ship abroad?', 'How long does delivery take?']));
    expect(problems).toEqual([]);
  });

  it('a conversation started in one tab shows in the other tab too', async () => {
    // A returning visitor with a session but no conversation yet, in two tabs.
    const { first, second, problems } = await returningCustomer(async () => undefined);
    await launcher(first).click();
    await waitReady(first);
    await expect.poll(() => panel(second).isVisible(), SHORT).toBe(true);

    await send(first, 'Do you ship abroad?');
    await waitForAnswer(first, 'Norway');
    // The second tab follows the conversation the first one started, instead of staying empty
    // (and starting a second conversation with the next message written there).
    await waitForAnswer(second, 'Norway');
    expect(await everythingShown(second)).toEqual(await everythingShown(first));
    expect(problems.flat()).toEqual([]);
  });

  it('keeps the unread badge in step across tabs', async () => {
    const { context, first, second, conversationId, problems } = await returningCustomer(async (page) => {
      await send(page, 'I want to talk to a person');
      await page.getByText('connected with a person').waitFor(SHORT);
    });
    expect(await badge(first).isVisible()).toBe(false);
    expect(await badge(second).isVisible()).toBe(false);

    await personSays(harness.stack, conversationId, 'Sam here. Are you still there?');
    for (const page of [first, second]) {
      await expect.poll(() => badge(page).isVisible(), SHORT).toBe(true);
      expect(await badge(page).textContent()).toBe('1');
      await expect.poll(() => launcher(page).getAttribute('aria-label'), SHORT).toBe('Open chat, 1 unread');
    }
    await personSays(harness.stack, conversationId, 'I can help with your order.');
    for (const page of [first, second]) await expect.poll(() => badge(page).textContent(), SHORT).toBe('2');

    // A tab opened now counts the same.
    const { page: third } = await anotherTab(context);
    await third.goto(harness.stack.url);
    await appReady(third);
    await expect.poll(() => badge(third).isVisible(), SHORT).toBe(true);
    await expect.poll(() => badge(third).textContent(), SHORT).toBe('2');

    // Reading in one tab clears the badge in all.
    await launcher(second).click();
    await waitForAnswer(second, 'help with your order');
    for (const page of [first, second, third]) await expect.poll(() => badge(page).isVisible(), SHORT).toBe(false);
    await second.keyboard.press('Escape');
    for (const page of [first, second, third]) {
      await expect.poll(() => panel(page).count(), SHORT).toBe(0);
      expect(await badge(page).isVisible()).toBe(false);
      expect(await launcher(page).getAttribute('aria-label')).toBe('Open chat');
    }
    expect(problems.flat()).toEqual([]);
  });

  it('plays the opt-in notification sound in one tab only', async () => {
    const { context, page: first, problems } = await harness.freshPage();
    // Count chimes (AudioContexts made) and the Web Lock tries behind them, per tab.
    const chimes: string[] = [];
    const lockTries: { tab: string; name: string; granted: boolean }[] = [];
    const tabName = (page: Page) => (page === first ? 'first' : 'second');
    await context.exposeBinding('parleyChimed', ({ page }) => {
      chimes.push(tabName(page));
    });
    await context.exposeBinding('parleyLockTried', ({ page }, name: string, granted: boolean) => {
      lockTries.push({ tab: tabName(page), name, granted });
    });
    await context.addInitScript({
      content: `(() => {
        const Original = window.AudioContext;
        window.AudioContext = class extends Original {
          constructor(...args) { window.parleyChimed(); super(...args); }
        };
        const locks = navigator.locks;
        if (!locks) return;
        const request = locks.request.bind(locks);
        locks.request = (name, options, callback) => request(name, options, (lock) => {
          if (String(name).startsWith('parley-chime:')) window.parleyLockTried(String(name), Boolean(lock));
          return callback(lock);
        });
      })();`,
    });
    // The customer is talking to a person in the first tab; then opens a second tab.
    await first.goto(harness.stack.url);
    await openChat(first);
    await send(first, 'I want to talk to a person');
    await first.getByText('connected with a person').waitFor(SHORT);
    const conversationId = await currentConversation(first, harness.stack.siteKey);
    const { page: second } = await anotherTab(context);
    await second.goto(harness.stack.url);
    await appReady(second);
    await launcher(second).click();
    await second.getByText('connected with a person').waitFor(SHORT);

    // Sound is off until the customer turns it on (in each tab's panel).
    for (const page of [first, second]) {
      await waitReady(page);
      // In the header's "More options" menu.
      const more = page.getByRole('button', { name: 'More options' });
      const toggle = page.getByRole('menuitemcheckbox', { name: 'Sound for new messages' });
      await more.click();
      expect(await toggle.getAttribute('aria-checked')).toBe('false');
      await toggle.click();
      await more.click();
      await expect.poll(() => toggle.getAttribute('aria-checked'), SHORT).toBe('true');
      await page.keyboard.press('Escape');
    }
    expect(await stored(first, harness.stack.siteKey, 'sound')).toBe('on');

    await first.keyboard.press('Escape');
    await expect.poll(() => panel(second).count(), SHORT).toBe(0);

    const triesFor = (text: string) => lockTries.filter((entry) => entry.name === `parley-chime:${text}`);
    const lastId = async () => {
      const server = await serverMessages(
        harness.stack,
        await storedToken(first, harness.stack.siteKey),
        conversationId,
      );
      return String(server.at(-1)!.id);
    };

    // A person answers while the chat is closed: both tabs hear it, one plays.
    await personSays(harness.stack, conversationId, 'Sam here, one moment please.');
    const firstId = await lastId();
    for (const page of [first, second]) await expect.poll(() => badge(page).textContent(), SHORT).toBe('1');
    await expect.poll(() => triesFor(firstId).length, SHORT).toBe(2);
    expect(triesFor(firstId).filter((entry) => entry.granted)).toHaveLength(1);
    await expect.poll(() => chimes.length, SHORT).toBe(1);

    // While the chat is open and the message is seen, nothing plays.
    await launcher(second).click();
    await waitReady(second);
    await personSays(harness.stack, conversationId, 'I found your order.');
    const seenId = await lastId();
    await waitForAnswer(first, 'I found your order');
    await waitForAnswer(second, 'I found your order');
    await second.keyboard.press('Escape');
    await expect.poll(() => panel(first).count(), SHORT).toBe(0);

    // Closed again: the next answer plays once more, in one tab.
    await personSays(harness.stack, conversationId, 'It ships tomorrow.');
    const lastMessageId = await lastId();
    await expect.poll(() => triesFor(lastMessageId).length, SHORT).toBe(2);
    expect(triesFor(lastMessageId).filter((entry) => entry.granted)).toHaveLength(1);
    await expect.poll(() => chimes.length, SHORT).toBe(2);
    expect(triesFor(seenId)).toEqual([]);
    expect(lockTries.filter((entry) => entry.granted).map((entry) => entry.tab)).toEqual(chimes);
    expect(problems).toEqual([]);
  });
});
