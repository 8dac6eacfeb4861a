import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { desk } from '../helpdesk-client.ts';
import { pngOf } from '../media-fixtures.ts';
import { useBrowserStack } from './browser-stack.ts';
import { ARTIFACTS_DIR } from './chromium.ts';
import { axeViolations, launcher, log, messageBox, SHORT, waitReady } from './widget-helpers.ts';

/**
 * A customer sends photos in the widget, in Chromium: one picked with the attach button's file
 * input and one pasted into the message box, each shown in a tray with a preview and sent with
 * its progress, then shown as a thumbnail; a file the widget or the BFF refuses is said why. The
 * agent console shows the same photos to the person answering.
 */

/** A real PNG a browser draws (the fixtures' headers are enough for the BFF's checks, not for an <img>): one colour, `width`×`height`. */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, not interlaced
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const fileInput = (page: Page): Locator => page.locator('[data-parley] input[type=file]');
const tray = (page: Page): Locator => page.getByRole('group', { name: 'File to send' });

/** Waits until an <img> has drawn its pixels (a broken or unloaded image has no natural width). */
async function expectDrawn(image: Locator, width: number): Promise<void> {
  await image.waitFor(SHORT);
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth), SHORT).toBe(width);
}

describe('attachments in Chromium', () => {
  const harness = useBrowserStack();

  it('sends a picked photo and a pasted one from the widget, refuses bad files clearly, and shows the photos to the agent', async () => {
    const { stack } = harness;
    const customer = await harness.freshPage();
    const { page } = customer;
    await page.goto(stack.url);
    await launcher(page).click();
    await waitReady(page);
    // With people answering, the AI stays quiet and the conversation is in the agent's list.
    await messageBox(page).fill('I want to talk to a person');
    await messageBox(page).press('Enter');
    await log(page).getByText('connected with a person').waitFor(SHORT);

    // The attach button is the file input, named for everyone.
    await expect.poll(() => fileInput(page).getAttribute('aria-label')).toBe('Attach a file');
    await fileInput(page).setInputFiles({
      name: 'broken-mug.png',
      mimeType: 'image/png',
      buffer: solidPng(120, 90, [200, 40, 40]),
    });
    await tray(page).waitFor(SHORT);
    await expectDrawn(tray(page).locator('img'), 120);
    expect(await tray(page).textContent()).toContain('broken-mug.png');
    const axeWithTray = await axeViolations(page);
    expect(axeWithTray, JSON.stringify(axeWithTray, null, 1)).toEqual([]);
    await tray(page).getByRole('button', { name: 'Send file' }).click();
    await tray(page).waitFor({ state: 'detached', ...SHORT });
    const picked = log(page).getByRole('link', { name: 'Open broken-mug.png full size' });
    await expectDrawn(picked.locator('img'), 120);

    // A pasted image goes to the tray the same way.
    const pasted = solidPng(64, 48, [30, 120, 200]).toString('base64');
    await page.evaluate((base64) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'screenshot.png', { type: 'image/png' }));
      const box = document.querySelector('[data-parley]')!.shadowRoot!.querySelector('textarea')!;
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, pasted);
    await tray(page).getByRole('button', { name: 'Send file' }).click();
    await expectDrawn(log(page).getByRole('link', { name: 'Open screenshot.png full size' }).locator('img'), 64);

    // The thumbnail opens the photo itself, full size, in a tab of its own.
    const [opened] = await Promise.all([customer.context.waitForEvent('page'), picked.click()]);
    await opened.waitForLoadState();
    expect(opened.url()).toMatch(/^blob:/);
    await opened.close();

    // Refused before it leaves: a file the widget cannot send is said so at once, and Send stays off.
    await fileInput(page).setInputFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await tray(page)
      .getByRole('alert')
      .getByText(
        'Only photos (PNG, JPEG, GIF, WebP), PDF, audio (Ogg/Opus, WebM, M4A, MP3, WAV) and video (MP4, WebM) can be sent.',
      )
      .waitFor(SHORT);
    expect(await tray(page).getByRole('button', { name: 'Send file' }).isDisabled()).toBe(true);
    await tray(page).getByRole('button', { name: 'Remove' }).click();
    // Refused by the BFF, which reads the bytes: a small file that would unpack to a huge picture.
    await fileInput(page).setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: pngOf(30_000, 30_000) });
    await tray(page).getByRole('button', { name: 'Send file' }).click();
    await tray(page)
      .getByRole('alert')
      .getByText('This image has too many pixels to be sent. Please send a smaller one.')
      .waitFor(SHORT);
    await tray(page).getByRole('button', { name: 'Remove' }).click();

    // A file dropped on the panel goes to the tray too.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(['%PDF-1.7\n%%EOF\n'], 'receipt.pdf', { type: 'application/pdf' }));
      const panel = document.querySelector('[data-parley]')!.shadowRoot!.querySelector('section.panel')!;
      panel.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await tray(page).getByText('receipt.pdf').waitFor(SHORT);
    await tray(page).getByRole('button', { name: 'Send file' }).click();
    await log(page)
      .getByRole('link', { name: /^receipt\.pdf/ })
      .waitFor(SHORT);
    const axeWithFiles = await axeViolations(page);
    expect(axeWithFiles, JSON.stringify(axeWithFiles, null, 1)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS_DIR}/widget-attachments.png` });
    // The list of conversations names the file a message without words brought.
    await page.getByRole('button', { name: 'Your conversations' }).click();
    await page.locator('[data-parley] .preview', { hasText: 'receipt.pdf' }).waitFor(SHORT);
    expect(customer.problems).toEqual([]);

    // The agent, signed in to the console, sees the same photos in the transcript.
    const platform = (path: string, options: { method?: string; body?: unknown } = {}) =>
      desk(`${stack.url}/platform/api/v1${path}`, stack.newPlatformToken!, options);
    const user = (await platform('/users', { body: { name: 'Ada Files', email: 'ada@attachments.example' } })).body as {
      id: number;
      access_token: string;
    };
    expect(
      (
        await platform(`/accounts/${stack.accountId}/account_users`, {
          body: { user_id: user.id, role: 'administrator' },
        })
      ).status,
    ).toBe(200);
    const link = (await platform(`/users/${user.id}/login`)).body as { url: string };
    const agent = await harness.freshPage({ viewport: { width: 1280, height: 800 } });
    await agent.page.goto(link.url);
    const conversations = agent.page.getByRole('navigation', { name: 'Conversations' });
    await conversations
      .getByRole('button', { name: /With people/ })
      .first()
      .click();
    const transcript = agent.page.getByRole('log', { name: 'Transcript' });
    await expectDrawn(transcript.getByRole('link', { name: 'Open broken-mug.png full size' }).locator('img'), 120);
    await expectDrawn(transcript.getByRole('link', { name: 'Open screenshot.png full size' }).locator('img'), 64);
    await transcript.getByRole('link', { name: /^receipt\.pdf/ }).waitFor(SHORT);
    const [photo] = await Promise.all([
      agent.context.waitForEvent('page'),
      transcript.getByRole('link', { name: 'Open broken-mug.png full size' }).click(),
    ]);
    await photo.waitForLoadState();
    expect(photo.url()).toMatch(/^blob:/);
    await agent.page.screenshot({ path: `${ARTIFACTS_DIR}/console-attachments.png` });
    expect(agent.problems).toEqual([]);
  });
});
