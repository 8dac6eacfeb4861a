import { describe, expect, it } from 'vitest';
import { pngOf } from '../media-fixtures.ts';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { launcher, log, messageBox, SHORT, waitReady } from './widget-helpers.ts';

/**
 * A customer writes a few words, then attaches a photo and presses "Send file": the words go with
 * the photo as its caption, the message box empties, and the person answering in the console
 * stops seeing "is typing…" at once (not only after the typing pause runs out).
 */
describe('a file sent with the words typed beside it', () => {
  const harness = useBrowserStack();

  it('sends the draft as the caption, empties the box and ends the typing indicator', async () => {
    const { url } = await consoleAgent(harness.stack, 'Cleo Caption', 'cleo@caption.example');
    const agent = await harness.freshPage({ viewport: { width: 1280, height: 800 } });
    await agent.page.goto(url);
    const conversations = agent.page.getByRole('navigation', { name: 'Conversations' });
    await conversations.waitFor(SHORT);

    const customer = await harness.freshPage();
    const { page } = customer;
    await page.goto(harness.stack.url);
    await launcher(page).click();
    await waitReady(page);
    await messageBox(page).fill('I want to talk to a person');
    await messageBox(page).press('Enter');
    await log(page).getByText('connected with a person').waitFor(SHORT);
    await conversations
      .getByRole('button', { name: /With people/ })
      .first()
      .click();
    const transcript = agent.page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText('I want to talk to a person').waitFor(SHORT);

    await messageBox(page).pressSequentially('The mug arrived broken', { delay: 20 });
    await transcript.getByText(/is typing/).waitFor(SHORT);
    await page.locator('[data-parley] input[type=file]').setInputFiles({
      name: 'mug.png',
      mimeType: 'image/png',
      buffer: pngOf(40, 30),
    });
    const tray = page.getByRole('group', { name: 'File to send' });
    await tray.getByRole('button', { name: 'Send file' }).click();
    await tray.waitFor({ state: 'detached', ...SHORT });

    await log(page).getByText('The mug arrived broken').waitFor(SHORT);
    expect(await messageBox(page).inputValue()).toBe('');
    await transcript.getByText('The mug arrived broken').waitFor(SHORT);
    // The typing pause would end it after 5 s; sending ends it now.
    await transcript.getByText(/is typing/).waitFor({ state: 'detached', timeout: 2_500 });
    expect(customer.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
  });
});
