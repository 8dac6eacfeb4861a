import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { request } from '../stack.ts';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import {
  currentConversation,
  engineConversationId,
  launcher,
  log,
  messageBox,
  SHORT,
  waitReady,
} from './widget-helpers.ts';

/**
 * Issue 28, in Chromium: a customer of the demo store asks for a person, then asks a question the
 * store's articles answer while the person has the conversation; no one answers it, and the agent
 * hands the conversation back to the AI from the console. The AI answers that question at once,
 * without the customer asking again.
 */
describe('a hand-back from the console in Chromium', () => {
  const harness = useBrowserStack();

  /** A person of the demo account (an administrator, who may add themself to the demo inbox), signed in to the console. */
  async function signedInAgent(): Promise<Page> {
    const link = await consoleAgent(harness.stack, 'Lin Agent', 'lin@hand-back.example');
    const { page } = await harness.freshPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(link.url);
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor(SHORT);
    return page;
  }

  async function customerAsks(page: Page, text: string): Promise<void> {
    await messageBox(page).fill(text);
    await messageBox(page).press('Enter');
  }

  /** The engine's turns of the customer's conversation, as the helpdesk's key reads them. */
  async function engineTurns(page: Page): Promise<{ role: string; text: string }[]> {
    const { stack } = harness;
    const id = await engineConversationId(stack, await currentConversation(page, stack.siteKey));
    const transcript = await request(`${stack.engineUrl}/v1/conversations/${id}/transcript`, { token: stack.apiKey });
    return (transcript.body.turns as { role: string; text: string }[]).filter((turn) => turn.role !== 'system');
  }

  it("answers the customer's question left waiting with people once the agent hands back to the AI", async () => {
    const agent = await signedInAgent();
    const customer = await harness.freshPage();
    await customer.page.goto(harness.stack.url);
    await launcher(customer.page).click();
    await waitReady(customer.page);
    await customerAsks(customer.page, 'I want to talk to a person');
    await log(customer.page).getByText('connected with a person').waitFor(SHORT);

    await customerAsks(customer.page, 'How do I return an item?');
    // The question reached the engine, which kept it and left it to people: no answer came.
    await expect
      .poll(async () => (await engineTurns(customer.page)).at(-1), SHORT)
      .toEqual({ role: 'customer', text: 'How do I return an item?', created_at: expect.any(String) });
    expect(await log(customer.page).getByText('within 30 days of delivery').count()).toBe(0);

    const item = agent.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /With people/ });
    await item.waitFor(SHORT);
    await item.click();
    const transcript = agent.getByRole('log', { name: 'Transcript' });
    await transcript.getByText('How do I return an item?').waitFor(SHORT);
    await agent.getByRole('button', { name: 'Hand back to AI' }).click();

    // The customer asked nothing more: the AI's answer to the waiting question appears in the widget and the console.
    await customer.page.getByText(/AI assistant again/).waitFor(SHORT);
    await log(customer.page).getByText('within 30 days of delivery').waitFor(SHORT);
    await transcript.getByText('within 30 days of delivery').waitFor(SHORT);
    expect(
      (await engineTurns(customer.page)).filter((turn) => turn.role === 'customer').map((turn) => turn.text),
    ).toEqual(['I want to talk to a person', 'How do I return an item?']);
    expect(customer.problems).toEqual([]);
  });
});
