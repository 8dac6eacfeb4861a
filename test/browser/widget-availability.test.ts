import { describe, expect, it } from 'vitest';
import { desk } from '../helpdesk-client.ts';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { launcher, log, messageBox, panel, SHORT, waitReady } from './widget-helpers.ts';

/**
 * Issue 31, in Chromium: after a handover, the widget's header says whether people are there, and
 * follows a person switching "Available" live (`availability:changed` on its socket), without a
 * reload. Real BFF, engine, sockets and Chromium; the person switches through the Application API.
 */
describe("the widget's header follows people's availability", () => {
  const harness = useBrowserStack();

  it('says "Away — we answer by e-mail" when the last person goes away (even the one who answered), and stops when one is back', async () => {
    const { stack } = harness;
    // An administrator of the demo account: they answer every inbox.
    const { user } = await consoleAgent(stack, 'Ida Away', 'ida@availability.example');
    const switchTo = async (availability: string) =>
      desk(`${stack.url}/api/v1/profile`, user.access_token, {
        method: 'PATCH',
        body: { account_id: stack.accountId, availability },
      });
    await switchTo('online');

    const { page } = await harness.freshPage();
    await page.goto(stack.url);
    await launcher(page).click();
    await waitReady(page);
    await messageBox(page).fill('I want to talk to a person');
    await messageBox(page).press('Enter');
    await log(page).getByText('connected with a person').waitFor(SHORT);
    const subtitle = panel(page).locator('header .subtitle');
    const away = subtitle.getByText('Away — we answer by e-mail');

    await switchTo('busy');
    await away.waitFor(SHORT);
    await switchTo('online');
    await away.waitFor({ state: 'detached', ...SHORT });

    // Once Ida has answered, the header names her; when she goes away it no longer promises her.
    const [row] = await stack.bffSql.query<{ id: number }>('SELECT id FROM conversations ORDER BY id DESC LIMIT 1');
    const answered = await desk(
      `${stack.url}/api/v1/accounts/${stack.accountId}/conversations/${row!.id}/messages`,
      user.access_token,
      { body: { content: 'Hello, Ida here.' } },
    );
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    await subtitle.getByText('Ida Away is answering').waitFor(SHORT);
    await switchTo('busy');
    await away.waitFor(SHORT);
  });
});
