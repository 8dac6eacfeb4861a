import { describe, expect, it } from 'vitest';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { useBrowserStack } from './browser-stack.ts';
import { ARTIFACTS_DIR } from './chromium.ts';
import { catalogue as ar } from '../../widget/app/i18n/ar.ts';
import { catalogue as de } from '../../widget/app/i18n/de.ts';
import { en } from '../../widget/app/i18n/en.ts';
import { catalogue as es } from '../../widget/app/i18n/es.ts';
import { catalogue as fr } from '../../widget/app/i18n/fr.ts';
import { catalogue as ja } from '../../widget/app/i18n/ja.ts';
import type { Catalogue } from '../../widget/app/i18n/index.ts';
import {
  SHORT,
  anyLauncher,
  axeViolations,
  launcher,
  log,
  messageBox,
  openChat,
  panel,
  send,
  waitForAnswer,
  waitReady,
  type AxeViolation,
} from './widget-helpers.ts';

/**
 * Accessibility (axe-core, WCAG 2.2 AA), languages, themes and the phone layout, in Chromium, with
 * the screenshots kept as artifacts: widget-light.png, widget-dark.png, widget-rtl.png and
 * widget-phone.png in test-results/.
 */

const CATALOGUES: Record<string, Catalogue> = { en, de, fr, es, ar, ja };
/** The Send button in each language, written out here rather than read from the catalogues. */
const SEND: Record<string, string> = { en: 'Send', de: 'Senden', fr: 'Envoyer', es: 'Enviar', ar: 'إرسال', ja: '送信' };

const describeViolations = (violations: AxeViolation[]) =>
  violations
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes.map((node) => `  ${JSON.stringify(node.target)} ${node.summary ?? ''}`).join('\n')}`,
    )
    .join('\n');

/** WCAG contrast of every text in the widget against the background it is drawn on. */
function lowContrastTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const parse = (color: string): [number, number, number, number] => {
      const parts = color.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0];
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
    };
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const luminance = ([r, g, b]: number[]) => 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    const background = (element: Element | null): number[] => {
      for (
        let current = element;
        current;
        current = current.parentElement ?? (current.getRootNode() as ShadowRoot).host ?? null
      ) {
        const color = parse(getComputedStyle(current).backgroundColor);
        if (color[3] > 0.9) return color;
      }
      return [255, 255, 255, 1];
    };
    const root = document.querySelector('[data-parley]')!.shadowRoot!;
    const problems: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.textContent?.trim()) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      if (
        box.width <= 1 ||
        box.height <= 1 ||
        style.visibility === 'hidden' ||
        element.closest('[aria-hidden=true], .visually-hidden, :disabled')
      )
        continue;
      const [fg, bg] = [parse(style.color), background(element)];
      const [light, dark] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
      const ratio = (light! + 0.05) / (dark! + 0.05);
      if (ratio < 4.5)
        problems.push(
          `${element.tagName.toLowerCase()}.${element.className} "${node.textContent.trim().slice(0, 30)}": ${ratio.toFixed(2)} (${style.color} on rgb(${bg.slice(0, 3).join(', ')}))`,
        );
    }
    return problems;
  });
}

/** Every button, text box and input of the widget has an accessible name. */
function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.querySelector('[data-parley]')!.shadowRoot!;
    return [...root.querySelectorAll('button, textarea, input, select, [role=button]')]
      .filter((control) => {
        const named =
          control.getAttribute('aria-label')?.trim() ||
          control.getAttribute('aria-labelledby') ||
          control.textContent?.trim() ||
          control.closest('label')?.textContent?.trim();
        return !named;
      })
      .map((control) => control.outerHTML.slice(0, 120));
  });
}

describe('accessibility, languages and themes of the widget in Chromium', () => {
  const harness = useBrowserStack();

  async function store(options: BrowserContextOptions = {}): Promise<{ page: Page; problems: string[] }> {
    const { page, problems } = await harness.freshPage(options);
    await page.goto(harness.stack.url);
    await anyLauncher(page).waitFor(SHORT);
    return { page, problems };
  }

  /** A conversation that shows most of what the widget can draw: bold text, a card, quick replies. */
  async function converse(page: Page): Promise<void> {
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    await send(page, 'Where is my order 12345?');
    await log(page).locator('.card').waitFor(SHORT);
    await send(page, 'gift card');
    await log(page).getByRole('button', { name: 'Talk to a person' }).waitFor(SHORT);
    // Settle: the launcher and the panel draw after the last answer; no input keeps a caret blinking.
    await page.mouse.move(0, 0);
  }

  async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
    const violations = await axeViolations(page);
    expect(violations, `${where}:\n${describeViolations(violations)}`).toEqual([]);
  }

  it('light theme: no axe violations (closed, chat, list, survey), every control labelled, contrast ≥ 4.5:1', async () => {
    const { page, problems } = await store({ colorScheme: 'light' });
    await expectNoAxeViolations(page, 'closed');
    await openChat(page);
    expect(await page.locator('[data-parley] .root').getAttribute('data-theme')).toBe('light');
    await converse(page);
    // New messages are announced: the conversation is a polite live log.
    expect(await log(page).getAttribute('aria-live')).toBe('polite');
    await expectNoAxeViolations(page, 'chat, light');
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await lowContrastTexts(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS_DIR}/widget-light.png` });

    await page.getByRole('button', { name: 'Your conversations' }).click();
    await page.locator('[data-parley] .list li').first().waitFor(SHORT);
    await expectNoAxeViolations(page, 'list, light');
    expect(await lowContrastTexts(page)).toEqual([]);
    await page.getByRole('button', { name: 'Back to the conversation' }).click();

    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    await send(page, 'thanks');
    await page.locator('[data-parley] form.survey').waitFor(SHORT);
    await page.getByRole('radio', { name: '5 – Excellent' }).check();
    await expectNoAxeViolations(page, 'survey, light');
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await lowContrastTexts(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('dark theme: mode auto follows the system (colorScheme dark), no axe violations, contrast ≥ 4.5:1', async () => {
    const { page, problems } = await store({ colorScheme: 'dark' });
    await openChat(page);
    const root = page.locator('[data-parley] .root');
    await expect.poll(() => root.getAttribute('data-theme'), SHORT).toBe('dark');
    expect(await panel(page).evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(21, 24, 29)');
    await converse(page);
    await expectNoAxeViolations(page, 'chat, dark');
    expect(await lowContrastTexts(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS_DIR}/widget-dark.png` });

    await page.getByRole('button', { name: 'Your conversations' }).click();
    await page.locator('[data-parley] .list li').first().waitFor(SHORT);
    await expectNoAxeViolations(page, 'list, dark');
    await page.getByRole('button', { name: 'Back to the conversation' }).click();

    // Auto keeps following the system as it changes; an explicit mode wins over it.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => root.getAttribute('data-theme'), SHORT).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => root.getAttribute('data-theme'), SHORT).toBe('dark');
    await page.evaluate(() =>
      (window as unknown as { Parley(command: string, ...args: unknown[]): void }).Parley('setTheme', {
        mode: 'light',
      }),
    );
    await expect.poll(() => root.getAttribute('data-theme'), SHORT).toBe('light');
    expect(await panel(page).evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      'rgb(255, 255, 255)',
    );
    expect(problems).toEqual([]);
  });

  it('right-to-left in Arabic: dir=rtl, mirrored layout, its own catalogue, no axe violations', async () => {
    const { page, problems } = await store({ locale: 'ar' });
    const button = anyLauncher(page);
    await expect.poll(() => button.getAttribute('aria-label'), SHORT).toBe(ar.openChat);
    await button.click();
    const box = page.getByRole('textbox', { name: ar.message });
    await waitReady(page, box);
    const root = page.locator('[data-parley] .root');
    expect(await root.getAttribute('dir')).toBe('rtl');
    expect(await root.getAttribute('lang')).toBe('ar');
    expect(await page.locator('[data-parley] .composer button[type=submit]').textContent()).toBe(SEND['ar']);
    expect(await box.getAttribute('placeholder')).toBe(ar.placeholder);
    expect(await page.locator('[data-parley] .subtitle').textContent()).toBe(ar.aiAnswering);

    await send(page, 'How do I return an item?', box);
    await waitForAnswer(page, 'within 30 days');
    await page.mouse.move(0, 0);
    // Mirrored: the customer's own messages sit on the left, answers on the right.
    const mine = (await log(page).locator('.message.mine .bubble').first().boundingBox())!;
    const theirs = (await log(page).locator('.message.theirs .bubble').first().boundingBox())!;
    expect(mine.x).toBeLessThan(theirs.x);
    const composer = (await box.boundingBox())!;
    const sendButton = (await page.locator('[data-parley] .composer button[type=submit]').boundingBox())!;
    expect(sendButton.x).toBeLessThan(composer.x);
    // Answered by the AI, so delivered (no one read it), in Arabic.
    expect(await log(page).locator('.message.mine .status').first().textContent()).toBe(ar.delivered);

    await expectNoAxeViolations(page, 'chat, ar');
    expect(await unlabelledControls(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS_DIR}/widget-rtl.png` });
    expect(problems).toEqual([]);
  });

  it('renders every locale from its own catalogue (setLocale), with dir=rtl only for Arabic', async () => {
    const { page, problems } = await store();
    await openChat(page);
    const root = page.locator('[data-parley] .root');
    for (const locale of ['de', 'fr', 'es', 'ar', 'ja', 'en']) {
      const catalogue = CATALOGUES[locale]!;
      await page.evaluate(
        (wanted) =>
          (window as unknown as { Parley(command: string, ...args: unknown[]): void }).Parley('setLocale', wanted),
        locale,
      );
      await expect
        .poll(() => page.locator('[data-parley] .composer button[type=submit]').textContent(), SHORT)
        .toBe(SEND[locale]);
      expect(await root.getAttribute('lang')).toBe(locale);
      expect(await root.getAttribute('dir')).toBe(locale === 'ar' ? 'rtl' : 'ltr');
      const shown = await page.evaluate(() => {
        const shadow = document.querySelector('[data-parley]')!.shadowRoot!;
        return {
          placeholder: shadow.querySelector('textarea')!.getAttribute('placeholder'),
          message: shadow.querySelector('textarea')!.getAttribute('aria-label'),
          subtitle: shadow.querySelector('.subtitle')!.textContent,
          launcher: shadow.querySelector('.l')!.getAttribute('aria-label'),
          icons: [...shadow.querySelectorAll('.header .icon')].map((icon) => icon.getAttribute('aria-label')),
        };
      });
      expect(shown).toEqual({
        placeholder: catalogue.placeholder,
        message: catalogue.message,
        subtitle: catalogue.aiAnswering,
        launcher: catalogue.closeChat,
        icons: [catalogue.conversations, catalogue.moreOptions, catalogue.closeChat],
      });
      if (locale !== 'en') expect(catalogue.send).not.toBe(en.send);
    }
    expect(problems).toEqual([]);
  });

  it("takes the browser's language by default (de-DE → German, fr-CA → French, pt-BR → English)", async () => {
    for (const [browserLocale, expected] of [
      ['de-DE', 'de'],
      ['fr-CA', 'fr'],
      ['pt-BR', 'en'],
    ] as const) {
      const { page, problems } = await store({ locale: browserLocale });
      const button = launcher(page);
      await expect.poll(() => button.getAttribute('aria-label'), SHORT).toBe(CATALOGUES[expected]!.openChat);
      await button.click();
      await waitReady(page, page.getByRole('textbox', { name: CATALOGUES[expected]!.message }));
      await expect
        .poll(() => page.locator('[data-parley] .composer button[type=submit]').textContent(), SHORT)
        .toBe(SEND[expected]);
      expect(await page.locator('[data-parley] .root').getAttribute('lang')).toBe(expected);
      expect(problems).toEqual([]);
    }
  });

  it("tells the engine the widget's language: a question the articles do not answer gets the AI's not-sure in German, with a person to talk to", async () => {
    const { page, problems } = await store({ locale: 'de-DE' });
    await expect.poll(() => anyLauncher(page).getAttribute('aria-label'), SHORT).toBe(de.openChat);
    await anyLauncher(page).click();
    const box = page.getByRole('textbox', { name: de.message });
    await waitReady(page, box);
    await send(page, 'Verkauft ihr Gutscheine für Lehrer?', box);
    await waitForAnswer(page, 'Ich bin nicht sicher');
    await expect
      .poll(() => log(page).getByRole('button', { name: 'Mit einer Person sprechen' }).count(), SHORT)
      .toBe(1);
    expect(problems).toEqual([]);
  });

  it('on a phone (375×740) the panel fills the screen and the message box stays inside the visual viewport', async () => {
    const { page, problems } = await store({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    await anyLauncher(page).tap();
    await waitReady(page);
    const box = (await panel(page).boundingBox())!;
    expect([box.x, box.y, box.width, box.height].map(Math.round)).toEqual([0, 0, 375, 740]);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    await send(page, 'Where is my order 12345?');
    await log(page).locator('.card').waitFor(SHORT);
    const composer = (await messageBox(page).boundingBox())!;
    expect(composer.y + composer.height).toBeLessThanOrEqual(740);
    await expectNoAxeViolations(page, 'phone');
    await page.screenshot({ path: `${ARTIFACTS_DIR}/widget-phone.png` });

    // The on-screen keyboard shrinks the visual viewport; the panel follows it (visualViewport),
    // so the message box stays visible above the keyboard. Here the visual viewport is halved.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 2 });
    await expect.poll(() => page.evaluate(() => window.visualViewport!.height), SHORT).toBe(370);
    await expect.poll(async () => Math.round((await panel(page).boundingBox())!.height), SHORT).toBe(370);
    const visible = await page.evaluate(() => ({
      top: window.visualViewport!.offsetTop,
      bottom: window.visualViewport!.offsetTop + window.visualViewport!.height,
    }));
    const inside = (await messageBox(page).boundingBox())!;
    expect(inside.y).toBeGreaterThanOrEqual(visible.top);
    expect(inside.y + inside.height).toBeLessThanOrEqual(visible.bottom);
    await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 1 });
    await expect.poll(async () => Math.round((await panel(page).boundingBox())!.height), SHORT).toBe(740);
    expect(problems).toEqual([]);
  });
});
