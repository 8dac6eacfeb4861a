import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page, Route } from 'playwright-core';
import { io } from 'socket.io-client';
import { DESK_NAMESPACE } from '../../shared/index.ts';
import { request } from '../stack.ts';
import { useBrowserStack } from './browser-stack.ts';
import {
  SHORT,
  endAfterThanks,
  axeViolations,
  currentConversation,
  engineCall,
  engineConversationId,
  focused,
  focusWhenShown,
  intercept,
  launcher,
  log,
  messageBox,
  openChat,
  panel,
  personSays,
  send,
  serverMessages,
  shownTexts,
  storedToken,
  waitForAnswer,
  waitReady,
} from './widget-helpers.ts';

/**
 * The chat panel in Chromium on the demo store: focus and Escape, message states, markdown-lite,
 * inert markup, quick replies, cards, handover, the survey, several conversations, the pre-chat
 * form, and a hostile page stylesheet.
 */
describe('the chat widget UI in Chromium', () => {
  // The AI's typing indicator shows at every message, however quick the answer (300 ms by default).
  const harness = useBrowserStack({ bff: { aiTypingAfterMs: 0 } });

  /** The demo store in a fresh context (its own localStorage). */
  async function store(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const opened = await harness.freshPage();
    await opened.page.goto(harness.stack.url);
    await launcher(opened.page).waitFor(SHORT);
    return opened;
  }

  it('moves focus into the panel on open and back to the launcher on close; Escape closes', async () => {
    const { page, problems } = await store();
    const button = launcher(page);
    expect(await button.getAttribute('aria-expanded')).not.toBe('true');

    await button.click();
    await waitReady(page);
    await expect.poll(() => focused(page), SHORT).toBe('textarea[Message]');
    expect(await page.getByRole('dialog').getAttribute('aria-label')).toMatch(/^Chat with /);
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await button.getAttribute('aria-label')).toBe('Close chat');

    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count(), SHORT).toBe(0);
    await expect.poll(() => focused(page), SHORT).toBe('button[Open chat].l');
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    // With the keyboard only: Enter on the launcher opens, Escape from any control inside closes.
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page), SHORT).toBe('textarea[Message]');
    await page.getByRole('button', { name: 'More options' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count(), SHORT).toBe(0);
    await expect.poll(() => focused(page), SHORT).toBe('button[Open chat].l');

    // The panel's own close button gives focus back to the launcher as well.
    await page.keyboard.press('Space');
    await expect.poll(() => focused(page), SHORT).toBe('textarea[Message]');
    await page.getByRole('dialog').getByRole('button', { name: 'Close chat' }).click();
    await expect.poll(() => panel(page).count(), SHORT).toBe(0);
    await expect.poll(() => focused(page), SHORT).toBe('button[Open chat].l');
    expect(problems).toEqual([]);
  });

  it('puts focus in the message box the moment the conversation comes back from the list, never on the button just removed', async () => {
    const { page, problems } = await store();
    await openChat(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    await page.getByRole('button', { name: 'Your conversations' }).click();
    await expect.poll(() => focused(page), SHORT).toBe('h2');
    expect(await focusWhenShown(page.getByRole('button', { name: 'Back to the conversation' }), 'textarea')).toBe('it');
    expect(problems).toEqual([]);
  });

  it('grows the text box with its lines up to five, then scrolls; Shift+Enter breaks a line, Enter sends and the box is one line again', async () => {
    const { page, problems } = await store();
    await openChat(page);
    const box = messageBox(page);
    const size = () =>
      box.evaluate((element: HTMLTextAreaElement) => ({
        height: element.clientHeight,
        content: element.scrollHeight,
        top: element.scrollTop,
        font: getComputedStyle(element).fontSize,
      }));
    const one = await size();
    // 16 px: iOS Safari zooms into a text box whose text is smaller.
    expect(one.font).toBe('16px');

    await box.click();
    for (const line of ['Hello,', 'my order', 'arrived broken']) {
      if (line !== 'Hello,') await page.keyboard.press('Shift+Enter');
      await page.keyboard.type(line);
    }
    expect(await box.inputValue()).toBe('Hello,\nmy order\narrived broken');
    const three = await size();
    // Every line shows: the box is as tall as its text, and nothing has scrolled away.
    expect(three.height).toBeGreaterThan(one.height * 2);
    expect(three.content).toBeLessThanOrEqual(three.height + 1);
    expect(three.top).toBe(0);

    for (let line = 0; line < 6; line += 1) {
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type(`more ${line}`);
    }
    const nine = await size();
    // Five lines at most, then the text scrolls inside the box.
    expect(nine.height).toBeLessThan(three.height * 2);
    expect(nine.height).toBeGreaterThan(three.height);
    expect(nine.content).toBeGreaterThan(nine.height);

    await page.keyboard.press('Enter');
    await expect.poll(() => box.inputValue(), SHORT).toBe('');
    await expect.poll(async () => (await size()).height, SHORT).toBe(one.height);
    await log(page).getByText('arrived broken', { exact: false }).first().waitFor(SHORT);
    expect(problems).toEqual([]);
  });

  it('shows a message as sending, then delivered once answered (its tab names its socket and gets no push of it); a refused message fails with a retry that works', async () => {
    const { context, page, problems } = await store();
    await openChat(page);

    // Hold the first send until the test lets it go, to see the "sending" state.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sentBodies: { socket_id?: string }[] = [];
    const hold = async (route: Route) => {
      if (route.request().method() === 'POST') {
        sentBodies.push(route.request().postDataJSON() as { socket_id?: string });
        await held;
      }
      await route.continue();
    };
    const stopHolding = await intercept(context, '**/v1/widget/conversations/*/messages', hold);
    await send(page, 'How do I return an item?');
    const mine = log(page).locator('.message.mine').last();
    await expect.poll(() => mine.locator('.status').textContent(), SHORT).toBe('Sending…');
    expect(await mine.getAttribute('data-status')).toBe('sending');
    release();
    await waitForAnswer(page, 'within 30 days');
    // The AI's answer says the customer's message arrived, which the widget shows as delivered: the AI read nothing.
    await expect.poll(() => mine.getAttribute('data-status'), SHORT).toBe('delivered');
    expect(await mine.locator('.status').textContent()).toBe('Delivered');
    await stopHolding();
    // The send named the tab's socket, and the message shows once all the same.
    expect(sentBodies).toHaveLength(1);
    expect(sentBodies[0]!.socket_id).toMatch(/^[\w-]{8,}$/);
    expect((await shownTexts(page)).filter((text) => text === 'How do I return an item?')).toHaveLength(1);

    // Grouped by sender with times: each group starts with its author and a <time>.
    const groups = log(page).locator('.message.first');
    expect(await groups.locator('.author').allTextContents()).toEqual(['You', 'Assistant']);
    expect(
      await groups
        .locator('time')
        .evaluateAll((times) => times.every((time) => !Number.isNaN(Date.parse(time.getAttribute('datetime') ?? '')))),
    ).toBe(true);

    // A message the BFF refuses for good is shown as not sent, with a Retry button.
    const refuse = async (route: Route) => {
      if (route.request().method() === 'POST')
        await route.fulfill({
          status: 422,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'unprocessable', message: 'Refused by the test.' } }),
        });
      else await route.continue();
    };
    const stopRefusing = await intercept(context, '**/v1/widget/conversations/*/messages', refuse);
    await send(page, 'Do you ship abroad?');
    const failed = log(page).locator('.message.mine', { hasText: 'Do you ship abroad?' });
    await expect.poll(() => failed.getAttribute('data-status'), SHORT).toBe('failed');
    expect(await failed.locator('.status').textContent()).toContain('Not sent');
    await stopRefusing();

    await failed.getByRole('button', { name: 'Retry' }).click();
    await waitForAnswer(page, 'Norway');
    await expect.poll(() => failed.getAttribute('data-status'), SHORT).toBe('delivered');
    expect((await shownTexts(page)).filter((text) => text === 'Do you ship abroad?')).toHaveLength(1);
    const server = await serverMessages(
      harness.stack,
      await storedToken(page, harness.stack.siteKey),
      await currentConversation(page, harness.stack.siteKey),
    );
    expect(server.filter((message) => message.text === 'Do you ship abroad?')).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it("shows the assistant's typing indicator while an answer is being written", async () => {
    const { page, problems } = await store();
    await openChat(page);
    // Every state the indicator was in, caught as it happens (it may last only milliseconds).
    await page.evaluate(() => {
      const root = document.querySelector('[data-parley]')!.shadowRoot!;
      const seen: string[] = [];
      (window as unknown as { typingSeen: string[] }).typingSeen = seen;
      new MutationObserver(() => {
        const typing = root.querySelector('.typing');
        const state = typing ? `shown:${typing.getAttribute('role')}:${typing.textContent}` : 'hidden';
        if (seen.at(-1) !== state) seen.push(state);
      }).observe(root, { childList: true, subtree: true });
    });
    await send(page, 'When will I get my refund?');
    await waitForAnswer(page, '5 business days');
    const seen = await page.evaluate(() => (window as unknown as { typingSeen: string[] }).typingSeen);
    expect(seen).toContain('shown:status:Writing an answer…');
    expect(seen.at(-1)).toBe('hidden');
    expect(problems).toEqual([]);
  });

  it('renders markdown-lite as elements: bold in an answer, italic, code, lists and safe links in text', async () => {
    const { page, problems } = await store();
    await openChat(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    const answer = log(page).locator('.message.theirs').last();
    expect(await answer.locator('strong').allTextContents()).toEqual(['My orders', 'Return an item']);
    expect(await answer.locator('.text').textContent()).not.toContain('**');

    await send(
      page,
      'Some *slanted* words, a `code-42` and a [help page](https://example.com/help?a=1&b=2)\n- first point\n- second **point**\n1. one\n2. two',
    );
    const mine = log(page).locator('.message.mine').last();
    await mine.locator('ul').waitFor(SHORT);
    expect(await mine.locator('em').allTextContents()).toEqual(['slanted']);
    expect(await mine.locator('code').allTextContents()).toEqual(['code-42']);
    expect(await mine.locator('ul > li').allTextContents()).toEqual(['first point', 'second point']);
    expect(await mine.locator('ul strong').allTextContents()).toEqual(['point']);
    expect(await mine.locator('ol > li').allTextContents()).toEqual(['one', 'two']);
    const link = mine.locator('a');
    expect(await link.count()).toBe(1);
    expect(await link.getAttribute('href')).toBe('https://example.com/help?a=1&b=2');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.textContent()).toBe('help page');
    expect(problems).toEqual([]);
  });

  it("keeps XSS payloads inert, in the customer's own text and in answers from people", async () => {
    const { page, problems } = await store();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await openChat(page);
    const payloads = [
      '<img src=x onerror="window.__pwned=(window.__pwned||0)+1;alert(1)">',
      '<script>window.__pwned=1;alert(2)</script>',
      '<svg/onload=window.__pwned=1>',
      '<iframe src="javascript:parent.__pwned=1"></iframe>',
      '"><b onmouseover=window.__pwned=1>bold</b><style>*{display:none!important}</style>',
      '<a href="javascript:window.__pwned=1">a link</a>',
      '[click me](javascript:window.__pwned=1) [data](data:text/html,<script>alert(3)</script>)',
      '<details open ontoggle=alert(4)>',
    ];
    const attack = payloads.join('\n');
    await send(page, attack);
    const mine = log(page).locator('.message.mine').last();
    await mine.locator('.text').waitFor(SHORT);
    await log(page).locator('.message.theirs').last().waitFor(SHORT);
    const dangerous = 'img, script, svg, iframe, b, style, details, object, embed, a';
    expect(await mine.locator(dangerous).count()).toBe(0);
    // Shown as the very text that was written.
    expect((await mine.locator('.text').innerText()).replace(/\n+/g, '\n')).toBe(attack);

    // The same from a person on the team, after a handover.
    await send(page, 'I want to talk to a person');
    await page.getByText('connected with a person').waitFor(SHORT);
    const conversationId = await currentConversation(page, harness.stack.siteKey);
    await personSays(harness.stack, conversationId, attack, '<img src=x onerror=alert(5)>');
    const theirs = log(page).locator('.message.theirs').last();
    await expect.poll(() => theirs.locator('.text').innerText(), SHORT).toContain('<script>');
    expect(await theirs.locator(dangerous).count()).toBe(0);
    expect(await theirs.locator('.author').textContent()).toBe('<img src=x onerror=alert(5)>');

    // The conversation list shows the last message as text, too.
    await page.getByRole('button', { name: 'Your conversations' }).click();
    await page.locator('[data-parley] .conversation').first().waitFor(SHORT);
    expect(await page.locator('[data-parley] .list').locator(dangerous).count()).toBe(0);

    expect(await log(page).locator(dangerous).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('quick replies send their value, and a card shows with an answer', async () => {
    const { context, page, problems } = await store();
    await openChat(page);
    await send(page, 'gift card');
    const choice = page.getByRole('button', { name: 'Items that cannot be returned' });
    await choice.waitFor(SHORT);
    await choice.click();
    await waitForAnswer(page, 'Gift cards, opened personal care');
    const texts = await shownTexts(page);
    // The choice was sent as the customer's message, and its buttons went away with the next answer (which asks "Did that help?").
    expect(texts[2]).toBe('Items that cannot be returned');
    expect(await choice.count()).toBe(0);
    expect(await log(page).locator('.choice').allTextContents()).toEqual(['Yes', 'No']);
    const server = await serverMessages(
      harness.stack,
      await storedToken(page, harness.stack.siteKey),
      await currentConversation(page, harness.stack.siteKey),
    );
    expect(server.filter((message) => message.author === 'customer').map((message) => message.text)).toEqual([
      'gift card',
      'Items that cannot be returned',
    ]);

    // A choice's label and value may differ: the value is what is sent. (The demo's choices have
    // equal ones, so the history read after a reload is rewritten to give the offer new labels.)
    // (Not "gift card" again: after that article it is a follow-up, answered from it.)
    await send(page, 'hello');
    await page.getByRole('button', { name: 'Talk to a person' }).waitFor(SHORT);
    type Page = { messages: { choices: { label: string; value: string }[] | null }[] };
    const relabelPage = (body: Page) => {
      for (const message of body.messages)
        if (message.choices)
          message.choices = [{ label: 'Show me the returns policy', value: 'How do I return an item?' }];
    };
    const relabel = async (route: Route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch();
      const body = (await response.json()) as Page;
      relabelPage(body);
      await route.fulfill({ response, json: body });
    };
    // After a reload the history comes first with the widget's start (config, list and history in one).
    const relabelStart = async (route: Route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { history: Page | null };
      if (body.history) relabelPage(body.history);
      await route.fulfill({ response, json: body });
    };
    const stopRelabelling = await intercept(context, '**/v1/widget/conversations/*/messages?*', relabel);
    const stopRelabellingStart = await intercept(context, '**/v1/widget/start', relabelStart);
    await page.reload();
    await openChat(page);
    const relabelled = page.getByRole('button', { name: 'Show me the returns policy' });
    await relabelled.waitFor(SHORT);
    await stopRelabelling();
    await stopRelabellingStart();
    await relabelled.click();
    await waitForAnswer(page, 'within 30 days');
    expect((await shownTexts(page)).at(-2)).toBe('How do I return an item?');

    await send(page, 'Where is my order 12345?');
    const card = log(page).locator('.card');
    await card.waitFor(SHORT);
    expect(await card.locator('.card-title').textContent()).toBe('Order 12345');
    expect(await card.locator('dt').allTextContents()).toEqual(['Status', 'Carrier', 'Arrives']);
    expect(await card.locator('dd').allTextContents()).toEqual(['on its way', 'DHL', 'on Thursday']);
    expect(problems).toEqual([]);
  });

  it('says who is answering: a notice and a new header after a handover, and again after a handback', async () => {
    const { page, problems } = await store();
    await openChat(page);
    const subtitle = page.locator('[data-parley] .subtitle');
    expect(await subtitle.textContent()).toBe('Replies instantly');

    await send(page, 'I want to talk to a person');
    const notice = log(page).locator('.notice');
    await notice.first().waitFor(SHORT);
    expect(await notice.allTextContents()).toEqual([
      "You're being connected with a person from our team. They will answer here.",
    ]);
    await expect.poll(() => subtitle.textContent(), SHORT).toBe('Our team is answering');
    // The notice is said in the widget's language, not in the English the server keeps.
    const setLocale = (locale: string) =>
      page.evaluate(
        (wanted) =>
          (window as unknown as { Parley(command: string, ...args: unknown[]): void }).Parley('setLocale', wanted),
        locale,
      );
    await setLocale('ar');
    await expect.poll(() => notice.allTextContents(), SHORT).toEqual(['نصلك الآن بشخص من فريقنا، وسيجيبك هنا.']);
    await setLocale('en');
    await expect
      .poll(() => notice.allTextContents(), SHORT)
      .toEqual(["You're being connected with a person from our team. They will answer here."]);

    const conversationId = await currentConversation(page, harness.stack.siteKey);
    await personSays(harness.stack, conversationId, 'Hi, I am Sam. Let me help.', 'Sam');
    await waitForAnswer(page, 'Let me help');
    expect(await log(page).locator('.message.theirs').last().locator('.author').textContent()).toBe('Sam');

    await engineCall(
      harness.stack,
      `/v1/conversations/${await engineConversationId(harness.stack, conversationId)}/handback`,
      {},
    );
    await expect
      .poll(() => notice.allTextContents(), SHORT)
      .toEqual([
        "You're being connected with a person from our team. They will answer here.",
        "You're chatting with our AI assistant again.",
      ]);
    await expect.poll(() => subtitle.textContent(), SHORT).toBe('Replies instantly');
    expect(problems).toEqual([]);
  });

  it("sets a person's messages apart from the AI's: their name, an avatar with their initials, a bubble of its own", async () => {
    const { page, problems } = await store();
    await openChat(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    const ai = log(page).locator('.message.ai.first').first();
    expect(await ai.locator('.avatar svg').count()).toBe(1);
    expect(await ai.locator('.author').textContent()).toBe('Assistant');
    expect(await ai.locator('.badge').textContent()).toBe('AI');
    // The customer's own messages have no avatar.
    expect(await log(page).locator('.message.mine .avatar').count()).toBe(0);

    await send(page, 'I want to talk to a person');
    await page.getByText('connected with a person').waitFor(SHORT);
    const conversationId = await currentConversation(page, harness.stack.siteKey);
    await personSays(harness.stack, conversationId, 'Hi, I am Sam. Let me help.', ' sam  lee jones');
    await personSays(harness.stack, conversationId, 'Your parcel is on its way.', ' sam  lee jones');
    await waitForAnswer(page, 'on its way');
    const person = log(page).locator('.message.human');
    expect(await person.count()).toBe(2);
    // One group: the name and the avatar head the person's first message only.
    expect(await person.locator('.avatar').allTextContents()).toEqual(['SL']);
    expect(await person.first().locator('.avatar').getAttribute('aria-hidden')).toBe('true');
    expect(await person.locator('.author').allTextContents()).toEqual(['sam  lee jones']);
    // The name, not the initials, is what assistive technology reads.
    const heard = await person.first().locator('.meta').ariaSnapshot();
    expect(heard).toContain('sam lee jones');
    expect(heard).not.toContain('SL');

    const look = (bubble: Locator) =>
      bubble.evaluate((element) => {
        const style = getComputedStyle(element);
        return { background: style.backgroundColor, border: `${style.borderTopWidth} ${style.borderTopStyle}` };
      });
    const [aiLook, personLook] = [await look(ai.locator('.bubble')), await look(person.first().locator('.bubble'))];
    expect(personLook.background).not.toBe(aiLook.background);
    expect(aiLook.border).toBe('0px none');
    expect(personLook.border).toBe('1px solid');

    // Another person (or one without a name) starts a group of their own.
    const engineId = await engineConversationId(harness.stack, conversationId);
    await engineCall(harness.stack, `/v1/conversations/${engineId}/human-messages`, { text: 'Taking over from Sam.' });
    await waitForAnswer(page, 'Taking over');
    expect(await person.locator('.avatar').allTextContents()).toEqual(['SL', '?']);
    expect(await person.locator('.author').allTextContents()).toEqual(['sam  lee jones', 'Support']);

    // Both looks keep their contrast (axe's WCAG AA rules) in the light and the dark theme.
    await page.mouse.move(0, 0);
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.locator('[data-parley] .root').getAttribute('data-theme'), SHORT).toBe('dark');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows the typing indicator while a person from the team types, as for the AI, and ends it when they stop or answer', async () => {
    const { page, problems } = await store();
    await openChat(page);
    await send(page, 'I want to talk to a person');
    await page.getByText('connected with a person').waitFor(SHORT);
    const conversationId = await currentConversation(page, harness.stack.siteKey);
    const [row] = await harness.stack.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [
      conversationId,
    ]);

    // The demo agent (seeded by every start, with a one-time link) types in the agent console's socket.
    const token = harness.stack.agentSignInUrl.split('#sign_in_token=')[1];
    const session = await request(`${harness.stack.url}/api/v1/sessions`, { body: { sign_in_token: token } });
    expect(session.status).toBe(200);
    const desk = io(harness.stack.url + DESK_NAMESPACE, {
      auth: { token: session.body.access_token, account_id: harness.stack.accountId },
      transports: ['websocket'],
      reconnection: false,
    });
    try {
      const command = (event: string, payload: unknown) => desk.timeout(SHORT.timeout).emitWithAck(event, payload);
      expect(await command('conversation:watch', { conversation_id: row!.id })).toMatchObject({ ok: true });
      const typing = log(page).locator('.typing[role=status]');
      expect(await typing.count()).toBe(0);

      expect(await command('typing:set', { conversation_id: row!.id, typing: true })).toMatchObject({ ok: true });
      await typing.waitFor(SHORT);
      expect(await typing.textContent()).toBe('Writing an answer…');
      expect(await command('typing:set', { conversation_id: row!.id, typing: false })).toMatchObject({ ok: true });
      await expect.poll(() => typing.count(), SHORT).toBe(0);

      expect(await command('typing:set', { conversation_id: row!.id, typing: true })).toMatchObject({ ok: true });
      await typing.waitFor(SHORT);
      await personSays(harness.stack, conversationId, 'Here I am.', 'Demo Agent');
      await waitForAnswer(page, 'Here I am.');
      await expect.poll(() => typing.count(), SHORT).toBe(0);
    } finally {
      desk.close();
    }
    expect(problems).toEqual([]);
  });

  it('closes after a thank-you and takes the survey (1–5 and a comment)', async () => {
    const { page, problems } = await store();
    await openChat(page);
    await endAfterThanks(page);
    expect(await messageBox(page).count()).toBe(0);

    const survey = page.locator('[data-parley] form.survey');
    await survey.waitFor(SHORT);
    expect(await survey.getByRole('group', { name: 'How would you rate this conversation?' }).count()).toBe(1);
    expect(await survey.getByRole('radio').count()).toBe(5);
    // The comment and Send come with a rating.
    const submit = survey.getByRole('button', { name: 'Send rating' });
    expect(await submit.count()).toBe(0);
    await survey.getByRole('radio', { name: '4 – Good' }).check();
    expect(await survey.getByRole('radio', { name: '4 – Good' }).isChecked()).toBe(true);
    await survey.getByRole('textbox', { name: /Anything you would like to add/ }).fill('Quick and clear.');
    await submit.click();
    await page.getByText('Thank you for your feedback!').waitFor(SHORT);

    const token = await storedToken(page, harness.stack.siteKey);
    const conversation = await request(
      `${harness.stack.url}/v1/widget/conversations/${await currentConversation(page, harness.stack.siteKey)}`,
      { token },
    );
    expect(conversation.body).toMatchObject({ status: 'resolved', survey: { rating: 4, comment: 'Quick and clear.' } });
    expect(problems).toEqual([]);
  });

  it('keeps several conversations: the list shows the earlier one, a new one starts, and the old one reopens with its messages', async () => {
    const { page, problems } = await store();
    await openChat(page);
    await send(page, 'Do you ship abroad?');
    await waitForAnswer(page, 'Norway');
    const first = await currentConversation(page, harness.stack.siteKey);

    // The customer ends it; then starts a new one.
    await page.getByRole('button', { name: 'More options' }).click();
    await page.getByRole('menuitem', { name: 'End conversation' }).click();
    await page.getByText('This conversation has ended.').waitFor(SHORT);
    await page.locator('[data-parley] .ended').getByRole('button', { name: 'New conversation' }).click();
    await waitReady(page);
    expect(await log(page).locator('.message').count()).toBe(0);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    const second = await currentConversation(page, harness.stack.siteKey);
    expect(second).not.toBe(first);

    // The list: newest first, with previews and states.
    await page.getByRole('button', { name: 'Your conversations' }).click();
    const items = page.locator('[data-parley] .list li');
    await expect.poll(() => items.count(), SHORT).toBe(2);
    expect(await items.nth(0).locator('.preview').textContent()).toContain('within 30 days');
    expect(await items.nth(0).locator('.tag').count()).toBe(0);
    expect(await items.nth(1).locator('.preview').textContent()).toContain('Norway');
    expect(await items.nth(1).locator('.details').textContent()).toContain('Resolved');

    // Reopen the old one: its messages, and only its messages.
    await items.nth(1).getByRole('button').click();
    await log(page).getByText('Norway').waitFor(SHORT);
    expect(await shownTexts(page)).toEqual(['Do you ship abroad?', expect.stringContaining('Norway')]);
    await page.getByText('This conversation has ended.').waitFor(SHORT);
    expect(await currentConversation(page, harness.stack.siteKey)).toBe(first);

    // And back to the newer one; "Back to the conversation" returns from the list.
    await page.getByRole('button', { name: 'Your conversations' }).click();
    await page.getByRole('button', { name: 'Back to the conversation' }).click();
    await log(page).getByText('Norway').waitFor(SHORT);
    await page.getByRole('button', { name: 'Your conversations' }).click();
    await items.nth(0).getByRole('button').click();
    await log(page).getByText('within 30 days').waitFor(SHORT);
    expect(await shownTexts(page)).toEqual(['How do I return an item?', expect.stringContaining('within 30 days')]);

    // A new conversation from the list.
    await page.getByRole('button', { name: 'Your conversations' }).click();
    await page.locator('[data-parley] .list').getByRole('button', { name: 'New conversation' }).click();
    await waitReady(page);
    expect(await log(page).locator('.message').count()).toBe(0);
    await page.getByRole('button', { name: 'Your conversations' }).click();
    await expect.poll(() => items.count(), SHORT).toBe(3);
    expect(problems).toEqual([]);
  });

  it('asks for a name and an email first when the inbox wants the pre-chat form, and checks them', async () => {
    await harness.stack.bffSql.query('UPDATE inboxes SET prechat_enabled = true');
    try {
      const { page, problems } = await store();
      await launcher(page).click();
      const form = page.locator('[data-parley] form.prechat');
      await form.waitFor(SHORT);
      expect(await messageBox(page).count()).toBe(0);
      const name = form.getByRole('textbox', { name: 'Name' });
      const email = form.getByRole('textbox', { name: 'Email' });
      const start = form.getByRole('button', { name: 'Start chatting' });

      await start.click();
      await expect.poll(() => form.getByRole('alert').textContent(), SHORT).toBe('Please enter your name.');
      await name.fill('Grace Hopper');
      await email.fill('grace@');
      await start.click();
      await expect.poll(() => form.getByRole('alert').textContent(), SHORT).toBe('Please enter a valid email address.');
      await email.fill('grace@example.com');
      await start.click();

      await waitReady(page);
      await send(page, 'Do you ship abroad?');
      await waitForAnswer(page, 'Norway');
      const rows = await harness.stack.bffSql.query<{ contact_name: string | null; contact_email: string | null }>(
        'SELECT contact_name, contact_email FROM conversations WHERE uuid = $1',
        [await currentConversation(page, harness.stack.siteKey)],
      );
      expect(rows).toEqual([{ contact_name: 'Grace Hopper', contact_email: 'grace@example.com' }]);

      // Once there is a conversation, the form does not come back after a reload.
      await page.reload();
      await openChat(page);
      await log(page).getByText('Norway').waitFor(SHORT);
      expect(await page.locator('[data-parley] form.prechat').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await harness.stack.bffSql.query('UPDATE inboxes SET prechat_enabled = false');
    }
  });

  describe("a hostile page stylesheet does not reach the widget's shadow DOM", () => {
    /** Elements of the widget to compare, by selector inside its shadow root. */
    const ELEMENTS = [
      '.l',
      '.panel',
      '.header',
      '.header h2',
      '.subtitle',
      '.icon',
      '.message.mine .bubble',
      '.message.theirs .bubble',
      '.text p',
      '.text strong',
      '.meta',
      '.status',
      '.choice',
      'textarea',
      '.composer button',
      '.who',
    ];
    const BOX = [
      'display',
      'position',
      'box-sizing',
      'width',
      'height',
      'margin-top',
      'margin-left',
      'padding-top',
      'padding-left',
      'border-top-width',
      'border-top-style',
      'border-top-color',
      'background-color',
      'border-radius',
      'opacity',
      'visibility',
      'transform',
    ];
    const TEXT = ['color', 'font-size', 'font-family', 'font-weight', 'line-height'];
    const INHERITED = [
      'letter-spacing',
      'word-spacing',
      'text-transform',
      'text-align',
      'text-indent',
      'text-shadow',
      'font-style',
      'white-space',
      'cursor',
      'font-variant-caps',
    ];

    async function probe(page: Page, properties: Record<string, readonly string[]>): Promise<Record<string, string>> {
      return page.evaluate(
        ({ selectors, properties }) => {
          const root = document.querySelector('[data-parley]')!.shadowRoot!;
          const out: Record<string, string> = {};
          for (const selector of selectors) {
            const element = root.querySelector(selector);
            if (!element) {
              out[selector] = 'missing';
              continue;
            }
            const style = getComputedStyle(element);
            const names = selector === '.l' ? (properties['launcher'] ?? []) : (properties['other'] ?? []);
            for (const name of names) out[`${selector} ${name}`] = style.getPropertyValue(name);
            const box = element.getBoundingClientRect();
            out[`${selector} box`] = [box.x, box.y, box.width, box.height].map((value) => Math.round(value)).join(',');
          }
          return out;
        },
        { selectors: ELEMENTS, properties },
      );
    }

    /** The store with the chat open on an answer with choices, and `css` added to the page afterwards. */
    async function compare(
      css: string,
      properties: Record<string, readonly string[]>,
    ): Promise<{ changed: string[]; problems: string[] }> {
      const { page, problems } = await store();
      await openChat(page);
      await send(page, 'How do I return an item?');
      await waitForAnswer(page, 'within 30 days');
      await send(page, 'gift card');
      await page.locator('[data-parley] .choice').first().waitFor(SHORT);
      await page.mouse.move(0, 0);
      // A scrollbar that comes and goes with the page's length would move fixed elements: keep it.
      await page.addStyleTag({ content: 'html { overflow-y: scroll !important; }' });
      const before = await probe(page, properties);
      expect(Object.values(before)).not.toContain('missing');
      await page.addStyleTag({ content: css });
      const after = await probe(page, properties);
      const changed = Object.keys(before)
        .filter((key) => before[key] !== after[key])
        .map((key) => `${key}: ${before[key]} → ${after[key]}`);
      return { changed, problems };
    }

    it('colours, fonts, boxes and display', async () => {
      const css = `
        * { color: red !important; font-size: 40px !important; display: block; font-family: "Comic Sans MS", cursive !important; font-weight: 900 !important;
            line-height: 3 !important; background: yellow !important; margin: 13px !important; padding: 17px !important; border: 5px dashed lime !important;
            box-sizing: content-box !important; border-radius: 0 !important; opacity: 1 !important; }
        button, textarea, input, section, div, p, span, h2, strong, header, form { all: unset !important; width: 7px !important; height: 7px !important; position: static !important; }
        button:hover, button:focus { background: black !important; color: black !important; }
        .panel, .root, .l, .bubble, .message, .composer, textarea { display: none !important; color: red !important; }`;
      const { changed, problems } = await compare(css, { launcher: [...BOX, 'color'], other: [...BOX, ...TEXT] });
      expect(changed).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('inherited text properties (letter-spacing, text-transform, text-align, white-space, …)', async () => {
      const css = `
        * { letter-spacing: 4px !important; word-spacing: 9px !important; text-transform: uppercase !important; text-align: right !important; text-indent: 30px !important;
            text-shadow: 2px 2px 2px lime !important; font-style: italic !important; white-space: nowrap !important; cursor: wait !important;
            font-variant-caps: small-caps !important; }`;
      const { changed, problems } = await compare(css, {
        launcher: [...BOX, 'color', ...INHERITED],
        other: [...BOX, ...TEXT, ...INHERITED],
      });
      expect(changed).toEqual([]);
      expect(problems).toEqual([]);
    });
  });
});
