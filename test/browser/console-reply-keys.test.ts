import { describe, expect, it } from 'vitest';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { desk } from '../helpdesk-client.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../widget-client.ts';
import { axeViolations, SHORT } from './widget-helpers.ts';

/**
 * Issue 31 in the agent console: a canned response is chosen from its list with the keyboard and
 * sent as itself (never "/hal"), the list closes after the send; an answer's markdown shows as the
 * widget shows it; the earlier conversations are only the earlier ones, in words; and the `?`
 * dialog of shortcuts is accessible in light and dark.
 */
describe('replying from the keyboard in the agent console', () => {
  const harness = useBrowserStack();

  it('sends the canned response chosen with the arrows, renders markdown, and lists the shortcuts', async () => {
    const { url, user } = await consoleAgent(harness.stack, 'Hal Abelson', 'hal@console.example');
    const canned = `${harness.stack.url}/api/v1/accounts/${harness.stack.accountId}/canned_responses`;
    for (const [short_code, content] of [
      ['hal', 'Hello, this is **Hal** from the team.'],
      ['halt', 'We pause the order for you now.'],
    ])
      expect((await desk(canned, user.access_token, { body: { short_code, content } })).status).toBe(200);

    // The same customer twice: the first conversation ends, the second asks for a person.
    const { token } = await newVisitor(harness.stack.url);
    const first = await openWidgetConversation(harness.stack.url, token);
    await sendWidgetMessage(harness.stack.url, token, first.id, 'How do I return an item?', crypto.randomUUID());
    const second = await openWidgetConversation(harness.stack.url, token);
    await sendWidgetMessage(harness.stack.url, token, second.id, 'I want to talk to a person', crypto.randomUUID());

    const { page, problems } = await harness.freshPage({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.getByText('Live', { exact: true }).waitFor(SHORT);
    // The tab's title counts the customer waiting for a person.
    await expect.poll(() => page.title(), SHORT).toBe('(1) Parley · Conversations');
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /With people.*waiting/ })
      .first()
      .click();
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText('I want to talk to a person').waitFor(SHORT);

    // Only earlier conversations, in words (never "pending", never "just now ago").
    const earlier = page.getByRole('complementary', { name: 'Contact' }).locator('.earlier');
    await earlier.getByRole('button').first().waitFor(SHORT);
    const listed = await earlier.getByRole('button').allTextContents();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(/^#\d+ · (With the AI|With people|Resolved) · /);
    expect(listed[0]).not.toMatch(/pending|just now ago/);

    // "/hal": two responses offered; Down chooses the second, Up the first again, Enter takes it.
    const reply = page.getByRole('textbox', { name: 'Reply' });
    await reply.pressSequentially('/hal', { delay: 30 });
    const offered = page.getByRole('listbox', { name: 'Canned responses' });
    await expect.poll(() => offered.getByRole('option').count(), SHORT).toBe(2);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => offered.getByRole('option', { selected: true }).textContent()).toContain('/halt');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(() => reply.inputValue()).toBe('Hello, this is **Hal** from the team.');
    await page.keyboard.press('Enter');
    // Sent as the response, with its markdown shown as the widget shows it; the list is gone.
    await transcript.locator('strong', { hasText: 'Hal' }).waitFor(SHORT);
    expect(await transcript.getByText('/hal', { exact: true }).count()).toBe(0);
    expect(await offered.count()).toBe(0);
    await expect.poll(() => reply.inputValue()).toBe('');

    // Escape closes the list without choosing.
    await reply.pressSequentially('/hal', { delay: 30 });
    await offered.waitFor(SHORT);
    await page.keyboard.press('Escape');
    await offered.waitFor({ state: 'detached', timeout: 10_000 });
    await reply.fill('');

    // "?" lists the shortcuts in a dialog, accessible in light and dark.
    await transcript.focus();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor(SHORT);
    expect(await help.getByText('Assign to me').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    await help.getByRole('button', { name: 'Close' }).click();
    await help.waitFor({ state: 'hidden', timeout: 10_000 });
    expect(problems).toEqual([]);
  });
});
