import { afterAll, describe, expect, it } from 'vitest';
import { fakeModel } from '../fake-llm.ts';
import { useBrowserStack } from './browser-stack.ts';
import { SHORT, log, openChat, send, shownTexts, waitForAnswer } from './widget-helpers.ts';

/**
 * Issue 13, streaming end to end: the demo's engine answers with an LLM (an OpenAI-compatible
 * server written for the tests stands in for the model, which cannot run here), and the customer
 * watches the reply being written: engine → BFF (`message:delta` on the socket) → the widget's
 * bubble. The model holds its last piece back until the test has looked.
 */
describe('a reply streamed into the widget in Chromium', () => {
  const model = fakeModel();
  const harness = useBrowserStack({
    env: async () => ({ LLM_BASE_URL: await model.start(), LLM_MODEL: 'test-model' }),
  });
  afterAll(() => model.stop());

  it('grows the reply in its bubble before the last piece is written, then shows the whole reply once, also after a reload', async () => {
    let release!: () => void;
    const beforeLast = new Promise<void>((resolve) => (release = resolve));
    model.answer(() => ({ pieces: ['You can return ', 'an item within ', '30 days ', 'of delivery.'], beforeLast }));
    const { page, problems } = await harness.freshPage();
    await page.goto(harness.stack.url);
    await openChat(page);
    await send(page, 'How do I return an item?');

    // The first pieces show while the model has not written the last one.
    const draft = log(page).locator('.message.draft .bubble');
    await expect.poll(() => draft.textContent(), SHORT).toBe('You can return an item within 30 days ');
    expect(await draft.getAttribute('aria-hidden')).toBeNull();
    expect(await log(page).locator('.message.draft').getAttribute('aria-hidden')).toBe('true');
    expect(await log(page).locator('.message.ai:not(.draft)').count()).toBe(0);

    release();
    await waitForAnswer(page, 'of delivery.');
    await expect.poll(() => log(page).locator('.message.draft').count(), SHORT).toBe(0);
    const whole = (await shownTexts(page)).filter((text) =>
      text.includes('You can return an item within 30 days of delivery.'),
    );
    expect(whole).toHaveLength(1);
    expect(whole[0]).toContain('Source: Returns and refunds › How do I return an item?');

    await page.reload();
    await openChat(page);
    await waitForAnswer(page, 'of delivery.');
    expect((await shownTexts(page)).filter((text) => text.includes('within 30 days of delivery.'))).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
