import { describe, expect, it } from 'vitest';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { customerHandsOver, LIVE_WAIT, openBySearch } from './console-customer.ts';
import { pdf, pngOf } from '../media-fixtures.ts';
import { log } from './widget-helpers.ts';

/**
 * Issue 31, in Chromium: a person attaches files to an answer by pasting into the console's reply
 * box and by dropping on it (real `paste` and `drop` events carrying a DataTransfer with a file, as
 * the browser makes them from the clipboard and a drag), sends them with the typed caption, and the
 * customer's widget shows them. Real BFF, engine, sockets and Chromium.
 */
describe("files pasted and dropped in the console's reply box", () => {
  const harness = useBrowserStack();

  it('are attached, sent with the caption, and shown in the customer’s widget', async () => {
    const { stack } = harness;
    const { url } = await consoleAgent(stack, 'Grace Hopper', 'grace@paste.example');
    const customer = await customerHandsOver(harness, 'My mug arrived broken');
    const agent = await harness.freshPage({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    await agent.page.goto(url);
    await openBySearch(agent.page, 'mug');
    const reply = agent.page.getByRole('textbox', { name: 'Reply' });
    const tray = agent.page.getByRole('list', { name: 'Files to send' });

    // A screenshot pasted from the clipboard.
    await reply.evaluate(
      (box, bytes) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], 'broken-mug.png', { type: 'image/png' }));
        box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      },
      [...pngOf(96, 64)],
    );
    await tray.getByText('broken-mug.png').waitFor(LIVE_WAIT);
    // A form dragged from the desktop and dropped on the reply box.
    await reply.evaluate(
      (box, bytes) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], 'return-form.pdf', { type: 'application/pdf' }));
        for (const type of ['dragenter', 'dragover', 'drop'])
          box.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      },
      [...pdf],
    );
    await tray.getByText('return-form.pdf').waitFor(LIVE_WAIT);

    await reply.fill('A photo of the mug, and the return form');
    await reply.press('Enter');
    const transcript = agent.page.getByRole('log', { name: 'Transcript' });
    await transcript.getByRole('img', { name: 'broken-mug.png' }).waitFor(LIVE_WAIT);
    await transcript.getByRole('link', { name: /^return-form\.pdf/ }).waitFor(LIVE_WAIT);
    await expect.poll(() => tray.count(), LIVE_WAIT).toBe(0);

    const widget = log(customer.page);
    await widget.getByText('A photo of the mug, and the return form').waitFor(LIVE_WAIT);
    await widget.getByRole('link', { name: 'Open broken-mug.png full size' }).waitFor(LIVE_WAIT);
    await widget.getByRole('link', { name: /^return-form\.pdf/ }).waitFor(LIVE_WAIT);
    expect(agent.problems).toEqual([]);
    expect(customer.problems).toEqual([]);
  });
});
