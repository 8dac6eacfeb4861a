import { describe, expect, it } from 'vitest';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { ARTIFACTS_DIR } from './chromium.ts';
import { launcher, log, messageBox, SHORT, waitReady } from './widget-helpers.ts';

/**
 * Issue 29, Assist in the agent console, in Chromium beside a customer in the demo store: the
 * customer asks a question, then for a person; the agent opens the conversation and sees the
 * summary and the Assist panel's suggestion with its source; "Use suggestion" only fills the reply
 * box; the agent sends it and the customer's widget shows it.
 */
describe('the Assist panel in Chromium', () => {
  const harness = useBrowserStack();

  it('suggests a grounded reply that the agent puts in the reply box and sends', async () => {
    const { url } = await consoleAgent(harness.stack, 'Mary Somerville', 'mary@assist.example');
    const agent = await harness.freshPage({ viewport: { width: 1280, height: 800 } });
    await agent.page.goto(url);
    const conversations = agent.page.getByRole('navigation', { name: 'Conversations' });
    await conversations.waitFor(SHORT);

    const customer = await harness.freshPage();
    await customer.page.goto(harness.stack.url);
    await launcher(customer.page).click();
    await waitReady(customer.page);
    const answers = log(customer.page).getByText(/within 30 days of delivery/);
    await messageBox(customer.page).fill('How do I return an item?');
    await messageBox(customer.page).press('Enter');
    await answers.first().waitFor(SHORT);
    await messageBox(customer.page).fill('I want to talk to a person');
    await messageBox(customer.page).press('Enter');
    await log(customer.page).getByText('connected with a person').waitFor(SHORT);

    const item = conversations.getByRole('button', { name: /With people.*waiting/ });
    await item.waitFor(SHORT);
    await item.click();

    // The summary, at the top of a conversation people have; the suggestion and its source in the panel.
    await agent.page.getByLabel('Summary').getByText('How do I return an item?').waitFor(SHORT);
    await agent.page.getByLabel('Summary').getByText('the customer asked for a person').waitFor(SHORT);
    const assist = agent.page.getByRole('region', { name: 'Assist' });
    await assist.getByText('within 30 days of delivery').waitFor(SHORT);
    await assist
      .getByRole('list', { name: 'Sources' })
      .getByText('Returns and refunds › How do I return an item?')
      .waitFor(SHORT);
    await agent.page.screenshot({ path: `${ARTIFACTS_DIR}/assist-panel.png` });

    // "Use suggestion" fills the reply box, and sends nothing.
    const reply = agent.page.getByRole('textbox', { name: 'Reply' });
    expect(await reply.inputValue()).toBe('');
    await assist.getByRole('button', { name: 'Use suggestion' }).click();
    await expect.poll(() => reply.inputValue()).toContain('You can return an item within 30 days of delivery.');
    await expect.poll(() => reply.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await answers.count()).toBe(1);

    // The agent sends it: the customer's widget shows it, from the agent.
    await agent.page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => answers.count(), SHORT).toBe(2);
    await log(customer.page).getByText('Mary Somerville').first().waitFor(SHORT);
    await expect.poll(() => reply.inputValue()).toBe('');
    expect(agent.problems).toEqual([]);
    expect(customer.problems).toEqual([]);
  });
});
