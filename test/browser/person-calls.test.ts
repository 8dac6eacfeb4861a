import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { desk } from '../helpdesk-client.ts';
import { startStack, type TestStack } from '../stack.ts';
import { ARTIFACTS_DIR, FAKE_MEDIA, launchChromium } from './chromium.ts';
import { consoleAgent } from './console-agent.ts';
import { freshPage, launcher, log, messageBox, SHORT, waitReady } from './widget-helpers.ts';

/** Every RTCPeerConnection a page makes, kept for the test to read its stats (the app keeps its own to itself). */
const KEEP_PEERS = () => {
  const Original = window.RTCPeerConnection;
  const kept: RTCPeerConnection[] = [];
  (window as unknown as { peers: RTCPeerConnection[] }).peers = kept;
  window.RTCPeerConnection = class extends Original {
    constructor(configuration?: RTCConfiguration) {
      super(configuration);
      kept.push(this);
    }
  } as typeof RTCPeerConnection;
};

/** Audio bytes the page's peer connections received (`inbound-rtp`). */
const bytesReceived = (page: Page): Promise<number> =>
  page.evaluate(async () => {
    let total = 0;
    for (const peer of (window as unknown as { peers: RTCPeerConnection[] }).peers) {
      if (peer.connectionState === 'closed') continue;
      (await peer.getStats()).forEach((report: { type: string; bytesReceived?: number }) => {
        if (report.type === 'inbound-rtp') total += report.bytesReceived ?? 0;
      });
    }
    return total;
  });

/**
 * A call between a customer and a person (issue 30), in Chromium with fake microphones: the
 * customer presses Call in the widget, the console rings ("Incoming call"), the person accepts,
 * audio flows both ways browser to browser (on loopback, without ICE servers), the customer hangs
 * up, and both transcripts show the call's line.
 */
describe('person calls in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchChromium(FAKE_MEDIA)]);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('rings the console, carries audio both ways, and leaves a line in both transcripts', async () => {
    const { user, url } = await consoleAgent(stack, 'Ada Lovelace', 'ada@calls.example');
    const app = (path: string, body: unknown, method = 'PATCH') =>
      desk(`${stack.url}/api/v1${path}`, user.access_token, { method, body });
    await app('/profile', { account_id: stack.accountId, availability: 'online' });
    const inboxes = (await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/inboxes`, user.access_token)).body as {
      payload: { id: number }[];
    };
    await app(`/accounts/${stack.accountId}/inboxes/${inboxes.payload[0]!.id}`, { calls_enabled: true });

    const agent = await freshPage(browser, { viewport: { width: 1280, height: 800 } });
    await agent.page.addInitScript(KEEP_PEERS);
    await agent.page.goto(url);
    await agent.page.getByText('Live').waitFor(SHORT);

    const customer = await freshPage(browser);
    await customer.page.addInitScript(KEEP_PEERS);
    await customer.page.goto(stack.url);
    await launcher(customer.page).click();
    await waitReady(customer.page);
    await messageBox(customer.page).fill('Can I call you?');
    await messageBox(customer.page).press('Enter');
    await log(customer.page).getByText('Can I call you?').waitFor(SHORT);

    await customer.page.getByRole('button', { name: 'Call', exact: true }).click();
    await customer.page.getByText('Calling…').waitFor(SHORT);
    const ringing = agent.page.getByRole('dialog', { name: 'Incoming call' });
    await ringing.waitFor(SHORT);
    await ringing.getByRole('button', { name: 'Accept' }).click();

    await customer.page.getByRole('timer').waitFor(SHORT);
    await agent.page.getByRole('timer').waitFor(SHORT);
    await expect.poll(() => bytesReceived(customer.page), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => bytesReceived(agent.page), { timeout: 20_000 }).toBeGreaterThan(0);
    await agent.page.getByRole('button', { name: 'Mute' }).click();
    expect(await agent.page.getByRole('button', { name: 'Mute' }).getAttribute('aria-pressed')).toBe('true');
    await customer.page.screenshot({ path: `${ARTIFACTS_DIR}/widget-call.png` });

    await customer.page.getByRole('button', { name: 'Hang up' }).click();
    await log(customer.page)
      .getByText(/^Call, \d+ s$/)
      .waitFor(SHORT);
    await agent.page.getByRole('timer').waitFor({ state: 'detached', ...SHORT });
    await agent.page
      .getByRole('log', { name: 'Transcript' })
      .getByText(/^Call, \d+ s$/)
      .waitFor(SHORT);
    expect(agent.problems).toEqual([]);
    expect(customer.problems).toEqual([]);
  }, 120_000);
});
