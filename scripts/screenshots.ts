import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { MemoryRollingLimiter, createLogger } from '../shared/server/index.ts';
import { readDemoConfig } from '../demo/config.ts';
import { runDemo, type RunningDemo } from '../demo/run-demo.ts';
import { DEMO_SHOP } from '../demo/shop.ts';
import { launchChromium } from '../test/browser/chromium.ts';
import { consoleScreenshots } from './console-screenshots.ts';

/**
 * `npm run screenshots`: the widget's states as PNGs in docs/screenshots/, the proof of issue 16
 * that the README shows. It runs what `npm start` runs (engine, BFF and storefront on embedded
 * PGlite, in memory, on free ports, no network) and drives Debian's Chromium through each state:
 * each state is set up once, then shot in the looks it is shown in (light or dark by the system's
 * colour scheme, which the widget follows; desktop 1280×800 or phone 390×844 by resizing the
 * window). Arabic (right-to-left) states run in a browser that speaks Arabic, so the AI answers in
 * Arabic too. The configuration is its own, not the environment's: the AI is the retrieval brain,
 * never an LLM, so the texts are the same on every run.
 *
 * The widget is found by roles and names, through the few helpers under "Finding the widget":
 * when its markup changes, those are the lines to update.
 */

const OUT = 'docs/screenshots';
const DESKTOP = { width: 1280, height: 800 } as const;
const PHONE = { width: 390, height: 844 } as const;
/** Every wait is bounded, so a widget that changed shape fails the script instead of hanging it. */
const WAIT = 15_000;

type Theme = 'light' | 'dark';
type Device = 'desktop' | 'phone';
interface Look {
  theme: Theme;
  device: Device;
}
const look = (theme: Theme, device: Device): Look => ({ theme, device });

// ---- The stack ------------------------------------------------------------------------------

/** One trusted proxy, so each browser context is a client address of its own (X-Forwarded-For). */
interface Stack extends RunningDemo {
  /** A fresh client address: the site-key limit (20 an hour) counts per address. */
  address(): string;
}

async function startStack(): Promise<Stack> {
  const config = readDemoConfig({ PORT: '0', ENGINE_PORT: '0', HOST: '127.0.0.1', DATA_DIR: 'memory://' });
  const demo = await runDemo(config, createLogger('screenshots', 'warn'), {
    bff: { trustProxyHops: 1, siteKeyLimiter: new MemoryRollingLimiter(20, 3_600_000) },
  });
  let next = 0;
  return { ...demo, address: () => `203.0.113.${++next}` };
}

async function call(
  url: string,
  options: { token: string; method?: string; body?: unknown; headers?: Record<string, string>; helpdesk?: boolean },
): Promise<{ status: number; body: any }> {
  // The helpdesk's APIs take Chatwoot's api_access_token header; the widget's and the engine's a bearer token.
  const auth = options.helpdesk ? { api_access_token: options.token } : { authorization: `Bearer ${options.token}` };
  const response = await fetch(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: { ...auth, 'content-type': 'application/json', ...options.headers },
    body: options.body === undefined ? null : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function expectOk(what: string, answer: Promise<{ status: number; body: any }>): Promise<any> {
  const { status, body } = await answer;
  if (status !== 200) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Changes the demo inbox as its administrator would, through the Application API (an administrator
 * made with the platform token that this fresh start printed).
 */
async function inboxSettings(stack: Stack): Promise<(fields: object) => Promise<void>> {
  const platform = stack.newPlatformToken;
  if (!platform) throw new Error('a fresh demo start makes a platform token; this one did not');
  const base = `${stack.url}/platform/api/v1`;
  const admin = await expectOk(
    'making an administrator',
    call(`${base}/users`, { token: platform, helpdesk: true, body: { name: 'Ada', email: 'ada@northwind.example' } }),
  );
  await expectOk(
    'adding the administrator',
    call(`${base}/accounts/${stack.accountId}/account_users`, {
      token: platform,
      helpdesk: true,
      body: { user_id: admin.id, role: 'administrator' },
    }),
  );
  const app = `${stack.url}/api/v1/accounts/${stack.accountId}/inboxes`;
  const { payload } = await expectOk('listing the inboxes', call(app, { token: admin.access_token, helpdesk: true }));
  const inbox = (payload as { id: number; inbox_identifier: string | null }[]).find(
    (one) => one.inbox_identifier === stack.inboxIdentifier,
  );
  if (!inbox) throw new Error('the demo inbox is not in the demo account');
  return async (fields) => {
    await expectOk(
      'changing the demo inbox',
      call(`${app}/${inbox.id}`, { token: admin.access_token, helpdesk: true, method: 'PATCH', body: fields }),
    );
  };
}

/** Closed every day of the week: away, the AI still answering. */
const AWAY = {
  working_hours_enabled: true,
  timezone: 'UTC',
  out_of_office_message:
    'We are away until Monday 9:00. Our AI assistant answers in the meantime; a person replies when we are back.',
  working_hours: Array.from({ length: 7 }, (_, day) => ({ day_of_week: day, closed_all_day: true })),
};

/** The engine's id of the BFF's conversation, once the relay has given it one. */
async function engineConversation(stack: Stack, uuid: string): Promise<string> {
  return until(`the engine's id of conversation ${uuid}`, async () => {
    const [row] = await stack.bffSql.query<{ engine_conversation_id: string | null }>(
      'SELECT engine_conversation_id FROM conversations WHERE uuid = $1',
      [uuid],
    );
    return row?.engine_conversation_id ?? undefined;
  });
}

/** A person from the team answers, as the helpdesk would (through the engine's API). */
async function personSays(stack: Stack, page: Page, text: string, authorName = 'Sam'): Promise<void> {
  const conversation = await until('the conversation the widget has open', () =>
    page.evaluate((key) => localStorage.getItem(`parley:${key}:conversation`) ?? undefined, stack.siteKey),
  );
  const engineId = await engineConversation(stack, conversation);
  await expectOk(
    "a person's message",
    call(`${stack.engineUrl}/v1/conversations/${engineId}/human-messages`, {
      token: stack.apiKey,
      body: { text, author_name: authorName },
    }),
  );
  await stack.bff.feed.catchUp();
}

/** Spends an address's 20 site-key requests of the hour, so the widget's next one is refused (429). */
async function exhaustSiteKeyLimit(stack: Stack, address: string): Promise<void> {
  for (let spent = 0; spent < 20; spent++) {
    const answer = await call(`${stack.url}/v1/widget-sessions`, {
      token: stack.siteKey,
      body: {},
      headers: { 'x-forwarded-for': address },
    });
    if (answer.status !== 201)
      throw new Error(`site-key request ${spent + 1} of 20 was refused early: ${answer.status}`);
  }
}

// ---- Finding the widget (update these when the markup changes) -----------------------------

/** The widget's host element: the loader's on a page, the hosted /chat's own container there. */
const host = (page: Page): Locator => page.locator('[data-parley], #parley-chat');
/** The launcher: the first button of the widget's host, whatever the language. */
const launcher = (page: Page): Locator => host(page).getByRole('button').first();
/** The open panel: a dialog on a page, the main landmark on the hosted /chat. */
const panel = (page: Page): Locator => host(page).locator('section.panel');
const messageBox = (page: Page): Locator => panel(page).getByRole('textbox').first();
const log = (page: Page): Locator => panel(page).getByRole('log');
const conversationsButton = (page: Page): Locator => panel(page).getByRole('button', { name: 'Your conversations' });
const survey = (page: Page): Locator => panel(page).locator('form.survey');
const offlineNotice = (page: Page): Locator =>
  panel(page)
    .getByRole('status')
    .filter({ hasText: /offline/i });
const retryButton = (page: Page): Locator => log(page).getByRole('button', { name: 'Retry' });
const errorAlert = (page: Page): Locator => panel(page).getByRole('alert');

// ---- Driving it ------------------------------------------------------------------------------

/** Polls `read` until it gives a value (not undefined, false, 0 or ''), or fails after WAIT. */
async function until<T>(what: string, read: () => Promise<T | undefined | false | null | '' | 0>): Promise<T> {
  const deadline = Date.now() + WAIT;
  for (;;) {
    const value = await read();
    if (value) return value as T;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const shown = (locator: Locator): Promise<void> => locator.first().waitFor({ timeout: WAIT });

interface Visit {
  context: BrowserContext;
  page: Page;
}

/** The demo storefront in a fresh context (its own storage and client address), widget loaded. */
async function visit(
  browser: Browser,
  stack: Stack,
  options: { locale?: string; address?: string; path?: string } = {},
): Promise<Visit> {
  const context = await browser.newContext({
    viewport: DESKTOP,
    deviceScaleFactor: 1,
    locale: options.locale ?? 'en-US',
    timezoneId: 'UTC',
    colorScheme: 'light',
    reducedMotion: 'reduce',
    extraHTTPHeaders: { 'x-forwarded-for': options.address ?? stack.address() },
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.warn(`page error: ${error.message}`));
  await page.goto(`${stack.url}${options.path ?? '/'}`);
  if (!options.path) await shown(launcher(page));
  return { context, page };
}

/** Opens the chat and waits until the message box takes text. */
async function openChat(page: Page): Promise<void> {
  await launcher(page).click();
  await until('the message box to take text', () => messageBox(page).isEnabled());
}

async function send(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}

/** Sends a message and waits for a reply containing `reply`. */
async function ask(page: Page, question: string, reply: string | RegExp): Promise<void> {
  await send(page, question);
  await shown(log(page).getByText(reply));
}

// ---- Shooting --------------------------------------------------------------------------------

const written: string[] = [];

/** Sets the system's colour scheme, which the widget follows (mode auto), and waits until it is drawn. */
async function setTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  const themed = host(page).locator('[data-theme]').first();
  if ((await themed.count()) > 0)
    await until(`the ${theme} theme`, async () => (await themed.getAttribute('data-theme')) === theme);
}

/**
 * Shoots the state in each look: on a phone the whole screen (the panel fills it); on a desktop the
 * panel with the launcher and a margin of the page behind, or the whole window with `whole`.
 */
async function shoot(
  page: Page,
  state: string,
  looks: Look[],
  options: { rtl?: boolean; whole?: boolean } = {},
): Promise<void> {
  for (const { theme, device } of looks) {
    await page.setViewportSize(device === 'phone' ? PHONE : DESKTOP);
    await setTheme(page, theme);
    await page.mouse.move(0, 0);
    // The newest messages in view, as a customer sees them (a resize keeps the old scroll position).
    for (const scroller of await log(page).all())
      await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    // Let layout and fonts settle after the resize (two frames).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const file = join(OUT, `${state}-${theme}-${device}${options.rtl ? '-rtl' : ''}.png`);
    const box =
      device === 'desktop' && !options.whole && (await panel(page).count()) > 0
        ? await panel(page).boundingBox()
        : null;
    const margin = 24;
    const clip = box
      ? { x: Math.max(0, box.x - margin), y: Math.max(0, box.y - margin), width: 0, height: 0 }
      : undefined;
    if (clip) {
      clip.width = DESKTOP.width - clip.x;
      clip.height = DESKTOP.height - clip.y;
    }
    await page.screenshot({ path: file, animations: 'disabled', caret: 'hide', ...(clip ? { clip } : {}) });
    written.push(file);
  }
}

const LIGHT_AND_DARK = [look('light', 'desktop'), look('dark', 'desktop')];

// ---- The states ------------------------------------------------------------------------------

/** Home, an answer with formatting and a card, quick replies, a handover and the list. */
async function mainConversation(browser: Browser, stack: Stack): Promise<void> {
  const { context, page } = await visit(browser, stack);
  await openChat(page);
  await shoot(page, 'home', [...LIGHT_AND_DARK, look('light', 'phone')]);

  await ask(page, 'How do I return an item?', 'within 30 days');
  await ask(page, 'Where is my order 12345?', 'Order 12345');
  await shoot(page, 'answer', [...LIGHT_AND_DARK, look('dark', 'phone')]);

  await ask(page, 'Do you sell gift cards?', /./);
  await send(page, 'I want to talk to a person');
  await shown(log(page).getByText('connected with a person'));
  await personSays(
    stack,
    page,
    "Hi, I'm Sam from the shop. I can see your order 12345: it leaves our warehouse today.",
  );
  await shown(log(page).getByText('leaves our warehouse'));
  await shoot(page, 'handover', LIGHT_AND_DARK);

  await conversationsButton(page).click();
  await shown(panel(page).getByRole('listitem'));
  await shoot(page, 'list', [look('light', 'desktop'), look('dark', 'phone')]);
  await context.close();
}

/** The home screen's search of the help articles, and an article opened from it. */
async function helpSearch(browser: Browser, stack: Stack): Promise<void> {
  const { context, page } = await visit(browser, stack);
  await openChat(page);
  await panel(page).getByRole('searchbox').fill('return');
  const results = panel(page).getByRole('list', { name: 'Articles' }).getByRole('button');
  await shown(results);
  await shoot(page, 'help-search', [look('light', 'desktop')]);
  await results.first().click();
  await shown(panel(page).locator('article'));
  await shoot(page, 'help-article', [look('light', 'desktop')]);
  await context.close();
}

/** A message to the closed widget: the launcher's badge (and preview card, where the widget has one). */
async function closedWithNewMessage(browser: Browser, stack: Stack): Promise<void> {
  const { context, page } = await visit(browser, stack);
  await openChat(page);
  await send(page, 'I want to talk to a person');
  await shown(log(page).getByText('connected with a person'));
  await page.keyboard.press('Escape');
  await until('the panel to close', async () => (await panel(page).count()) === 0);
  // Focus away from the launcher, as after a customer's click elsewhere on the page.
  await page.mouse.click(5, 300);
  await personSays(stack, page, 'Hi, Sam here. Your parcel is on its way; anything else I can do?');
  // The preview card beside the launcher shows the start of the message.
  await until('the preview of the new message', async () =>
    (await host(page).evaluate((element) => element.shadowRoot?.textContent ?? '')).includes('Sam here'),
  );
  await shoot(page, 'launcher-new-message', [look('light', 'desktop'), look('dark', 'phone')], { whole: true });
  await context.close();
}

/** Offline, then a message the server refuses, shown as not sent with Retry. */
async function offlineAndFailed(browser: Browser, stack: Stack): Promise<void> {
  const { context, page } = await visit(browser, stack);
  await openChat(page);
  await ask(page, 'Do you ship abroad?', 'Norway');
  await context.setOffline(true);
  await shown(offlineNotice(page));
  await send(page, 'When will I get my refund?');
  await shoot(page, 'offline', [look('light', 'desktop')]);
  await context.setOffline(false);
  await shown(log(page).getByText('5 business days'));
  await until('the offline notice to go', async () => (await offlineNotice(page).count()) === 0);

  await context.route('**/v1/widget/conversations/*/messages', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    return route.fulfill({
      status: 422,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'unprocessable', message: 'Refused for the screenshot.' } }),
    });
  });
  await send(page, 'Can I pay by invoice?');
  await shown(retryButton(page));
  await shoot(page, 'failed', [look('light', 'desktop')]);
  await context.close();
}

/** The conversation ended by the customer's thanks, with the survey. */
async function endedWithSurvey(browser: Browser, stack: Stack): Promise<void> {
  const { context, page } = await visit(browser, stack);
  await openChat(page);
  await ask(page, 'How do I return an item?', 'within 30 days');
  await send(page, 'thanks');
  await shown(survey(page));
  await shoot(page, 'ended', [look('light', 'desktop'), look('dark', 'desktop'), look('light', 'phone')]);
  await context.close();
}

/** The site-key limit reached: the widget cannot start a chat for a while. */
async function rateLimited(browser: Browser, stack: Stack): Promise<void> {
  const address = stack.address();
  await exhaustSiteKeyLimit(stack, address);
  const { context, page } = await visit(browser, stack, { address });
  await launcher(page).click();
  await shown(errorAlert(page));
  await shoot(page, 'limited', [look('light', 'desktop'), look('dark', 'phone')]);
  await context.close();
}

/** Arabic, right to left: home, the AI's answer in Arabic with its choices, a person's reply. */
async function arabic(browser: Browser, stack: Stack): Promise<void> {
  const { context, page } = await visit(browser, stack, { locale: 'ar' });
  await openChat(page);
  await shoot(page, 'home', [look('light', 'desktop')], { rtl: true });
  // Not in the (English) articles: the AI says so in Arabic and offers a person.
  await send(page, 'هل تبيعون بطاقات هدايا للمعلمين؟');
  await until(
    'the answer in Arabic',
    async () => (await log(page).locator('.message').count()) >= 2 && (await log(page).getByRole('button').count()) > 0,
  );
  await shoot(page, 'answer', [look('light', 'desktop'), look('dark', 'phone')], { rtl: true });
  await log(page).getByRole('button').last().click();
  await until('the handover', async () => (await log(page).locator('.notice').count()) > 0);
  await personSays(stack, page, 'مرحبًا، أنا سارة من فريق المتجر. كيف يمكنني مساعدتك؟', 'سارة');
  await shown(log(page).getByText('سارة من فريق المتجر'));
  await shoot(page, 'handover', [look('dark', 'desktop')], { rtl: true });
  await context.close();
}

/** The hosted chat at /chat on a desktop, and its error page without a site key. */
async function hosted(browser: Browser, stack: Stack): Promise<void> {
  const { context, page } = await visit(browser, stack, { path: `/chat?site_key=${stack.siteKey}` });
  await until(
    'the message box to take text',
    async () => (await messageBox(page).count()) > 0 && messageBox(page).isEnabled(),
  );
  await ask(page, 'How do I return an item?', 'within 30 days');
  await shoot(page, 'hosted', [look('light', 'desktop'), look('dark', 'desktop')], { whole: true });
  await context.close();

  for (const locale of ['en-US', 'ar']) {
    const { context: errorContext, page: errorPage } = await visit(browser, stack, { path: '/chat', locale });
    await shown(errorPage.getByRole('heading', { level: 1 }));
    const looks = locale === 'ar' ? [look('dark', 'phone')] : [look('light', 'desktop')];
    await shoot(errorPage, 'chat-error', looks, { whole: true, rtl: locale === 'ar' });
    await errorContext.close();
  }
}

/** The agent console working a queue (issue 31): the README's docs/console.png, and dark. */
async function agentConsole(browser: Browser, stack: Stack): Promise<void> {
  const dark = join(OUT, 'console-dark-desktop.png');
  written.push(...(await consoleScreenshots(browser, stack, { light: 'docs/console.png', dark })));
}

/** Outside working hours: the home of a new conversation says so (set last: it holds for every visit after). */
async function away(browser: Browser, stack: Stack, setInbox: (fields: object) => Promise<void>): Promise<void> {
  await setInbox(AWAY);
  const { context, page } = await visit(browser, stack);
  await openChat(page);
  await shoot(page, 'away', [look('light', 'desktop'), look('dark', 'phone')]);
  await context.close();
}

// ---- Main ------------------------------------------------------------------------------------

const started = Date.now();
await mkdir(OUT, { recursive: true });
for (const file of await readdir(OUT)) if (file.endsWith('.png')) await rm(join(OUT, file));
const [stack, browser] = await Promise.all([startStack(), launchChromium()]);
try {
  const setInbox = await inboxSettings(stack);
  await setInbox(DEMO_SHOP);
  for (const state of [
    mainConversation,
    helpSearch,
    closedWithNewMessage,
    offlineAndFailed,
    endedWithSurvey,
    rateLimited,
    arabic,
    hosted,
    agentConsole,
    away,
  ]) {
    const before = Date.now();
    await state(browser, stack, setInbox);
    process.stdout.write(`${state.name}: ${((Date.now() - before) / 1000).toFixed(1)} s\n`);
  }
} finally {
  await browser.close();
  await stack.close();
}
let bytes = 0;
for (const file of written) bytes += (await stat(file)).size;
process.stdout.write(
  `${written.length} screenshots, ${Math.round(bytes / 1024)} KiB, in ${OUT}/ (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
);
