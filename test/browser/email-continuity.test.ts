import { createTransport } from 'nodemailer';
import { io, type Socket } from 'socket.io-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_NAMESPACE } from '../../shared/index.ts';
import { DRIVERS, request, type TestStack } from '../stack.ts';
import { desk } from '../helpdesk-client.ts';
import { replyAddressOf, sendDigestsAfterWindow, startEmailStack, type EmailStack } from '../email-stack.ts';
import { launchChromium } from './chromium.ts';
import {
  SHORT,
  currentConversation,
  freshPage,
  hostPage,
  log,
  openChat,
  send,
  startPageServer,
  waitForAnswer,
  waitReady,
  type PageServer,
} from './widget-helpers.ts';

/** Every day closed: the demo inbox's people are away whenever the test runs. */
const CLOSED_WEEK = JSON.stringify(
  Array.from({ length: 7 }, (_, day_of_week) => ({
    day_of_week,
    closed_all_day: true,
    open_all_day: false,
    open_hour: null,
    open_minutes: null,
    close_hour: null,
    close_minutes: null,
  })),
);

/**
 * Issue 32's "Done when", in Chromium with real SMTP on loopback both ways: the inbox is away, the
 * widget asks for an address, the customer gives it and leaves; a person answers through the
 * Application API; one e-mail reaches the local SMTP sink with the answer, the link and the reply
 * address; the link opens the conversation in /chat once; a reply sent to Parley's own SMTP
 * listener reaches the person's desk socket live. That a second node or a restart sends nothing
 * twice is bff/email/email-nodes.test.ts and email-digests.test.ts.
 */
describe('a conversation continued by e-mail after the customer left', () => {
  let email: EmailStack;
  let stack: TestStack;
  let browser: Browser;
  let pages: PageServer;
  let deskSocket: Socket | undefined;

  beforeAll(async () => {
    [email, browser, pages] = await Promise.all([startEmailStack(DRIVERS[0]!), launchChromium(), startPageServer()]);
    stack = email.stack;
    await stack.bffSql.query(
      'UPDATE inboxes SET working_hours_enabled = true, working_hours = $2::jsonb WHERE id = (SELECT inbox_id FROM site_keys WHERE key = $1)',
      [stack.siteKey, CLOSED_WEEK],
    );
  });
  afterAll(async () => {
    deskSocket?.close();
    await browser?.close();
    await pages?.close();
    await email?.stop();
  });

  /** The demo agent signed in: its token for the Application API and its desk socket. */
  async function demoAgent() {
    const signInToken = stack.agentSignInUrl.split('#sign_in_token=')[1];
    const session = await request(`${stack.url}/api/v1/sessions`, { body: { sign_in_token: signInToken } });
    expect(session.status).toBe(200);
    const token = session.body.access_token as string;
    deskSocket = io(stack.url + DESK_NAMESPACE, {
      auth: { token, account_id: stack.accountId },
      transports: ['websocket'],
      reconnection: false,
    });
    const changes: { id: number; what: string }[] = [];
    deskSocket.on('conversation:changed', (change: { id: number; what: string }) => changes.push(change));
    return { token, socket: deskSocket, changes };
  }

  // The journey's steps share what came before, one step a test.
  const address = 'walked.away@customer.test';
  let conversationId: string;
  let row: { id: number } | undefined;
  let agent: Awaited<ReturnType<typeof demoAgent>>;
  let mail: EmailStack['sink']['mails'][number]['mail'];
  let link: string;
  let replyTo: string;

  it('asks for the address while nobody works, and keeps it when the customer gives it and leaves', async () => {
    const { context, page, problems } = await freshPage(browser);
    await page.goto(pages.set('/shop', hostPage(stack)));
    await openChat(page);
    await send(page, 'Do you ship abroad?');
    await log(page).locator('.message.theirs').first().waitFor(SHORT);

    // Away: the widget asks, in an accessible form.
    const ask = page.getByRole('form', { name: 'Get the reply by e-mail?' });
    await ask.waitFor(SHORT);
    const field = ask.getByRole('textbox', { name: 'Your e-mail address' });
    await field.fill('not an address');
    await ask.getByRole('button', { name: 'E-mail me' }).click();
    const problem = ask.getByRole('alert');
    await problem.waitFor(SHORT);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.getAttribute('aria-describedby')).toBe(await problem.getAttribute('id'));
    await field.fill(address);
    await ask.getByRole('button', { name: 'E-mail me' }).click();
    await page.getByRole('status').filter({ hasText: address }).waitFor(SHORT);

    // The customer leaves.
    conversationId = await currentConversation(page, stack.siteKey);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('e-mails the answer a person gave through the Application API once, with the link and the reply address', async () => {
    // A person answers through the Application API, watching the conversation on the desk socket.
    [row] = await stack.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [conversationId]);
    agent = await demoAgent();
    expect(
      await agent.socket.timeout(SHORT.timeout).emitWithAck('conversation:watch', { conversation_id: row!.id }),
    ).toMatchObject({ ok: true });
    const answer = 'Yes, we ship to 30 countries. Shipping abroad takes 5 days.';
    const answered = await desk(
      `${stack.url}/api/v1/accounts/${stack.accountId}/conversations/${row!.id}/messages`,
      agent.token,
      {
        body: { content: answer },
      },
    );
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);

    // One e-mail, with the answer, the link and the reply address.
    await expect.poll(() => sendDigestsAfterWindow(stack), SHORT).toBeGreaterThan(0);
    const mails = email.sink.mails.filter((caught) => caught.envelopeTo.includes(address));
    expect(mails).toHaveLength(1);
    mail = mails[0]!.mail;
    expect(mail.text).toContain(answer);
    const found = /https:\/\/chat\.shop\.test(\/chat\?site_key=\w+#continue=[0-9a-f]{40})/.exec(mail.text ?? '');
    expect(found).not.toBeNull();
    link = found![1]!;
    replyTo = replyAddressOf(mail.replyTo?.text);
  });

  it('opens the conversation in /chat from the link, once', async () => {
    // The link opens the conversation in /chat (the test's BFF stands for PUBLIC_URL's host).
    const opened = await freshPage(browser);
    await opened.page.goto(`${stack.url}${link}`);
    await waitForAnswer(opened.page, 'we ship to 30 countries');
    expect(opened.page.url()).not.toContain('#continue');
    expect(opened.problems).toEqual([]);
    await opened.context.close();
    // A second use is refused: another browser gets a new, empty chat.
    const again = await freshPage(browser);
    await again.page.goto(`${stack.url}${link}`);
    // Ready means started: a conversation the page had been given would show by now.
    await waitReady(again.page);
    expect(await again.page.getByText('we ship to 30 countries').count()).toBe(0);
    await again.context.close();
  });

  it("puts a reply sent to Parley's SMTP listener in the conversation, live on the person's desk socket", async () => {
    // A reply by e-mail to Parley's SMTP listener reaches the person live.
    const before = agent.changes.length;
    await createTransport({
      host: '127.0.0.1',
      port: stack.bff.email.listenerPort()!,
      secure: false,
      ignoreTLS: true,
    }).sendMail({
      from: address,
      to: replyTo,
      subject: `Re: ${mail.subject}`,
      text: 'Great, I will order today.\n\n> Yes, we ship',
    });
    await expect
      .poll(
        () => agent.changes.slice(before).some((change) => change.id === row!.id && change.what === 'message'),
        SHORT,
      )
      .toBe(true);
    const thread = await desk(
      `${stack.url}/api/v1/accounts/${stack.accountId}/conversations/${row!.id}/messages`,
      agent.token,
    );
    expect(JSON.stringify(thread.body)).toContain('Great, I will order today.');
  });
  it('lets the customer skip the ask, e-mail the conversation from More options, and stop the e-mails again', async () => {
    const address = 'wants.a.copy@customer.test';
    const { context, page, problems } = await freshPage(browser);
    await page.goto(pages.set('/shop-copy', hostPage(stack)));
    await openChat(page);
    await send(page, 'How do I return an item?');
    await log(page).locator('.message.theirs').first().waitFor(SHORT);
    const ask = page.getByRole('form', { name: 'Get the reply by e-mail?' });
    await ask.getByRole('button', { name: 'No, thanks' }).click();
    await expect.poll(() => ask.count(), SHORT).toBe(0);

    // The skip is kept with the conversation: after a reload the widget reads no ask for it.
    const skippedId = await currentConversation(page, stack.siteKey);
    const skippedAt = async () =>
      (
        await stack.bffSql.query<{ at: Date | null }>(
          'SELECT email_ask_skipped_at AS at FROM conversations WHERE uuid = $1',
          [skippedId],
        )
      )[0]?.at ?? null;
    await expect.poll(skippedAt, SHORT).not.toBeNull();
    const emailRead = page.waitForResponse((response) => response.url().endsWith(`/${skippedId}/email`));
    await page.reload();
    await openChat(page);
    await log(page).locator('.message.theirs').first().waitFor(SHORT);
    expect((await (await emailRead).json()).ask_at).toBeNull();
    await page.waitForTimeout(300);
    expect(await ask.count()).toBe(0);

    const menu = async (item: string) => {
      await page.getByRole('button', { name: 'More options' }).click();
      await page.getByRole('menuitem', { name: item }).click();
    };
    await menu('E-mail me this conversation');
    const copy = page.getByRole('form', { name: 'E-mail this conversation' });
    const field = copy.getByRole('textbox', { name: 'Your e-mail address' });
    await expect
      .poll(() => field.evaluate((input) => input === (input.getRootNode() as ShadowRoot).activeElement), SHORT)
      .toBe(true);
    await field.fill(address);
    await copy.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `on its way to ${address}` })
      .waitFor(SHORT);
    await stack.bff.email.sendDue();
    const copies = email.sink.mails.filter((caught) => caught.envelopeTo.includes(address));
    expect(copies.map((caught) => caught.mail.subject)).toEqual([expect.stringMatching(/^Your conversation with /)]);
    expect(copies[0]!.mail.text).toContain('How do I return an item?');

    await page.getByRole('button', { name: 'Close' }).filter({ hasText: 'Close' }).click();
    await menu('Replies by e-mail');
    const settings = page.getByRole('form', { name: 'Replies by e-mail' });
    expect(await settings.getByRole('textbox', { name: 'Your e-mail address' }).inputValue()).toBe(address);
    await settings.getByRole('button', { name: 'Stop e-mails' }).click();
    await page.getByRole('status').filter({ hasText: 'no longer be e-mailed' }).waitFor(SHORT);
    const conversationId = await currentConversation(page, stack.siteKey);
    const [kept] = await stack.bffSql.query<{ contact_email: string | null }>(
      'SELECT contact_email FROM conversations WHERE uuid = $1',
      [conversationId],
    );
    expect(kept!.contact_email).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });
});
