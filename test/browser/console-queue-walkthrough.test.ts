import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { WidgetMessage } from '../../shared/index.ts';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { customerHandsOver } from './console-customer.ts';
import { desk } from '../helpdesk-client.ts';
import { pngOf } from '../media-fixtures.ts';
import { request } from '../stack.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../widget-client.ts';
import { axeViolations, panel } from './widget-helpers.ts';

// The machine runs many suites at once: a live change may take longer than the usual 10 s here.
const SHORT = { timeout: 30_000 } as const;

/** A customer who writes their words and then asks for a person: their session and conversation. */
async function handover(url: string, words: string) {
  const { token } = await newVisitor(url);
  const { id } = await openWidgetConversation(url, token);
  await sendWidgetMessage(url, token, id, words, crypto.randomUUID());
  await sendWidgetMessage(url, token, id, 'I want to talk to a person', crypto.randomUUID());
  const messages = async () =>
    (await request(`${url}/v1/widget/conversations/${id}/messages`, { token })).body.messages as WidgetMessage[];
  return {
    token,
    id,
    messages,
    writes: (text: string) => sendWidgetMessage(url, token, id, text, crypto.randomUUID()),
  };
}

/** Opens the conversation whose customer wrote `words`, found with the search box from the keyboard. */
async function openBySearch(page: Page, words: string) {
  const search = page.getByRole('searchbox', { name: 'Search conversations' });
  await search.fill('');
  // Out of the box, so that "/" is a shortcut again.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('/');
  await page.keyboard.type(words);
  const results = page.getByRole('list', { name: 'Search results' });
  await results.locator('mark', { hasText: words }).first().waitFor(SHORT);
  await results.getByRole('button').first().click();
  await page.getByRole('log', { name: 'Transcript' }).getByText(words, { exact: false }).first().waitFor(SHORT);
}

/**
 * Issue 31's "Done when", as a person works a queue: three customers hand over (the first in
 * Chromium's widget, the others through its API); the agent finds one by their words and labels it,
 * assigns another to a colleague in a team (whose console shows it live), snoozes the third until
 * its customer writes (and it comes back when they do), sends a photo the customer's widget gets,
 * edits a contact, rides out a server restart (back by itself, the customer's next message shown
 * without a reload), goes unavailable and back (the first customer's widget header follows), opens a
 * new tab still signed in, and works the queue there with the keyboard only; axe clean in light and
 * dark. Real BFF, engine, sockets and Chromium. (A server restart with a sleeping widget: console-server-restart.test.ts;
 * files pasted and dropped: console-paste-drop.test.ts.)
 */
describe('working a queue in the agent console', () => {
  const harness = useBrowserStack();

  it('works three handovers from search to keyboard, live for a colleague and the customers', async () => {
    const { stack } = harness;
    const { url, user } = await consoleAgent(stack, 'Grace Hopper', 'grace@queue.example');
    const colleague = await consoleAgent(stack, 'Alan Turing', 'alan@queue.example');
    const api = (path: string, options: { method?: string; body?: unknown } = {}) =>
      desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, user.access_token, options);
    expect((await api('/labels', { body: { title: 'fragile' } })).status).toBe(200);
    const team = (await api('/teams', { body: { name: 'Returns desk' } })).body as { id: number };
    await api(`/teams/${team.id}/team_members`, { body: { user_ids: [user.id, colleague.user.id] } });
    const cracked = await customerHandsOver(harness, 'My blender from Porto arrived cracked');
    await handover(stack.url, 'Where is the invoice for March?');
    const moving = await handover(stack.url, 'Can I change my delivery address?');

    const { page, context, problems } = await harness.freshPage({
      bypassCSP: true,
      viewport: { width: 1280, height: 800 },
    });
    const other = await harness.freshPage({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    await Promise.all([page.goto(url), other.page.goto(colleague.url)]);
    await page.getByText('Live', { exact: true }).waitFor(SHORT);
    await other.page.getByText('Live', { exact: true }).waitFor(SHORT);
    const triage = page.getByRole('group', { name: 'Triage' });
    const transcript = page.getByRole('log', { name: 'Transcript' });

    // Found by the customer's words, and labelled.
    await openBySearch(page, 'Porto');
    await triage.getByText('Labels').click();
    await triage.getByRole('checkbox', { name: 'fragile' }).check();
    await triage.getByText('Labels: fragile').waitFor(SHORT);

    // Given to the team, then to the colleague in it: their console shows it as theirs, live.
    await openBySearch(page, 'invoice');
    const assign = triage.getByRole('combobox', { name: 'Assign to' });
    await assign.selectOption({ label: 'Returns desk' });
    await assign.selectOption(`person:${colleague.user.id}`);
    // (The row's line is the customer's last message; the owner of one's own conversation reads "You".)
    await other.page
      .getByRole('navigation', { name: 'Conversations' })
      .locator('.item .owner', { hasText: /^You$/ })
      .waitFor(SHORT);

    // Snoozed until its customer writes; it comes back, live, when they do.
    await openBySearch(page, 'address');
    await triage.getByText('Snooze').click();
    await triage.getByRole('button', { name: 'Until the customer replies' }).click();
    await triage.getByText('Snoozed until the customer replies').waitFor(SHORT);
    await moving.writes('It is Rua Augusta 12 now');
    await transcript.getByText('It is Rua Augusta 12 now').waitFor(SHORT);
    await triage.getByText('Snoozed until the customer replies').waitFor({ state: 'detached', ...SHORT });

    // A photo attached with a caption: shown in the transcript, and the customer's widget has it.
    await page
      .getByLabel('Attach files')
      .setInputFiles({ name: 'return-label.png', mimeType: 'image/png', buffer: pngOf(96, 64) });
    await page.getByRole('list', { name: 'Files to send' }).getByText('return-label.png').waitFor(SHORT);
    await page.getByRole('textbox', { name: 'Reply' }).fill('Here is your return label');
    await page.keyboard.press('Enter');
    await transcript.getByRole('img', { name: 'return-label.png' }).waitFor(SHORT);
    await expect
      .poll(
        async () => (await moving.messages()).find((message) => message.text === 'Here is your return label'),
        SHORT,
      )
      .toMatchObject({ author: 'human', attachments: [{ kind: 'image', name: 'return-label.png' }] });

    // The contact edited.
    const contact = page.getByRole('complementary', { name: 'Contact' });
    await contact.getByRole('textbox', { name: 'Name' }).fill('Rosa Lima');
    await contact.getByRole('button', { name: 'Save contact' }).click();
    await contact.getByText('Contact saved.').waitFor(SHORT);

    // The server restarts mid-conversation: the console says so while it is down, comes back by
    // itself, and what the customer writes after it shows without a reload.
    const live = page.getByText('Live', { exact: true });
    await stack.restart(() =>
      page.getByRole('status').filter({ hasText: 'Connection lost: reconnecting…' }).waitFor(SHORT),
    );
    await live.waitFor(SHORT);
    await moving.writes('Is the label still good after that?');
    await transcript.getByText('Is the label still good after that?').waitFor(SHORT);

    // Available, then not (nobody else is), then again: what the customer's widget header says follows, live.
    const header = () => panel(cracked.page).locator('header .subtitle').textContent();
    const available = page.getByRole('switch', { name: 'Available' });
    for (const [checked, says] of [
      ['true', 'Our team is answering'],
      ['false', 'Away — we answer by e-mail'],
      ['true', 'Our team is answering'],
    ]) {
      await available.click();
      await expect.poll(() => available.getAttribute('aria-checked'), SHORT).toBe(checked);
      await expect.poll(header, SHORT).toBe(says);
    }

    // A new tab is still signed in, and works the queue with the keyboard only.
    const tab = await context.newPage();
    await tab.goto(new URL('/console/', stack.url).href);
    await tab.getByText('Live', { exact: true }).waitFor(SHORT);
    expect(await tab.getByRole('textbox', { name: /password/i }).count()).toBe(0);
    const current = tab.getByRole('navigation', { name: 'Conversations' }).locator('[aria-current="true"]');
    await tab.keyboard.press('j');
    await current.waitFor(SHORT);
    const first = await current.textContent();
    await tab.keyboard.press('j');
    await expect.poll(() => current.textContent(), SHORT).not.toBe(first);
    await tab.keyboard.press('k');
    await expect.poll(() => current.textContent(), SHORT).toBe(first);
    await tab.keyboard.press('a');
    await current.locator('.owner', { hasText: /^You$/ }).waitFor(SHORT);
    await tab.keyboard.press('e');
    await expect
      .poll(async () => ((await api('/conversations?status=resolved')).body as any).data.payload.length, SHORT)
      .toBe(1);
    await tab.keyboard.press('r');
    await expect.poll(() => tab.evaluate(() => document.activeElement?.id), SHORT).toBe('reply');

    expect(await axeViolations(tab)).toEqual([]);
    await tab.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(tab)).toEqual([]);
    expect(problems).toEqual([]);
    expect(other.problems).toEqual([]);
    expect(cracked.problems).toEqual([]);
    // One test walks a whole queue in four browsers (about 30 s on a quiet machine): its own bound, not the default step's.
  }, 180_000);
});
