import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { customerHandsOver, LIVE_WAIT, openBySearch } from './console-customer.ts';
import { log, panel, send } from './widget-helpers.ts';

const subtitle = (page: Page) => panel(page).locator('header .subtitle');

/**
 * Issue 31's "Always live", in Chromium: the BFF restarts (stopped, then started again on the same
 * port and store) in the middle of a conversation. The console says it is reconnecting while the
 * server is down and comes back by itself; the customers' widgets come back by themselves too, and
 * what either side writes after the restart shows on the other without a reload. A widget whose
 * socket was down while the last person went away (its laptop asleep across the restart, so no
 * push and no replay reached it) reads who is available again when it reconnects. Real BFF,
 * engine, sockets and Chromium.
 */
describe('the console and the widget across a server restart', () => {
  const harness = useBrowserStack();

  it('reconnect by themselves and show what is written after the restart, without a reload', async () => {
    const { stack } = harness;
    const { url } = await consoleAgent(stack, 'Grace Hopper', 'grace@restart.example');
    const agent = await harness.freshPage({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    await agent.page.goto(url);
    const live = agent.page.getByText('Live', { exact: true });
    await live.waitFor(LIVE_WAIT);
    const available = agent.page.getByRole('switch', { name: 'Available' });
    await available.click();
    await expect.poll(() => available.getAttribute('aria-checked'), LIVE_WAIT).toBe('true');

    const talking = await customerHandsOver(harness, 'My parcel never came');
    const sleeping = await customerHandsOver(harness, 'Do you deliver to Madeira?');
    await expect.poll(() => subtitle(sleeping.page).textContent(), LIVE_WAIT).toBe('Our team is answering');
    await openBySearch(agent.page, 'parcel');

    // One customer's laptop sleeps across the restart: its widget's socket stays down until it wakes.
    await sleeping.context.setOffline(true);
    await sleeping.page.getByRole('status').filter({ hasText: 'You are offline' }).waitFor(LIVE_WAIT);
    await stack.restart(async () => {
      const reconnecting = agent.page.getByRole('status').filter({ hasText: 'Connection lost: reconnecting…' });
      await reconnecting.waitFor(LIVE_WAIT);
      expect(await live.count()).toBe(0);
    });
    await live.waitFor(LIVE_WAIT);
    await agent.page.getByRole('status').filter({ hasText: 'reconnecting' }).waitFor({ state: 'detached' });

    // The person goes away: the widget that came back with the server is told live…
    await available.click();
    await expect.poll(() => available.getAttribute('aria-checked'), LIVE_WAIT).toBe('false');
    await expect.poll(() => subtitle(talking.page).textContent(), LIVE_WAIT).toBe('Away — we answer by e-mail');
    // …and the sleeping one, which missed it, reads it when it wakes and reconnects.
    await sleeping.context.setOffline(false);
    await expect.poll(() => subtitle(sleeping.page).textContent(), LIVE_WAIT).toBe('Away — we answer by e-mail');

    // Written after the restart, each way, shown without a reload.
    await send(talking.page, 'Are you still there?');
    const transcript = agent.page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText('Are you still there?').waitFor(LIVE_WAIT);
    await agent.page.getByRole('textbox', { name: 'Reply' }).fill('Yes: your parcel leaves today');
    await agent.page.keyboard.press('Enter');
    await log(talking.page).getByText('Yes: your parcel leaves today').waitFor(LIVE_WAIT);
    await send(sleeping.page, 'Madeira, then?');
    await agent.page.getByRole('searchbox', { name: 'Search conversations' }).fill('');
    await agent.page.getByRole('navigation', { name: 'Conversations' }).getByText('Madeira, then?').waitFor(LIVE_WAIT);

    expect(agent.problems).toEqual([]);
    expect(talking.problems).toEqual([]);
    expect(sleeping.problems).toEqual([]);
    // Two customers and a person in three browsers, and a restart: its own bound, not the default step's.
  }, 120_000);
});
