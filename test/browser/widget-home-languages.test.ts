import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { randomToken } from '../../shared/index.ts';
import { addSiteKey, createInbox } from '../../bff/store/inboxes.ts';
import { useBrowserStack } from './browser-stack.ts';
import { SHORT, anyLauncher, axeViolations, hostPage } from './widget-helpers.ts';

/**
 * The home screen in the customer's language in Chromium (issue 28): the inbox's welcome title,
 * tagline, greeting and suggested questions come in the widget's language when the inbox has them
 * (migration 027; the BFF chooses, the widget shows what its config says), the inbox's own
 * otherwise, and again when the page changes the widget's language.
 */
describe("the widget home screen in the customer's language", () => {
  const harness = useBrowserStack({ pageServer: true });

  /** A shop whose inbox speaks English and German, and a page that embeds it with `attributes`. */
  async function bilingualShop(attributes: Record<string, string>) {
    const { bffSql } = harness.stack;
    const inbox = await createInbox(bffSql, { name: 'Garden shop', greeting: 'Hello! How can we help?' });
    await bffSql.query(
      `UPDATE inboxes SET welcome_title = 'Hi, gardener', welcome_tagline = 'We help with plants and orders.',
         suggested_questions = $2, greeting_translations = $3::jsonb, welcome_title_translations = $4::jsonb,
         welcome_tagline_translations = $5::jsonb, suggested_questions_translations = $6::jsonb WHERE id = $1`,
      [
        inbox.id,
        ['Where is my order?', 'Do you ship abroad?'],
        JSON.stringify({ de: 'Hallo! Wie können wir helfen?' }),
        JSON.stringify({ de: 'Hallo, Gärtnerin' }),
        JSON.stringify({ de: 'Wir helfen bei Pflanzen und Bestellungen.' }),
        JSON.stringify({ de: ['Wo ist meine Bestellung?', 'Liefern Sie ins Ausland?'] }),
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
  /** The home screen's welcome, greeting and suggested questions as the customer sees them. */
  async function homeOf(page: Page, suggestedLabel: string, firstQuestion: string) {
    const suggested = widget(page).getByRole('list', { name: suggestedLabel }).getByRole('button');
    await suggested.filter({ hasText: firstQuestion }).waitFor(SHORT);
    return {
      title: await widget(page).getByRole('heading', { level: 3 }).textContent(),
      tagline: await widget(page).locator('.home .tagline').textContent(),
      greeting: await widget(page).locator('.home .bubble').textContent(),
      questions: await suggested.allTextContents(),
    };
  }

  const GERMAN = {
    title: 'Hallo, Gärtnerin',
    tagline: 'Wir helfen bei Pflanzen und Bestellungen.',
    greeting: 'Hallo! Wie können wir helfen?',
    questions: ['Wo ist meine Bestellung?', 'Liefern Sie ins Ausland?'],
  };

  it("shows a German widget the inbox's German welcome, greeting and questions, and sends a German question", async () => {
    const { page, problems } = await bilingualShop({ 'data-locale': 'de' });
    expect(await homeOf(page, 'Häufige Fragen', 'Wo ist meine Bestellung?')).toEqual(GERMAN);
    expect(await widget(page).getByText('Hi, gardener').count()).toBe(0);
    expect(await axeViolations(page), 'home in German').toEqual([]);

    await widget(page).getByRole('button', { name: 'Liefern Sie ins Ausland?' }).click();
    await page.locator('[data-parley] .message.mine .text', { hasText: 'Liefern Sie ins Ausland?' }).waitFor(SHORT);
    expect(problems).toEqual([]);
  });

  it("shows the inbox's own welcome in a language it has no translation for, and German once the page switches", async () => {
    const { page, problems } = await bilingualShop({ 'data-locale': 'fr' });
    expect(await homeOf(page, 'Questions fréquentes', 'Where is my order?')).toEqual({
      title: 'Hi, gardener',
      tagline: 'We help with plants and orders.',
      greeting: 'Hello! How can we help?',
      questions: ['Where is my order?', 'Do you ship abroad?'],
    });
    await page.evaluate(() =>
      (window as unknown as { Parley(command: string, ...args: unknown[]): void }).Parley('setLocale', 'de'),
    );
    await expect.poll(() => homeOf(page, 'Häufige Fragen', 'Wo ist meine Bestellung?'), SHORT).toEqual(GERMAN);
    expect(problems).toEqual([]);
  });
});
