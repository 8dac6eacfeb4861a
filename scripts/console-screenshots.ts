import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { RunningDemo } from '../demo/run-demo.ts';

/**
 * The agent console's picture for the README (issue 31), made by `npm run screenshots` on the stack
 * it runs: three customers of the demo store ask the AI something and hand over from the widget
 * (each browser tells its own time zone and name, so the list reads "Visitor from Rome · Chrome");
 * one is labelled, one gives her name in the pre-chat form and the person edits her contact. The
 * person, signed in with a one-time link, answers her and leaves a private note; she writes again,
 * so the Assist panel has a suggestion. Shot whole at 1440×900, light (docs/console.png) and dark.
 */

const SCREEN = { width: 1440, height: 900 } as const;
/** Every wait is bounded, so a console that changed shape fails the script instead of hanging it. */
const WAIT = 20_000;
const shown = (locator: Locator): Promise<void> => locator.first().waitFor({ timeout: WAIT });

/** What each customer's browser says it is (the BFF reads the name from it). */
const AGENTS = {
  Chrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  Firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  Safari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
} as const;

interface Customer {
  timezoneId: string;
  browser: keyof typeof AGENTS;
  question: string;
  /** Part of the AI's answer to wait for. */
  answer: RegExp;
  /** What they give in the pre-chat form, when the inbox asks for it. */
  prechat?: { name: string; email: string };
  /** What they write while they wait for a person. */
  then?: string;
}

const CRACKED: Customer = {
  timezoneId: 'Europe/Rome',
  browser: 'Chrome',
  question: 'My blender arrived with a cracked jug. Can you send a new one?',
  answer: /./,
  then: 'The box looked fine, only the glass jug is broken. I have photos.',
};
const RETURNING: Customer = {
  timezoneId: 'Europe/Berlin',
  browser: 'Firefox',
  question: 'How do I return an item?',
  answer: /within 30 days/,
  prechat: { name: 'Emma Schmidt', email: 'emma.schmidt@example.com' },
};
const WAITING: Customer = {
  timezoneId: 'Europe/Oslo',
  browser: 'Safari',
  question: 'How long does delivery take?',
  answer: /./,
  then: 'My parcel was meant to arrive on Monday and I need it for a birthday on Friday.',
};

async function api(url: string, token: string, options: { method?: string; body?: unknown } = {}): Promise<any> {
  const response = await fetch(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: { api_access_token: token, 'content-type': 'application/json' },
    body: options.body === undefined ? null : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${options.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/**
 * A person of the shop's team, made through the Platform API: an administrator answering the demo
 * inbox, their access token, and a one-time link that signs them in to the console.
 */
async function teamMember(stack: RunningDemo, name: string, email: string) {
  const platformToken = stack.newPlatformToken;
  if (!platformToken) throw new Error('a fresh demo start makes a platform token; this one did not');
  const platform = `${stack.url}/platform/api/v1`;
  const user = await api(`${platform}/users`, platformToken, { body: { name, email } });
  await api(`${platform}/accounts/${stack.accountId}/account_users`, platformToken, {
    body: { user_id: user.id, role: 'administrator' },
  });
  const account = `${stack.url}/api/v1/accounts/${stack.accountId}`;
  const { payload: inboxes } = await api(`${account}/inboxes`, user.access_token);
  const inbox = (inboxes as { id: number; inbox_identifier: string | null }[]).find(
    (one) => one.inbox_identifier === stack.inboxIdentifier,
  );
  if (!inbox) throw new Error('the demo inbox is not in the demo account');
  await api(`${account}/inbox_members`, user.access_token, { body: { inbox_id: inbox.id, user_ids: [user.id] } });
  const link = await api(`${platform}/users/${user.id}/login`, platformToken);
  return {
    inboxId: inbox.id,
    signInUrl: link.url as string,
    call: (path: string, options: { method?: string; body?: unknown } = {}) =>
      api(`${account}${path}`, user.access_token, options),
  };
}

/** The widget on the demo storefront, as `scripts/screenshots.ts` finds it. */
const panel = (page: Page): Locator => page.locator('[data-parley]').locator('section.panel');
const messageBox = (page: Page): Locator => panel(page).getByRole('textbox').first();
const widgetLog = (page: Page): Locator => panel(page).getByRole('log');

async function say(page: Page, text: string, reply: string | RegExp): Promise<void> {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
  await shown(widgetLog(page).getByText(reply));
}

/** A customer on the storefront who asks their question, reads the AI's answer and asks for a person. */
async function handOver(
  browser: Browser,
  stack: RunningDemo & { address(): string },
  customer: Customer,
): Promise<{ context: BrowserContext; page: Page; uuid: string }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: customer.timezoneId,
    userAgent: AGENTS[customer.browser],
    reducedMotion: 'reduce',
    extraHTTPHeaders: { 'x-forwarded-for': stack.address() },
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.warn(`page error: ${error.message}`));
  await page.goto(stack.url);
  await page.locator('[data-parley]').getByRole('button').first().click();
  if (customer.prechat) {
    await panel(page).getByLabel('Name').fill(customer.prechat.name);
    await panel(page).getByLabel('Email').fill(customer.prechat.email);
    await panel(page).getByRole('button', { name: 'Start chatting' }).click();
  }
  await messageBox(page).waitFor({ timeout: WAIT });
  const deadline = Date.now() + WAIT;
  while (!(await messageBox(page).isEnabled())) {
    if (Date.now() > deadline) throw new Error('the message box never took text');
    await page.waitForTimeout(50);
  }
  await say(page, customer.question, customer.answer);
  await say(page, 'I want to talk to a person', 'connected with a person');
  if (customer.then) await say(page, customer.then, customer.then);
  const uuid = await page.evaluate((key) => localStorage.getItem(`parley:${key}:conversation`), stack.siteKey);
  return { context, page, uuid: uuid ?? '' };
}

/** The console's conversation found by the customer's words, through the Application API's search. */
async function conversationWith(call: (path: string) => Promise<any>, words: string) {
  const found = await call(`/conversations/search?q=${encodeURIComponent(words)}`);
  const [first] = found.data.payload as { id: number; contact: { id: number } }[];
  if (!first) throw new Error(`no conversation has the words "${words}"`);
  return first;
}

/** Sets up the queue and shoots the console: docs/console.png (light) and console-dark-desktop.png. */
export async function consoleScreenshots(
  browser: Browser,
  stack: RunningDemo & { address(): string },
  files: { light: string; dark: string },
): Promise<string[]> {
  const sam = await teamMember(stack, 'Sam Rivera', 'sam@northwind.example');
  await sam.call('/labels', { body: { title: 'damaged', color: '#D97706' } });

  const customers: BrowserContext[] = [];
  const cracked = await handOver(browser, stack, CRACKED);
  // The pre-chat form only for this one customer: the others stay visitors the console names by their browser.
  await sam.call(`/inboxes/${sam.inboxId}`, { method: 'PATCH', body: { pre_chat_form_enabled: true } });
  const returning = await handOver(browser, stack, RETURNING);
  await sam.call(`/inboxes/${sam.inboxId}`, { method: 'PATCH', body: { pre_chat_form_enabled: false } });
  const waiting = await handOver(browser, stack, WAITING);
  customers.push(cracked.context, returning.context, waiting.context);

  // The widget's other shots left conversations with people: done, as a team would have them.
  const ours = new Set([cracked.uuid, returning.uuid, waiting.uuid]);
  const { data } = await sam.call('/conversations?status=open');
  for (const other of data.payload as { id: number; uuid: string }[])
    if (!ours.has(other.uuid))
      await sam.call(`/conversations/${other.id}/toggle_status`, { body: { status: 'resolved' } });

  const damaged = await conversationWith(sam.call, 'blender');
  await sam.call(`/conversations/${damaged.id}/labels`, { body: { labels: ['damaged'] } });

  const context = await browser.newContext({
    viewport: SCREEN,
    deviceScaleFactor: 1,
    locale: 'en-US',
    timezoneId: 'Europe/Berlin',
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  customers.push(context);
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.warn(`console page error: ${error.message}`));
    await page.goto(sam.signInUrl);
    await shown(page.getByText('Live', { exact: true }));
    const available = page.getByRole('switch', { name: 'Available' });
    if ((await available.getAttribute('aria-checked')) !== 'true') await available.click();
    const list = page.getByRole('navigation', { name: 'Conversations' });
    await list.getByRole('button', { name: /Emma Schmidt/ }).click();
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await shown(transcript.getByText('within 30 days'));
    // What the team knows of Emma besides what she typed in the pre-chat form.
    const contact = page.getByRole('complementary', { name: 'Contact' });
    await contact.getByLabel('Phone').fill('+4930901820');
    await contact.getByLabel('Custom attributes').fill('plan: Member\norders: 7');
    await contact.getByRole('button', { name: 'Save contact' }).click();

    const reply = page.getByRole('textbox', { name: 'Reply' });
    await reply.fill(
      "Hi Emma, I'm Sam from Northwind. I've sent a prepaid return label to your e-mail: print it, " +
        'pack the item and drop it at any post office.',
    );
    await reply.press('Enter');
    await shown(widgetLog(returning.page).getByText('prepaid return label'));
    await page.getByRole('checkbox', { name: 'Private note' }).check();
    await reply.fill('Regular customer (7 orders). If the box is damaged, accept the return anyway.');
    await reply.press('Enter');
    await shown(transcript.getByText('accept the return anyway'));
    await page.getByRole('checkbox', { name: 'Private note' }).uncheck();

    await say(returning.page, 'Thank you! When will I get my refund?', 'When will I get my refund?');
    await shown(transcript.getByText('When will I get my refund?'));
    await shown(page.getByRole('region', { name: 'Assist' }).getByText('5 business days'));
    await shown(list.getByRole('button', { name: /Visitor from Rome/ }));
    await shown(page.getByRole('switch', { name: 'Available', checked: true }));
    const answer = transcript.locator('.message.ai', { hasText: 'within 30 days' });

    const written: string[] = [];
    for (const [theme, file] of [
      ['light', files.light],
      ['dark', files.dark],
    ] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.mouse.move(0, 0);
      await reply.evaluate((element) => (element as HTMLElement).blur());
      // At 900 pixels the transcript shows about 280 of them: the light shot has the newest messages (the
      // person's answer, the note, the customer's question that Assist answers); the dark one the AI's
      // answer as the customer saw it, with its buttons.
      if (theme === 'light') await transcript.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      else await answer.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
      written.push(file);
    }
    return written;
  } finally {
    for (const one of customers) await one.close();
  }
}
