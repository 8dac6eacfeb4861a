import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { ARTIFACTS_DIR } from './chromium.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../widget-client.ts';
import { axeViolations, launcher, log, messageBox, SHORT, waitReady } from './widget-helpers.ts';

/**
 * A support shift in the agent console, in Chromium, beside a customer in the demo store: the
 * customer asks for a person, the conversation appears live in the agent's list, the agent sees
 * the customer typing, answers (the customer sees the agent's name), writes a note the customer
 * never sees, and hands back to the AI, whose next answer appears live in the agent's transcript.
 */
describe('the agent console in Chromium', () => {
  const harness = useBrowserStack();

  const agentWithLink = (name: string, email: string) => consoleAgent(harness.stack, name, email);

  async function customerAsks(page: Page, text: string): Promise<void> {
    await messageBox(page).fill(text);
    await messageBox(page).press('Enter');
  }

  it('lets a person take a handed-over customer, answer live, and hand back to the AI', async () => {
    const { url } = await agentWithLink('Ada Lovelace', 'ada@console.example');
    const agent = await harness.freshPage({ viewport: { width: 1280, height: 800 } });
    await agent.page.goto(url);
    const conversations = agent.page.getByRole('navigation', { name: 'Conversations' });
    await conversations.waitFor(SHORT);
    // The link's token left the address bar at once.
    expect(agent.page.url()).not.toContain('sign_in_token');
    await agent.page.getByText('Live').waitFor(SHORT);

    const customer = await harness.freshPage();
    await customer.page.goto(harness.stack.url);
    await launcher(customer.page).click();
    await waitReady(customer.page);
    await customerAsks(customer.page, 'I want to talk to a person');
    await log(customer.page).getByText('connected with a person').waitFor(SHORT);

    // Live, without a reload: the conversation appears as with people, its customer waiting.
    const item = conversations.getByRole('button', { name: /With people.*waiting/ });
    await item.waitFor(SHORT);
    await item.click();
    const transcript = agent.page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText('I want to talk to a person').waitFor(SHORT);

    // The customer types: the agent sees it.
    await messageBox(customer.page).pressSequentially('Are you there', { delay: 20 });
    await transcript.getByText(/is typing/).waitFor(SHORT);

    // The agent answers; the customer sees it with the agent's name, pushed (how fast is the bench's to say).
    const reply = agent.page.getByRole('textbox', { name: 'Reply' });
    await reply.fill('Hello, this is Ada. How can I help?');
    await reply.press('Enter');
    await log(customer.page).getByText('Hello, this is Ada. How can I help?').waitFor(SHORT);
    await log(customer.page).getByText('Ada Lovelace').first().waitFor(SHORT);
    await expect.poll(() => reply.inputValue()).toBe('');

    // A private note stays with the people.
    await agent.page.getByRole('checkbox', { name: 'Private note' }).check();
    await reply.fill('Customer sounds upset; offer the 10% code.');
    await agent.page.getByRole('button', { name: 'Send' }).click();
    await transcript.getByText('Customer sounds upset').waitFor(SHORT);
    await agent.page.screenshot({ path: `${ARTIFACTS_DIR}/agent-console.png` });

    // Back to the AI: the widget says so, and the AI answers the next question, live in the transcript too.
    await agent.page.getByRole('button', { name: 'Hand back to AI' }).click();
    await customer.page.getByText(/AI assistant again/).waitFor(SHORT);
    await messageBox(customer.page).fill('');
    await customerAsks(customer.page, 'How do I return an item?');
    await log(customer.page).getByText('within 30 days of delivery').waitFor(SHORT);
    await transcript.getByText('within 30 days of delivery').waitFor(SHORT);
    expect(await log(customer.page).getByText('Customer sounds upset').count()).toBe(0);

    await agent.page.getByRole('button', { name: 'Resolve' }).click();
    await agent.page.getByRole('button', { name: 'Reopen' }).waitFor(SHORT);
    expect(agent.problems).toEqual([]);
    expect(customer.problems).toEqual([]);
  });

  it('serves the console under a policy that lets no other site frame it or load anything else', async () => {
    const page = await fetch(`${harness.stack.url}/console/`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    // A framing page's attempt: the browser refuses to show the console in its frame.
    const { page: framer } = await harness.freshPage();
    await framer.route('http://shop.example/', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<iframe title="console" src="${harness.stack.url}/console/"></iframe>`,
      }),
    );
    await framer.goto('http://shop.example/');
    const frame = framer.frames().find((candidate) => candidate !== framer.mainFrame());
    const inside = frame
      ? await frame.evaluate(() => document.getElementById('console') !== null).catch(() => false)
      : false;
    expect(inside).toBe(false);
    expect((await fetch(`${harness.stack.url}/console`, { redirect: 'manual' })).headers.get('location')).toBe(
      '/console/',
    );
  });

  it('signs in once per link: a used link gets a clear message and the password form', async () => {
    const { url } = await agentWithLink('Grace Hopper', 'grace@console.example');
    const first = await harness.freshPage();
    await first.page.goto(url);
    await first.page.getByRole('navigation', { name: 'Conversations' }).waitFor(SHORT);
    await first.page.getByRole('button', { name: 'Sign out' }).click();
    await first.page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor(SHORT);

    const again = await harness.freshPage();
    await again.page.goto(url);
    await again.page.getByRole('alert').getByText('already been used or has expired').waitFor(SHORT);
    // The password still works.
    await again.page.getByRole('textbox', { name: 'E-mail' }).fill('grace@console.example');
    await again.page.getByLabel('Password').fill('correct horse battery');
    await again.page.getByRole('button', { name: 'Sign in' }).click();
    await again.page.getByRole('navigation', { name: 'Conversations' }).waitFor(SHORT);
    expect([...first.problems, ...again.problems]).toEqual([]);
  });

  it('is accessible: no axe violations in light and dark, on a laptop and a tablet, and usable from the keyboard alone', async () => {
    const { url } = await agentWithLink('Alan Turing', 'alan@console.example');
    // A customer who waits for a person, made over HTTP.
    const { token } = await newVisitor(harness.stack.url);
    const { id: uuid } = await openWidgetConversation(harness.stack.url, token);
    await sendWidgetMessage(harness.stack.url, token, uuid, 'I want to talk to a person', `ask-${uuid}`);
    // axe is injected as a script: the page's CSP is bypassed for the test only.
    const { page, problems } = await harness.freshPage({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    const item = page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /With people.*waiting/ })
      .first();
    await item.waitFor(SHORT);
    // Keyboard only: focus moves to the conversation, Enter opens it, and an answer is sent with Enter.
    await item.focus();
    expect(await item.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText('I want to talk to a person').first().waitFor(SHORT);
    await page.getByRole('textbox', { name: 'Reply' }).focus();
    await page.keyboard.type('Hi, Alan here.');
    await page.keyboard.press('Enter');
    await transcript.getByText('Hi, Alan here.').waitFor(SHORT);

    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS_DIR}/agent-console-dark.png` });
    await page.setViewportSize({ width: 820, height: 1100 });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS_DIR}/agent-console-tablet.png` });
    expect(problems).toEqual([]);
  });
});
