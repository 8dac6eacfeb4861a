import { describe, expect, it } from 'vitest';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { desk } from '../helpdesk-client.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../widget-client.ts';
import { axeViolations, SHORT } from './widget-helpers.ts';

/** A customer who writes their words and then asks for a person. */
async function handover(url: string, words: string): Promise<void> {
  const { token } = await newVisitor(url);
  const conversation = await openWidgetConversation(url, token);
  await sendWidgetMessage(url, token, conversation.id, words, crypto.randomUUID());
  await sendWidgetMessage(url, token, conversation.id, 'I want to talk to a person', crypto.randomUUID());
}

/**
 * Issue 31's triage in the agent console: a conversation found by the customer's words (the match
 * highlighted as text), labelled and filtered by label, assigned to a team by name, another
 * snoozed until the customer writes, a contact edited, and the person available; axe clean in
 * light and dark.
 */
describe('triage in the agent console', () => {
  const harness = useBrowserStack();

  it('finds a conversation by the customer’s words, labels it, assigns it to a team and edits its contact', async () => {
    const { stack } = harness;
    const { url, user } = await consoleAgent(stack, 'Katherine Johnson', 'katherine@console.example');
    const api = (path: string, options: { method?: string; body?: unknown } = {}) =>
      desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, user.access_token, options);
    expect((await api('/labels', { body: { title: 'refund' } })).status).toBe(200);
    const team = (await api('/teams', { body: { name: 'Billing desk' } })).body as { id: number };
    expect((await api(`/teams/${team.id}/team_members`, { body: { user_ids: [user.id] } })).status).toBe(200);
    await handover(stack.url, 'My parcel to Lisbon never arrived <b>at all</b>');

    const { page, problems } = await harness.freshPage({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.getByText('Live', { exact: true }).waitFor(SHORT);
    const list = page.getByRole('navigation', { name: 'Conversations' });
    // Each row says who has it, how long the customer waits, and the last thing written.
    await list
      .getByRole('button', { name: /With people.*waiting/ })
      .first()
      .waitFor(SHORT);
    expect(await list.locator('.item .line').first().textContent()).not.toBe('');

    // "/" focuses the search; the customer's word finds their conversation, highlighted as text.
    await page.keyboard.press('/');
    await page.keyboard.type('Lisbon');
    const results = list.getByRole('list', { name: 'Search results' });
    await results.locator('mark', { hasText: 'Lisbon' }).waitFor(SHORT);
    expect(await results.locator('b').count()).toBe(0);
    await results.getByText('<b>at all</b>', { exact: false }).waitFor(SHORT);
    await results.getByRole('button').first().click();
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText(/parcel to Lisbon/).waitFor(SHORT);

    // Labelled, then the list filtered by the label shows only it.
    const triage = page.getByRole('group', { name: 'Triage' });
    await triage.getByText('Labels').click();
    await triage.getByRole('checkbox', { name: 'refund' }).check();
    await triage.getByText('Labels: refund').waitFor(SHORT);
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('');
    await list.getByRole('combobox', { name: 'Label' }).selectOption('refund');
    await expect.poll(() => list.locator('.item').count(), SHORT).toBe(1);
    await list.locator('.item .label', { hasText: 'refund' }).waitFor(SHORT);

    // Assigned to the team by its name; the row says who has it.
    await triage.getByRole('combobox', { name: 'Assign to' }).selectOption({ label: 'Billing desk' });
    await list.locator('.item .owner', { hasText: 'Billing desk' }).waitFor(SHORT);
    const found = (await api('/conversations/search?q=Lisbon')).body as {
      data: { payload: { team_id: number | null }[] };
    };
    expect(found.data.payload.map((conversation) => conversation.team_id)).toEqual([team.id]);

    // The contact's name, phone and attributes edited; the panel and the row show the new name.
    const contact = page.getByRole('complementary', { name: 'Contact' });
    await contact.getByRole('textbox', { name: 'Name' }).fill('Maria Lopes');
    await contact.getByRole('textbox', { name: 'Phone' }).fill('+351912345678');
    await contact.getByRole('textbox', { name: 'Custom attributes' }).fill('plan: gold');
    await contact.getByRole('button', { name: 'Save contact' }).click();
    await contact.getByText('Contact saved.').waitFor(SHORT);
    await contact.getByRole('heading', { name: 'Maria Lopes' }).waitFor(SHORT);
    await list.getByRole('button', { name: /Maria Lopes/ }).waitFor(SHORT);

    expect(problems).toEqual([]);
  });

  it('snoozes a conversation until the customer writes, and puts the person available; axe clean', async () => {
    const { stack } = harness;
    const { url, user } = await consoleAgent(stack, 'Dorothy Vaughan', 'dorothy@console.example');
    const api = (path: string) => desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, user.access_token);
    await handover(stack.url, 'Can I change my delivery address?');
    const { page, problems } = await harness.freshPage({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    const list = page.getByRole('navigation', { name: 'Conversations' });
    const transcript = page.getByRole('log', { name: 'Transcript' });
    const triage = page.getByRole('group', { name: 'Triage' });

    // Snoozed until its customer writes again.
    await list.getByRole('searchbox', { name: 'Search conversations' }).fill('address');
    const result = list.getByRole('list', { name: 'Search results' }).getByRole('button', { name: /address/ });
    await result.waitFor(SHORT);
    await result.click();
    await transcript.getByText('Can I change my delivery address?').waitFor(SHORT);
    await triage.getByText('Snooze').click();
    await triage.getByRole('button', { name: 'Until the customer replies' }).click();
    await triage.getByText('Snoozed until the customer replies').waitFor(SHORT);
    const snoozed = (await api('/conversations/search?q=address')).body as { data: { payload: { status: string }[] } };
    expect(snoozed.data.payload.map((conversation) => conversation.status)).toEqual(['snoozed']);

    // Available: the switch and the account's presence say so.
    const available = page.getByRole('switch', { name: 'Available' });
    await available.click();
    await expect.poll(() => available.getAttribute('aria-checked'), SHORT).toBe('true');
    const presence = (await api('/presence')).body as { payload: { user_id: number; availability_status: string }[] };
    expect(presence.payload.find((person) => person.user_id === user.id)?.availability_status).toBe('online');

    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
