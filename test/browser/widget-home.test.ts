import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { randomToken } from '../../shared/index.ts';
import { addSiteKey, createInbox } from '../../bff/store/inboxes.ts';
import { request } from '../stack.ts';
import { shopKnowledgeInEveryLanguage } from '../shop-fixtures.ts';
import { useBrowserStack } from './browser-stack.ts';
import { SHORT, anyLauncher, axeViolations, focusWhenShown, hostPage, log, waitReady } from './widget-helpers.ts';

/**
 * The home screen in Chromium (issue 16): before the first message the chat shows the welcome, the
 * greeting in the widget's language, up to three suggested questions that send themselves, a
 * search of the approved help articles' titles (the demo's knowledge, English and German) in the
 * widget's language, and an away notice outside working hours. Each test has an inbox of its own,
 * set as an administrator would.
 */
describe('the widget home screen before the first message', () => {
  const harness = useBrowserStack({ pageServer: true });

  // The shop's German articles beside its English ones, approved as a person would through the engine's API.
  beforeAll(async () => {
    const { engineUrl, apiKey } = harness.stack;
    for (const document of await shopKnowledgeInEveryLanguage()) {
      if (document.locale !== 'de') continue;
      const added = await request(`${engineUrl}/v1/knowledge`, { token: apiKey, body: document });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      const approved = await request(`${engineUrl}/v1/knowledge/${added.body.id}/approve`, {
        token: apiKey,
        method: 'POST',
      });
      expect(approved.status).toBe(200);
    }
  });

  /** A new inbox with the presentation columns given (migration 023), its sandbox site key, and a page that embeds it. */
  async function shopWith(
    settings: {
      greeting?: string;
      welcome_title?: string;
      suggested_questions?: string[];
      greeting_translations?: Record<string, string>;
      away?: boolean;
    },
    attributes: Record<string, string> = {},
  ) {
    const { bffSql } = harness.stack;
    const inbox = await createInbox(bffSql, {
      name: 'Garden shop',
      greeting: settings.greeting ?? 'Hello! How can we help?',
    });
    await bffSql.query(
      `UPDATE inboxes SET welcome_title = $2, suggested_questions = $3, greeting_translations = $4::jsonb,
         working_hours_enabled = $5, working_hours = $6::jsonb WHERE id = $1`,
      [
        inbox.id,
        settings.welcome_title ?? '',
        settings.suggested_questions ?? [],
        JSON.stringify(settings.greeting_translations ?? {}),
        settings.away ?? false,
        JSON.stringify(
          Array.from({ length: 7 }, (_, day_of_week) => ({
            day_of_week,
            closed_all_day: true,
            open_all_day: false,
            open_hour: null,
            open_minutes: null,
            close_hour: null,
            close_minutes: null,
          })),
        ),
      ],
    );
    const key = await addSiteKey(bffSql, inbox.id, 'sandbox');
    const { page, problems } = await harness.freshPage();
    await page.goto(
      harness.pages.set(`/${randomToken(8)}`, hostPage(harness.stack, { 'data-site-key': key.key, ...attributes })),
    );
    await anyLauncher(page).click();
    return { page, problems };
  }

  const widget = (page: Page) => page.locator('[data-parley]');

  it("offers the inbox's suggested questions under its welcome, and sends the one clicked as the customer's message", async () => {
    const { page, problems } = await shopWith({
      welcome_title: 'Hi, gardener',
      suggested_questions: ['Where is my order?', 'Do you ship abroad?'],
    });
    await waitReady(page);
    // The message box keeps the focus the panel gave it when the home screen appears.
    const box = widget(page).getByRole('textbox', { name: 'Message' });
    await widget(page).getByRole('searchbox').waitFor(SHORT);
    expect(await box.evaluate((element) => element === (element.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await expect.poll(() => widget(page).getByRole('heading', { name: 'Hi, gardener' }).isVisible(), SHORT).toBe(true);
    const suggested = widget(page).getByRole('list', { name: 'Suggested questions' });
    await suggested.waitFor(SHORT);
    expect(await suggested.getByRole('button').allTextContents()).toEqual([
      'Where is my order?',
      'Do you ship abroad?',
    ]);
    expect(await widget(page).getByText('Hello! How can we help?').isVisible()).toBe(true);

    await suggested.getByRole('button', { name: 'Do you ship abroad?' }).click();
    await log(page).locator('.message.mine .text', { hasText: 'Do you ship abroad?' }).waitFor(SHORT);
    // The home screen gives way to the conversation.
    expect(await suggested.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('offers the first help articles when the inbox sets no questions, and finds, opens and leaves an article', async () => {
    const { page, problems } = await shopWith({});
    await waitReady(page);
    const suggested = widget(page).getByRole('list', { name: 'Suggested questions' });
    await expect
      .poll(() => suggested.getByRole('button').allTextContents(), SHORT)
      .toEqual(['Your account', 'Orders', 'Payments']);

    const search = widget(page).getByRole('searchbox', { name: 'Search our help articles' });
    await search.fill('refund');
    const results = widget(page).getByRole('list', { name: 'Articles' });
    await expect.poll(() => results.getByRole('button').allTextContents(), SHORT).toEqual(['Returns and refunds']);
    expect(await axeViolations(page), 'home with results').toEqual([]);
    await results.getByRole('button', { name: 'Returns and refunds' }).click();
    const heading = widget(page).getByRole('heading', { name: 'Returns and refunds', level: 3 });
    await heading.waitFor(SHORT);
    await expect
      .poll(() => heading.evaluate((element) => (element.getRootNode() as ShadowRoot).activeElement === element), SHORT)
      .toBe(true);
    // The article's own first heading repeats its title: it is shown once, as the heading.
    expect(await widget(page).locator('article').getByText('Returns and refunds', { exact: true }).count()).toBe(1);
    expect(await axeViolations(page), 'an article').toEqual([]);

    // Back shows the search with focus in it at once: looked at as soon as the search is in the page, not a frame later.
    expect(await focusWhenShown(widget(page).getByRole('button', { name: 'Back' }), 'input[type="search"]')).toBe('it');
    await expect.poll(() => search.inputValue(), SHORT).toBe('refund');
    await search.fill('nothing like this at all');
    await widget(page)
      .getByRole('status')
      .filter({ hasText: 'No article matches “nothing like this at all”.' })
      .waitFor(SHORT);

    await search.fill('shipping');
    await results.getByRole('button', { name: 'Shipping and delivery' }).click();
    await widget(page).getByRole('button', { name: 'Ask about this' }).click();
    await log(page)
      .locator('.message.mine .text', { hasText: 'Tell me more about: Shipping and delivery' })
      .waitFor(SHORT);
    expect(problems).toEqual([]);
  });

  it("offers and finds a German widget's help articles in German, and English ones once the page switches to English", async () => {
    const { page, problems } = await shopWith({}, { 'data-locale': 'de' });
    const suggested = widget(page).getByRole('list', { name: 'Häufige Fragen' });
    await expect
      .poll(() => suggested.getByRole('button').allTextContents(), SHORT)
      .toEqual(['Ihr Kundenkonto', 'Bestellungen', 'Bezahlung']);

    const search = widget(page).getByRole('searchbox', { name: 'Hilfeartikel durchsuchen' });
    const results = widget(page).getByRole('list', { name: 'Artikel' });
    await search.fill('rucksendung');
    await expect
      .poll(() => results.getByRole('button').allTextContents(), SHORT)
      .toEqual(['Rücksendung und Erstattung']);
    // An English word finds nothing: the German visitor is not shown the English articles.
    await search.fill('refunds');
    await expect.poll(() => results.count(), SHORT).toBe(0);
    await search.fill('Lieferung');
    await results.getByRole('button', { name: 'Versand und Lieferung' }).click();
    await widget(page).getByRole('heading', { name: 'Versand und Lieferung', level: 3 }).waitFor(SHORT);
    expect(await axeViolations(page), 'a German article').toEqual([]);

    await widget(page).getByRole('button', { name: 'Zurück' }).click();
    await page.evaluate(() =>
      (window as unknown as { Parley(command: string, ...args: unknown[]): void }).Parley('setLocale', 'en'),
    );
    await expect
      .poll(
        () => widget(page).getByRole('list', { name: 'Suggested questions' }).getByRole('button').allTextContents(),
        SHORT,
      )
      .toEqual(['Your account', 'Orders', 'Payments']);
    await widget(page).getByRole('searchbox', { name: 'Search our help articles' }).fill('refund');
    const english = widget(page).getByRole('list', { name: 'Articles' });
    await expect.poll(() => english.getByRole('button').allTextContents(), SHORT).toEqual(['Returns and refunds']);
    expect(problems).toEqual([]);
  });

  it('greets in Arabic when the inbox has an Arabic greeting and the widget speaks Arabic', async () => {
    const { page, problems } = await shopWith(
      {
        greeting: 'Welcome to the garden shop',
        greeting_translations: { ar: 'أهلًا بك في متجر الحديقة' },
        suggested_questions: ['أين طلبي؟'],
      },
      { 'data-locale': 'ar' },
    );
    await widget(page).getByText('أهلًا بك في متجر الحديقة').waitFor(SHORT);
    expect(await widget(page).getByText('Welcome to the garden shop').count()).toBe(0);
    // The greeting can show before the home screen's lazy part has drawn the suggestions: wait for them.
    const suggested = widget(page).getByRole('list', { name: 'أسئلة مقترحة' }).getByRole('button');
    await suggested.first().waitFor(SHORT);
    expect(await suggested.allTextContents()).toEqual(['أين طلبي؟']);
    expect(await widget(page).getByRole('searchbox', { name: 'ابحث في مقالات المساعدة' }).isVisible()).toBe(true);
    expect(await axeViolations(page), 'home in Arabic').toEqual([]);
    expect(problems).toEqual([]);
  });

  it('says the shop is away outside its working hours, and that the AI still answers', async () => {
    const { page, problems } = await shopWith({ away: true });
    await widget(page)
      .getByRole('status')
      .filter({
        hasText: 'We are away right now and will answer when we are back. Our AI assistant answers in the meantime.',
      })
      .waitFor(SHORT);
    expect(problems).toEqual([]);
  });
});
