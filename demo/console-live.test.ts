import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../test/browser/chromium.ts';
import { freshPage, SHORT } from '../test/browser/widget-helpers.ts';
import { freePort } from '../test/local-servers.ts';
import { logger } from '../test/stack.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../test/widget-client.ts';
import { readDemoConfig } from './config.ts';
import { runDemo, type RunningDemo } from './run-demo.ts';

/**
 * The agent console stays live and signed in as a person's day goes (issue 31): a new tab is still
 * signed in; the BFF restarts under an open console, which says it lost the connection, comes back
 * by itself, and shows a message the customer sent meanwhile without a reload; and the queue is
 * worked with the keyboard. The demo (on disk) is what restarts: the same port, the same store.
 */
describe('the agent console through a server restart, in Chromium', () => {
  let browser: Browser;
  let dataDir: string;
  let env: Record<string, string>;
  let demo: RunningDemo | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'parley-console-live-'));
    env = {
      PORT: String(await freePort()),
      ENGINE_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_AGENT_PASSWORD: 'a long demo password',
    };
    [browser, demo] = await Promise.all([launchChromium(), runDemo(readDemoConfig(env), logger)]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the session in a new tab, reconnects after a restart, and reads what it missed', async () => {
    const agent = await freshPage(browser, { viewport: { width: 1280, height: 800 } });
    await agent.page.goto(demo!.agentSignInUrl);
    const live = agent.page.getByText('Live', { exact: true });
    await live.waitFor(SHORT);

    // A new tab of the same browser is signed in: no form, the token never in a script's reach.
    const tab = await agent.context.newPage();
    await tab.goto(`${demo!.url}/console/`);
    await tab.getByText('Live', { exact: true }).waitFor(SHORT);
    expect(await tab.evaluate(() => document.cookie)).toBe('');
    await tab.close();

    // A customer asks for a person; the agent opens the conversation with j.
    const visitor = await newVisitor(demo!.url, demo!.siteKey);
    const conversation = await openWidgetConversation(demo!.url, visitor.token);
    const say = (text: string) =>
      sendWidgetMessage(demo!.url, visitor.token, conversation.id, text, crypto.randomUUID());
    expect((await say('I want to talk to a person')).status).toBe(201);
    const item = agent.page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /With people/ });
    await item.waitFor(SHORT);
    await agent.page.keyboard.press('j');
    const transcript = agent.page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText('I want to talk to a person').waitFor(SHORT);

    // The server restarts: the console says so, and comes back by itself.
    await demo!.close();
    demo = undefined;
    const banner = agent.page.getByRole('status').filter({ hasText: 'Connection lost' });
    await banner.waitFor(SHORT);
    demo = await runDemo(readDemoConfig(env), logger);
    expect((await say('Are you still there after the restart?')).status).toBe(201);
    await transcript.getByText('Are you still there after the restart?').waitFor({ timeout: 20_000 });
    await banner.waitFor({ state: 'detached', timeout: 20_000 });
    await live.waitFor(SHORT);

    // The queue from the keyboard: ? lists the keys, n writes a note, e resolves.
    await agent.page.locator('body').click({ position: { x: 5, y: 300 } });
    await agent.page.keyboard.press('?');
    const help = agent.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor(SHORT);
    await agent.page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden', timeout: 10_000 });
    await agent.page.keyboard.press('n');
    expect(await agent.page.getByRole('checkbox', { name: 'Private note' }).isChecked()).toBe(true);
    await expect.poll(() => agent.page.evaluate(() => document.activeElement?.id)).toBe('reply');
    await agent.page.keyboard.press('Escape');
    await agent.page.locator('body').click({ position: { x: 5, y: 300 } });
    await agent.page.keyboard.press('e');
    await agent.page.getByRole('button', { name: 'Reopen' }).waitFor(SHORT);
    expect(agent.problems).toEqual([]);
  }, 180_000);
});
