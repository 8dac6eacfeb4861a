import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { startStack, type TestStack } from '../stack.ts';
import { ARTIFACTS_DIR, FAKE_MEDIA, launchChromium } from './chromium.ts';
import { axeViolations, freshPage, launcher, log, messageBox, SHORT, waitReady } from './widget-helpers.ts';

/**
 * A customer records a voice note in the widget, in Chromium with a fake microphone (its beep):
 * the microphone button loads the recorder, which shows a timer and Cancel and Send; one press of
 * Send uploads the note (no attach tray), it plays in the transcript, and the BFF keeps it as audio.
 * A refused microphone is said in the customer's language.
 */

const recorder = (page: Page): Locator => page.getByRole('group', { name: 'Voice note' });
const tray = (page: Page): Locator => page.getByRole('group', { name: 'File to send' });
const mic = (page: Page, name = 'Record a voice note'): Locator => page.getByRole('button', { name });

describe('voice notes in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchChromium(FAKE_MEDIA)]);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('records two seconds with the microphone, sends the note with one press, plays it in the transcript, and the BFF keeps it as audio', async () => {
    const { context, page, problems } = await freshPage(browser);
    await page.goto(stack.url);
    await launcher(page).click();
    await waitReady(page);
    await messageBox(page).fill('I want to talk to a person');
    await messageBox(page).press('Enter');
    await log(page).getByText('connected with a person').waitFor(SHORT);

    await mic(page).click();
    const timer = recorder(page).getByRole('timer');
    await timer.waitFor(SHORT);
    // While recording, the composer's text box is out of the way and the timer counts.
    expect(await messageBox(page).isVisible()).toBe(false);
    await expect.poll(() => timer.textContent(), SHORT).toBe('0:02');
    expect(await timer.getAttribute('aria-label')).toBe('Recorded 0:02');
    const axe = await axeViolations(page);
    expect(axe, JSON.stringify(axe, null, 1)).toEqual([]);
    await recorder(page).getByRole('button', { name: 'Send voice note' }).click();
    await recorder(page).waitFor({ state: 'detached', ...SHORT });
    expect(await messageBox(page).isVisible()).toBe(true);

    // One press sent it: it plays in the transcript, and no attach tray asks for a second press.
    const player = log(page).locator('audio');
    await player.waitFor(SHORT);
    expect(await tray(page).count()).toBe(0);
    expect(await player.getAttribute('aria-label')).toMatch(/^Voice note voice-note-.*\.weba$/);
    // The browser can play what it recorded: it reads a duration of about two seconds.
    await expect
      .poll(
        () =>
          player.evaluate(
            (element: HTMLAudioElement) =>
              new Promise<number>((resolve) => {
                if (element.readyState >= 1 && Number.isFinite(element.duration)) return resolve(element.duration);
                element.currentTime = 1e6; // WebM from MediaRecorder names no duration until it is sought.
                element.ondurationchange = () => resolve(element.duration);
                setTimeout(() => resolve(element.duration), 1000);
              }),
          ),
        SHORT,
      )
      .toBeGreaterThan(1);

    const kept = await stack.bffSql.query<{ content_type: string; size: number }>(
      `SELECT a.content_type, a.size FROM attachments a JOIN messages m ON m.id = a.message_id
        WHERE a.uploader = 'widget' AND a.content_type LIKE 'audio/%'`,
    );
    expect(kept).toEqual([expect.objectContaining({ content_type: 'audio/webm' })]);
    expect(kept[0]!.size).toBeGreaterThan(1000);
    await page.screenshot({ path: `${ARTIFACTS_DIR}/widget-voice-note.png` });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says in the customer’s language that the microphone was refused, and Cancel brings the text box back', async () => {
    const { context, page, problems } = await freshPage(browser, { locale: 'de-DE' });
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await page.goto(stack.url);
    await launcher(page).click();
    await waitReady(page, page.getByRole('textbox', { name: 'Nachricht' }));
    await mic(page, 'Sprachnachricht aufnehmen').click();
    await recorder(page)
      .or(page.getByRole('group', { name: 'Sprachnachricht' }))
      .getByRole('alert')
      .getByText(/Das Mikrofon ist nicht erlaubt/)
      .waitFor(SHORT);
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    await page.getByRole('textbox', { name: 'Nachricht' }).waitFor(SHORT);
    await expect
      .poll(() =>
        page.evaluate(() =>
          document.querySelector('[data-parley]')!.shadowRoot!.activeElement?.getAttribute('aria-label'),
        ),
      )
      .toBe('Sprachnachricht aufnehmen');
    expect(problems).toEqual([]);
    await context.close();
  });
});
