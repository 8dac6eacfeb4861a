import { describe, expect, it } from 'vitest';
import { desk } from '../helpdesk-client.ts';
import { request } from '../stack.ts';
import { until } from '../until.ts';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { ARTIFACTS_DIR } from './chromium.ts';
import { axeViolations, launcher, log, messageBox, SHORT, waitReady } from './widget-helpers.ts';

/**
 * Issue 29, monitor findings in the agent console, in Chromium beside a customer in the demo store
 * with the demo's monitors: the customer writes that they will call their lawyer; the Findings
 * page (a chunk of its own) lists it with the monitor, the severity and the words, opens the
 * conversation, and there a line for the team says which monitor flagged the message. The
 * customer's widget never shows it.
 */
/** The demo's two monitors (demo/monitors.ts), as its seed adds them. */
const MONITORS = [
  {
    name: 'Customer mentions a lawyer or a chargeback',
    criteria: { keywords: ['lawyer', 'chargeback', 'attorney'] },
    scope: 'customer_messages',
    severity: 'high',
  },
  { name: 'The AI says "guarantee"', criteria: { keywords: ['guarantee'] }, scope: 'ai_messages', severity: 'medium' },
];

describe('the Findings page in Chromium', () => {
  const harness = useBrowserStack();

  it('lists what a monitor found and shows it on the conversation, for the team only', async () => {
    const { stack } = harness;
    for (const monitor of MONITORS) {
      const made = await request(`${stack.engineUrl}/v1/monitors`, { token: stack.apiKey, body: monitor });
      expect(made.status).toBe(201);
    }
    const lawyer = MONITORS[0]!.name;

    const customer = await harness.freshPage();
    await customer.page.goto(stack.url);
    await launcher(customer.page).click();
    await waitReady(customer.page);
    await messageBox(customer.page).fill('I will call my lawyer');
    await messageBox(customer.page).press('Enter');
    await log(customer.page).getByText('I will call my lawyer').waitFor(SHORT);

    const { url, user } = await consoleAgent(stack, 'Ida Wells', 'ida@findings.example');
    // The monitors read the message after it was written, off the request: wait until the BFF has the finding.
    await until(
      () => desk(`${stack.url}/api/v1/accounts/${stack.accountId}/findings`, user.access_token),
      (response) => (response.body.payload as unknown[] | undefined)?.length === 1,
      'the finding at the BFF',
    );
    // axe is injected as a script: the page's CSP is bypassed for the test only.
    const agent = await harness.freshPage({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    await agent.page.goto(url);
    await agent.page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Findings' }).click();
    const findings = agent.page.getByRole('region', { name: 'Findings' });
    const item = findings.getByRole('listitem').filter({ hasText: 'I will call my lawyer' });
    await item.waitFor(SHORT);
    await item.getByText(lawyer).waitFor(SHORT);
    await item.getByText('high', { exact: true }).waitFor(SHORT);
    expect(await axeViolations(agent.page)).toEqual([]);
    await agent.page.screenshot({ path: `${ARTIFACTS_DIR}/findings-page.png` });

    await item.getByRole('button', { name: /^Open conversation/ }).click();
    const transcript = agent.page.getByRole('log', { name: 'Transcript' });
    await transcript
      .getByText(`Monitor '${lawyer}' flagged this message (high): “I will call my lawyer”`)
      .waitFor(SHORT);
    await transcript
      .getByText('(only your team sees this)')
      .first()
      .waitFor({ ...SHORT, state: 'attached' });
    expect(await axeViolations(agent.page)).toEqual([]);
    await agent.page.screenshot({ path: `${ARTIFACTS_DIR}/finding-line.png` });

    // The customer's widget, open all along, was never told.
    expect(
      await log(customer.page)
        .getByText(/flagged|Monitor/)
        .count(),
    ).toBe(0);
    expect(agent.problems).toEqual([]);
    expect(customer.problems).toEqual([]);
  });
});
