import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { contrast } from '../../shared/contrast.ts';
import { startStack, type TestStack } from '../stack.ts';
import { launchChromium } from './chromium.ts';
import {
  SHORT,
  currentConversation,
  focused,
  freshPage,
  intercept,
  launcher,
  messageBox,
  openChat,
  panel,
  personSays,
  send,
  waitForAnswer,
  waitReady,
  type OpenPage,
} from './widget-helpers.ts';

/**
 * The widget's look and shell in Chromium (issue 16): the header in each state, the "More
 * options" menu by keyboard, the launcher's close icon, the preview card of a message that comes
 * while the chat is closed, Tab kept inside the open panel, the focus ring for the keyboard only,
 * and the hosted page's centred column.
 */
describe('the widget look', () => {
  let stack: TestStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchChromium()]);
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function store(
    options: Parameters<typeof freshPage>[1] = {},
    before?: (context: BrowserContext) => Promise<unknown>,
  ): Promise<OpenPage> {
    const opened = await freshPage(browser, options);
    contexts.push(opened.context);
    await before?.(opened.context);
    await opened.page.goto(stack.url);
    await launcher(opened.page).waitFor(SHORT);
    return opened;
  }

  const header = (page: Page) => page.locator('[data-parley] .header');
  const who = (page: Page) => header(page).locator('.who');
  const moreOptions = (page: Page) => header(page).getByRole('button', { name: 'More options' });
  const menu = (page: Page) => page.locator('[data-parley]').getByRole('menu', { name: 'More options' });
  const launcherIcon = (page: Page) => page.locator('[data-parley] .l path').getAttribute('d');
  /** The outline the focused element (inside the shadow root) shows. */
  const outline = (page: Page) =>
    page.evaluate(() => {
      let element: Element | null = document.activeElement;
      while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
      const style = getComputedStyle(element!);
      return { style: style.outlineStyle, color: style.outlineColor };
    });
  const hex = (rgb: string) =>
    `#${(rgb.match(/\d+/g) ?? [])
      .slice(0, 3)
      .map((part) => Number(part).toString(16).padStart(2, '0'))
      .join('')}`;

  it("says who answers in a header of one height: the shop's name and logo, the AI with its badge, then the person with initials and the reply time, the list, the end", async () => {
    const { page, problems } = await store({}, async (context) => {
      // The config comes in the widget's start (POST /v1/widget/start, issue 34).
      await intercept(context, '**/v1/widget/start', async (route) => {
        const response = await route.fetch();
        const started = await response.json();
        const inbox = {
          ...started.config.inbox,
          avatar_url: 'https://shop.example/logo.png',
          reply_time: 'in_a_few_minutes',
        };
        await route.fulfill({ response, json: { ...started, config: { ...started.config, inbox } } });
      });
      // A 1×1 PNG for the logo.
      await intercept(context, 'https://shop.example/logo.png', (route) =>
        route.fulfill({
          contentType: 'image/png',
          body: Buffer.from(
            'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
            'base64',
          ),
        }),
      );
    });
    await openChat(page);
    // It opens with a short scale and fade.
    expect(await panel(page).evaluate((element) => getComputedStyle(element).animationDuration)).toBe('0.2s');
    const name = (await header(page).getByRole('heading', { level: 2 }).textContent())!;
    expect(name.length).toBeGreaterThan(0);
    expect(await header(page).locator('img.logo').getAttribute('src')).toBe('https://shop.example/logo.png');
    expect(await who(page).textContent()).toBe('AIReplies instantly');
    const height = (await header(page).boundingBox())!.height;

    await send(page, 'I want to talk to a person');
    await expect.poll(() => who(page).textContent(), SHORT).toBe('Replies in a few minutes');
    const conversationId = await currentConversation(page, stack.siteKey);
    await personSays(
      stack,
      conversationId,
      'Hi, I am Sam. Let me help with your order and anything else you need today.',
      'Sam Lee',
    );
    await waitForAnswer(page, 'Let me help');
    await expect.poll(() => who(page).textContent(), SHORT).toBe('SLSam Lee is answering');
    // One line, cut with an ellipsis rather than wrapped: the header does not jump.
    expect(await who(page).evaluate((line) => getComputedStyle(line).whiteSpace)).toBe('nowrap');
    // Short enough to be read whole in the desktop panel, not cut with an ellipsis.
    expect(await who(page).evaluate((line) => line.scrollWidth <= line.clientWidth)).toBe(true);
    expect((await header(page).boundingBox())!.height).toBe(height);

    await header(page).getByRole('button', { name: 'Your conversations' }).click();
    await expect.poll(() => who(page).textContent(), SHORT).toBe('Your conversations');
    expect((await header(page).boundingBox())!.height).toBe(height);
    await header(page).getByRole('button', { name: 'Back to the conversation' }).click();
    await waitReady(page);

    await moreOptions(page).click();
    await menu(page).getByRole('menuitem', { name: 'End conversation' }).click();
    await expect.poll(() => who(page).textContent(), SHORT).toBe('Conversation ended');
    expect(await who(page).textContent()).not.toContain('answering');
    expect((await header(page).boundingBox())!.height).toBe(height);
    expect(problems).toEqual([]);
  });

  it('names the chat "Chat" in the header when its settings cannot load (rate limited); opens without motion when the system asks for less', async () => {
    const { page, problems } = await store({ reducedMotion: 'reduce' }, (context) =>
      intercept(context, '**/v1/widget/start', (route) =>
        route.fulfill({
          status: 429,
          json: { error: { code: 'rate_limited', message: 'Slow down.' } },
          headers: { 'retry-after': '600' },
        }),
      ),
    );
    await launcher(page).click();
    await expect.poll(() => header(page).getByRole('heading', { level: 2 }).textContent(), SHORT).toBe('Chat');
    expect(await panel(page).getAttribute('aria-label')).toBe('Chat');
    // Nobody answers while the chat is refused: the header claims no one.
    await expect.poll(() => who(page).textContent(), SHORT).toBe('');
    expect(await panel(page).evaluate((element) => getComputedStyle(element).animationDuration)).toBe('0s');
    expect(problems).toEqual([]);
  });

  it('keeps sound and "End conversation" in a More options menu worked by the keyboard: arrows wrap, Escape closes and gives focus back', async () => {
    const { page, problems } = await store();
    await openChat(page);
    // No conversation yet: only the sound.
    await moreOptions(page).focus();
    expect(await moreOptions(page).getAttribute('aria-haspopup')).toBe('menu');
    expect(await moreOptions(page).getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    await menu(page).waitFor(SHORT);
    expect(await moreOptions(page).getAttribute('aria-expanded')).toBe('true');
    const sound = menu(page).getByRole('menuitemcheckbox', { name: 'Sound for new messages' });
    await expect.poll(() => focused(page), SHORT).toBe('button');
    expect(await sound.getAttribute('aria-checked')).toBe('false');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu(page).count(), SHORT).toBe(0);
    // Escape closed the menu only, not the chat; focus is back on its button.
    expect(await panel(page).count()).toBe(1);
    await expect.poll(() => focused(page), SHORT).toBe('button[More options].icon');
    expect(await moreOptions(page).getAttribute('aria-expanded')).toBe('false');

    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    await moreOptions(page).focus();
    await page.keyboard.press('Enter');
    const items = menu(page).locator('button');
    await expect.poll(() => items.allTextContents(), SHORT).toEqual(['Sound for new messages', 'End conversation']);
    const current = () =>
      page.evaluate(() => document.querySelector('[data-parley]')!.shadowRoot!.activeElement?.textContent);
    await expect.poll(current, SHORT).toBe('Sound for new messages');
    await page.keyboard.press('ArrowDown');
    expect(await current()).toBe('End conversation');
    await page.keyboard.press('ArrowDown');
    expect(await current()).toBe('Sound for new messages');
    await page.keyboard.press('ArrowUp');
    expect(await current()).toBe('End conversation');
    await page.keyboard.press('Home');
    expect(await current()).toBe('Sound for new messages');
    // Space turns the sound on, and the menu says so the next time.
    await page.keyboard.press('Space');
    await expect.poll(() => menu(page).count(), SHORT).toBe(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => sound.getAttribute('aria-checked'), SHORT).toBe('true');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.getByText('This conversation has ended.').waitFor(SHORT);
    // No floating link: ending is only in the menu.
    expect(await panel(page).getByRole('button', { name: 'End conversation' }).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('turns the launcher into a close icon while open; a message that comes while closed shows on a card above it, announced politely, that can be dismissed or opens the chat', async () => {
    const { page, problems } = await store();
    const bubble = await launcherIcon(page);
    expect(await launcher(page).getAttribute('aria-label')).toBe('Open chat');
    await openChat(page);
    const button = page.locator('[data-parley] .l');
    expect(await button.getAttribute('aria-label')).toBe('Close chat');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await launcherIcon(page)).not.toBe(bubble);
    await send(page, 'I want to talk to a person');
    await page.getByText('connected with a person').waitFor(SHORT);
    const conversationId = await currentConversation(page, stack.siteKey);
    await button.click();
    await expect.poll(() => panel(page).count(), SHORT).toBe(0);
    expect(await button.getAttribute('aria-label')).toBe('Open chat');
    expect(await launcherIcon(page)).toBe(bubble);

    const card = page.locator('[data-parley] [aria-live=polite] .peek');
    expect(await card.count()).toBe(0);
    await personSays(stack, conversationId, 'Hi, I am Sam.\nHow can I help?', 'Sam');
    await card.waitFor(SHORT);
    const open = card.getByRole('button', { name: 'Sam Hi, I am Sam.' });
    expect(await open.count()).toBe(1);
    await card.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => card.count(), SHORT).toBe(0);
    await expect.poll(() => focused(page), SHORT).toMatch(/^button\[Open chat, \d+ unread\]\.l$/);

    await personSays(stack, conversationId, 'Are you still there?', 'Sam');
    await card.getByText('Are you still there?').waitFor(SHORT);
    await card.getByRole('button', { name: /Are you still there/ }).click();
    await panel(page).waitFor(SHORT);
    await waitForAnswer(page, 'still there');
    expect(await card.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('keeps Tab inside the open panel, from the last control back to the header and back again with Shift+Tab', async () => {
    const { page, problems } = await store();
    await openChat(page);
    const first = 'button[Your conversations].icon';
    await messageBox(page).fill('Hello');
    const seen: string[] = [];
    for (let step = 0; step < 10 && seen.at(-1) !== first; step++) {
      await page.keyboard.press('Tab');
      seen.push(await focused(page));
    }
    // Past Send (the last control), Tab comes back to the header's first button; never to the page.
    expect(seen.at(-2)).toBe('button.primary');
    expect(seen.at(-1)).toBe(first);
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('button.primary');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe(first);
    expect(problems).toEqual([]);
  });

  it('shows the focus ring for the keyboard only, in a colour that stands out in the light and dark themes', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, problems } = await store({ colorScheme });
      await openChat(page);
      const body = hex(await panel(page).evaluate((element) => getComputedStyle(element).backgroundColor));
      // The text box shows its focus by a border in the ring's colour rather than a ring around it.
      await messageBox(page).click();
      const box = await messageBox(page).evaluate((element) => ({
        outline: getComputedStyle(element).outlineStyle,
        border: getComputedStyle(element).borderTopColor,
      }));
      expect(box.outline).toBe('none');
      expect(contrast(hex(box.border), body)).toBeGreaterThanOrEqual(3);
      // A click on a button leaves no ring, nor on the menu item it focuses.
      await moreOptions(page).click();
      await menu(page).waitFor(SHORT);
      expect((await outline(page)).style).toBe('none');
      await page.keyboard.press('Escape');
      // After a key, the ring shows: on the header's colour, and on the panel's body.
      const onHeader = await outline(page);
      expect(onHeader.style).toBe('solid');
      const headerColor = hex(await header(page).evaluate((element) => getComputedStyle(element).backgroundColor));
      expect(contrast(hex(onHeader.color), headerColor)).toBeGreaterThanOrEqual(3);
      await messageBox(page).fill('Hello');
      await messageBox(page).press('Tab');
      expect(await focused(page)).toBe('button.primary');
      const onBody = await outline(page);
      expect(onBody.style).toBe('solid');
      expect(contrast(hex(onBody.color), body), colorScheme).toBeGreaterThanOrEqual(3);
      // The heading takes focus from the code (the list opens): no ring on it.
      await header(page).getByRole('button', { name: 'Your conversations' }).click();
      await expect.poll(() => focused(page), SHORT).toBe('h2');
      expect((await outline(page)).style).toBe('none');
      expect(problems).toEqual([]);
    }
  });

  it('sets the hosted chat in a centred column on a wide screen', async () => {
    const { page, problems } = await freshPage(browser, { viewport: { width: 1400, height: 900 } });
    contexts.push(page.context());
    await page.goto(`${stack.url}/chat?site_key=${stack.siteKey}`);
    await waitReady(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    const box = (await messageBox(page).boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(760);
    // Centred: as much room on either side.
    expect(Math.abs(box.x - (1400 - (box.x + box.width)))).toBeLessThan(120);
    const answer = (await page.locator('.message.theirs .bubble').last().boundingBox())!;
    expect(answer.x).toBeGreaterThanOrEqual(1400 / 2 - 380);
    expect(problems).toEqual([]);
  });
});
