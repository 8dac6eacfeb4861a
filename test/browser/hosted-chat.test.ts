import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Frame, Page, Request } from 'playwright-core';
import { request } from '../stack.ts';
import { addSiteKey } from '../../bff/index.ts';
import { useBrowserStack } from './browser-stack.ts';
import { ARTIFACTS_DIR } from './chromium.ts';

/**
 * The hosted full-page chat (`GET /chat`) in Chromium, through both of its bridges. The React
 * Native WebView cannot run here, so its side is played by what it puts in the page before the
 * page loads (`window.ParleyNative`, `window.ReactNativeWebView`), which is all the page sees of it.
 * The postMessage bridge runs for real: a shop's page on another origin frames the chat.
 */

interface NativeWindow {
  __sent: { kind: string; event?: string; payload?: { code?: string; message?: string } }[];
  __csp: string[];
  ParleyNative: { init: unknown };
  ReactNativeWebView: { postMessage(text: string): void };
  ParleyBridge: { receive(message: unknown): void };
}

interface ShopWindow {
  received: { origin: string; data: { kind?: string; event?: string; payload?: { code?: string } } }[];
  sendToChat(message: unknown): void;
}

describe('the hosted chat page at /chat', () => {
  // The shop's pages come from the page server, on 127.0.0.1 (the shop) and as localhost (an intruder).
  const harness = useBrowserStack({ pageServer: true });
  let chatOrigin: string;
  let shopOrigin: string;
  let intruderOrigin: string;

  beforeAll(() => {
    // The BFF answers on 127.0.0.1; framed, the chat is reached as localhost (another origin).
    chatOrigin = `http://localhost:${new URL(harness.stack.url).port}`;
    shopOrigin = harness.pages.origin;
    intruderOrigin = `http://localhost:${new URL(shopOrigin).port}`;
    harness.pages.set('/', shopPage());
    harness.pages.set('/intruder', intruderPage());
  });

  /** A shop's page that frames the chat, and a second frame from yet another origin. */
  const shopPage = () => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Shop</title></head>
  <body>
    <iframe id="chat" title="Chat" src="${chatOrigin}/chat" style="width:400px;height:600px"></iframe>
    <iframe id="intruder" title="Something else" src="${intruderOrigin}/intruder"></iframe>
    <script>
      const chat = document.getElementById('chat');
      window.received = [];
      addEventListener('message', (event) => {
        if (event.source === chat.contentWindow) received.push({ origin: event.origin, data: event.data });
      });
      window.sendToChat = (message) => chat.contentWindow.postMessage(message, ${JSON.stringify(chatOrigin)});
    </script>
  </body>
</html>`;

  const intruderPage = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Other</title></head>
<body><script>window.received = []; addEventListener('message', (event) => received.push(event.data));</script></body></html>`;

  /** A fresh page (own storage) that plays the React Native side with `init`, recording requests. */
  async function openNative(init: Record<string, unknown>, path = '/chat') {
    const { page, problems } = await harness.freshPage();
    const requests: Request[] = [];
    const sockets: string[] = [];
    page.on('request', (request) => requests.push(request));
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await page.addInitScript((init) => {
      const native = window as unknown as NativeWindow;
      native.__sent = [];
      native.__csp = [];
      native.ParleyNative = { init };
      native.ReactNativeWebView = { postMessage: (text) => native.__sent.push(JSON.parse(text)) };
      document.addEventListener('securitypolicyviolation', (event) =>
        native.__csp.push(`${event.effectiveDirective} ${event.blockedURI}`),
      );
    }, init);
    await page.goto(`${harness.stack.url}${path}`);
    return { page, problems, requests, sockets };
  }

  const sent = (page: Page) => page.evaluate(() => (window as unknown as NativeWindow).__sent);
  const receive = (page: Page, message: unknown) =>
    page.evaluate((message) => (window as unknown as NativeWindow).ParleyBridge.receive(message), message);
  const errorsSent = async (page: Page) =>
    (await sent(page)).filter((message) => message.event === 'error').map((message) => message.payload?.code);

  it('answers an HTML page with a strict content security policy that any page may frame', async () => {
    const response = await request(`${harness.stack.url}/chat`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = Object.fromEntries(
      response.headers
        .get('content-security-policy')!
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    const host = new URL(harness.stack.url).host;
    expect(csp).toMatchObject({
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'connect-src': ["'self'", `ws://${host}`, `wss://${host}`],
      'frame-ancestors': ['*'],
      'base-uri': ["'none'"],
    });

    const html: string = response.body;
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>Chat</title>');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">');
    expect(html).toContain('<script type="module" src="widget/chat.js"></script>');
    expect(html).toContain('<div id="parley-chat"></div>');
    // The one inline style is allowed by its hash, not by 'unsafe-inline'.
    const style = /<style>(.*)<\/style>/.exec(html)![1]!;
    expect(csp['style-src']).toEqual([`'sha256-${createHash('sha256').update(style).digest('base64')}'`]);

    const script = await fetch(`${harness.stack.url}/widget/chat.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
  });

  it('keeps the bridge contract with the React Native WebView: ready, commands in, errors for what it refuses', async () => {
    const { page, problems } = await openNative({ parley: 1, kind: 'init', siteKey: harness.stack.siteKey });
    // The app loads first: on a busy machine that takes longer than expect.poll's default second.
    await expect
      .poll(() => sent(page), { timeout: 10_000 })
      .toContainEqual({ parley: 1, kind: 'event', event: 'ready' });

    await receive(page, { parley: 1, kind: 'command', command: 'setLocale', args: ['de'] });
    await expect
      .poll(() =>
        page.evaluate(() =>
          document.getElementById('parley-chat')?.shadowRoot?.querySelector('[lang]')?.getAttribute('lang'),
        ),
      )
      .toBe('de');
    expect(await errorsSent(page)).toEqual([]);

    await receive(page, { parley: 1, kind: 'command', command: 'explode', args: [] });
    await receive(page, { parley: 1, kind: 'command', command: 'setLocale', args: [42] });
    await receive(page, 'not json{');
    await receive(page, { parley: 1, kind: 'event', event: 'ready' });
    await expect
      .poll(() => errorsSent(page))
      .toEqual(['invalid_request', 'invalid_request', 'invalid_request', 'invalid_request']);
    const refusal = (await sent(page)).find((message) => message.event === 'error');
    expect(refusal?.payload?.message).toMatch(/command must be one of open, close/);

    expect(await page.evaluate(() => (window as unknown as NativeWindow).__csp)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows the chat open at once and filling the window, with no launcher', async () => {
    const { page, problems } = await openNative({ parley: 1, kind: 'init', siteKey: harness.stack.siteKey });
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS_DIR}/hosted-chat.png` });
    expect(await page.getByRole('button', { name: /open chat/i }).count()).toBe(0);
    const viewport = { x: 0, y: 0, ...page.viewportSize() };
    expect(await page.locator('#parley-chat').boundingBox()).toEqual(viewport);
    expect(await page.getByRole('main').boundingBox()).toEqual(viewport);
    expect(await page.evaluate(() => (window as unknown as NativeWindow).__csp)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('talks postMessage with the page that frames it, to that origin only, and ignores other windows', async () => {
    const { page } = await harness.freshPage();
    await page.goto(`${shopOrigin}/`);
    const frameAt = (url: string) =>
      expect.poll(() => page.frames().find((frame) => frame.url() === url)).toBeDefined();
    await frameAt(`${chatOrigin}/chat`);
    await frameAt(`${intruderOrigin}/intruder`);
    const chatFrame = page.frames().find((frame) => frame.url() === `${chatOrigin}/chat`)!;
    const intruder = page.frames().find((frame) => frame.url() === `${intruderOrigin}/intruder`) as Frame;
    await chatFrame.waitForFunction(() => 'ParleyBridge' in window);
    const received = () => page.evaluate(() => (window as unknown as ShopWindow).received);

    // Another frame of the page is not the chat's parent: its init and its broken message are ignored, unanswered.
    await intruder.evaluate((siteKey) => {
      const chat = window.parent.frames[0]!;
      chat.postMessage({ parley: 1, kind: 'init', siteKey }, '*');
      chat.postMessage({ parley: 1, kind: 'command', command: 'explode', args: [] }, '*');
    }, harness.stack.siteKey);

    // Another script's message on the parent is none of the chat's business.
    await page.evaluate(() => (window as unknown as ShopWindow).sendToChat({ type: 'analytics', hello: true }));
    await page.evaluate(
      (siteKey) => (window as unknown as ShopWindow).sendToChat({ parley: 1, kind: 'init', siteKey }),
      harness.stack.siteKey,
    );
    await expect
      .poll(received)
      .toContainEqual({ origin: chatOrigin, data: { parley: 1, kind: 'event', event: 'ready' } });
    // The intruder's messages went first: had the chat taken its init, there would be a ready before this
    // one, and its broken command would have been answered with an error.
    expect((await received()).filter(({ data }) => data.event === 'ready')).toHaveLength(1);
    expect((await received()).filter(({ data }) => data.event === 'error')).toEqual([]);

    await page.evaluate(() =>
      (window as unknown as ShopWindow).sendToChat({
        parley: 1,
        kind: 'command',
        command: 'setTheme',
        args: [{ color: 'red' }],
      }),
    );
    await expect
      .poll(async () => (await received()).filter(({ data }) => data.event === 'error'))
      .toEqual([
        {
          origin: chatOrigin,
          data: {
            parley: 1,
            kind: 'event',
            event: 'error',
            payload: { code: 'invalid_request', message: expect.stringMatching(/hex colour/) },
          },
        },
      ]);
    expect(await intruder.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([]);
  });

  it("lets only a live key's own sites frame its chat, and refuses a live key sent by postMessage to a framed chat", async () => {
    const [inbox] = await harness.stack.bffSql.query<{ id: string }>(
      'SELECT id FROM inboxes ORDER BY created_at LIMIT 1',
    );
    const live = await addSiteKey(harness.stack.bffSql, inbox!.id, 'live', [
      'https://shop.example',
      'https://www.shop.example',
    ]);
    const framers = async (query: string) => {
      const csp = (await request(`${harness.stack.url}/chat${query}`)).headers.get('content-security-policy')!;
      return /frame-ancestors ([^;]+)/.exec(csp)![1]!.split(' ');
    };
    expect(await framers(`?site_key=${live.key}`)).toEqual(['https://shop.example', 'https://www.shop.example']);
    expect(await framers('?site_key=pk_live_AAAAAAAAAAAAAAAAAAAAAAAA')).toEqual(["'none'"]);
    expect(await framers(`?site_key=${harness.stack.siteKey}`)).toEqual(['*']);

    // A page of an unlisted site frames the chat and hands it the live key by postMessage: refused.
    const { page } = await harness.freshPage();
    await page.goto(`${shopOrigin}/`);
    await expect.poll(() => page.frames().find((frame) => frame.url() === `${chatOrigin}/chat`)).toBeDefined();
    await page
      .frames()
      .find((frame) => frame.url() === `${chatOrigin}/chat`)!
      .waitForFunction(() => 'ParleyBridge' in window);
    const received = () => page.evaluate(() => (window as unknown as ShopWindow).received);
    await page.evaluate(
      (siteKey) => (window as unknown as ShopWindow).sendToChat({ parley: 1, kind: 'init', siteKey }),
      live.key,
    );
    await expect
      .poll(async () => (await received()).map(({ data }) => data.payload?.code ?? data.event))
      .toContain('invalid_request');
    expect((await received()).some(({ data }) => data.event === 'ready')).toBe(false);
  });

  it('never takes a token from the URL, and takes it out of the address bar', async () => {
    const { page } = await harness.freshPage();
    const requests: Request[] = [];
    const sockets: string[] = [];
    page.on('request', (request) => requests.push(request));
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await page.goto(
      `${harness.stack.url}/chat?token=wst_fromtheurl&site_key=${harness.stack.siteKey}&session_token=wst_another#access_token=wst_fragment`,
    );
    await expect.poll(() => page.url()).toBe(`${harness.stack.url}/chat?site_key=${harness.stack.siteKey}`);

    // A direct link: the chat runs as a visitor with the site key from the URL.
    await expect.poll(() => page.getByRole('textbox', { name: 'Message' }).isEnabled()).toBe(true);
    const sessionRequests = requests.filter((request) => request.url() === `${harness.stack.url}/v1/widget-sessions`);
    expect(sessionRequests).toHaveLength(1);
    expect(await sessionRequests[0]!.headerValue('authorization')).toBe(`Bearer ${harness.stack.siteKey}`);
    // Only the navigation this test made carried the tokens; nothing the page asked for did.
    for (const request of requests.filter((request) => !request.isNavigationRequest())) {
      expect(request.url()).not.toMatch(/wst_/);
      expect((await request.headerValue('authorization')) ?? '').not.toMatch(/wst_fromtheurl|wst_another|wst_fragment/);
      expect(await request.headerValue('referer')).toBeNull();
    }
    // The text box is usable once the session exists (messages go over HTTP); the socket may open a moment later.
    await expect.poll(() => sockets.length).toBeGreaterThan(0);
    expect(sockets.join(' ')).not.toMatch(/wst_/);
  });

  it("uses a verified customer's token passed over the bridge, in the Authorization header (the start's in its form body) and never in a URL", async () => {
    const minted = await request(`${harness.stack.engineUrl}/v1/widget-sessions`, {
      token: harness.stack.apiKey,
      body: { customer_ref: 'hosted-customer-1' },
    });
    expect(minted.status).toBe(201);
    const token: string = minted.body.token;
    const { page, problems, requests, sockets } = await openNative({ parley: 1, kind: 'init', token, locale: 'en' });
    await expect.poll(() => sent(page)).toContainEqual({ parley: 1, kind: 'event', event: 'ready' });

    const box = page.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill('How do I return an item?');
    await box.press('Enter');
    await page.getByRole('log').getByText('within 30 days of delivery').waitFor();

    const widgetRequests = requests.filter((request) => new URL(request.url()).pathname.startsWith('/v1/widget/'));
    expect(widgetRequests.length).toBeGreaterThan(0);
    for (const request of widgetRequests) {
      // The start goes as a form, with no preflight: the token is in its body (issue 34).
      if (new URL(request.url()).pathname === '/v1/widget/start')
        expect(new URLSearchParams(request.postData() ?? '').get('token')).toBe(token);
      else expect(await request.headerValue('authorization')).toBe(`Bearer ${token}`);
    }
    // No site-key session was asked for: the page went straight to the customer's token.
    expect(requests.filter((request) => request.url().endsWith('/v1/widget-sessions'))).toEqual([]);
    for (const url of [...requests.map((request) => request.url()), ...sockets]) expect(url).not.toContain(token);
    expect(sockets.length).toBeGreaterThan(0);

    // The stack's key is a sandbox key: its verified customers live in the inbox's sandbox space.
    const stored = await harness.stack.bffSql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM conversations WHERE customer_ref = $1',
      ['test:hosted-customer-1'],
    );
    expect(stored).toEqual([{ count: 1 }]);
    const events = (await sent(page)).filter((message) => message.event === 'message');
    expect(events).toContainEqual(
      expect.objectContaining({
        payload: expect.objectContaining({ author: 'ai', text: expect.stringContaining('within 30 days') }),
      }),
    );
    expect(await page.evaluate(() => (window as unknown as NativeWindow).__csp)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
