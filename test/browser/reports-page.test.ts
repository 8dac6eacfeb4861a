import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { request } from '../stack.ts';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { ARTIFACTS_DIR } from './chromium.ts';
import { SHORT } from './widget-helpers.ts';

/**
 * Issue 29, the Reports page of the agent console in Chromium: after a few conversations an
 * administrator opens Reports (a chunk of its own), sees the four charts as SVG pictures with
 * accessible names, asks for the conversations report as CSV and downloads it.
 */
describe('the Reports page in Chromium', () => {
  const harness = useBrowserStack();

  it('shows charts of the figures and downloads a CSV report', async () => {
    const { stack } = harness;
    const engine = (path: string, body: unknown) => request(stack.engineUrl + path, { token: stack.apiKey, body });
    const opened: string[] = [];
    for (const customer of ['chart-customer-1', 'chart-customer-2', 'chart-customer-3']) {
      const conversation = await engine('/v1/conversations', { customer_ref: customer });
      await engine(`/v1/conversations/${conversation.body.id}/messages`, { text: 'How do I return an item?' });
      opened.push(conversation.body.id as string);
    }
    await engine(`/v1/conversations/${opened[2]}/handover`, { reason: 'vip' });

    const { url } = await consoleAgent(stack, 'Grace Hopper', 'grace@reports.example');
    const admin = await harness.freshPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await admin.page.goto(url);
    const pages = admin.page.getByRole('navigation', { name: 'Pages' });
    await pages.getByRole('button', { name: 'Reports' }).click();
    const reports = admin.page.getByRole('region', { name: 'Reports' });
    await reports.waitFor(SHORT);
    // The shop's widget customers are sandbox ones.
    await reports.getByLabel('Customers').selectOption('sandbox');
    for (const name of ['Conversations per day', 'CSAT over time', 'First answer time', 'Handover wait'])
      await reports.getByRole('img', { name }).waitFor(SHORT);
    await expect
      .poll(() => reports.getByRole('img', { name: 'Conversations per day' }).getAttribute('aria-labelledby'))
      .toBe('chart-conversations-title chart-conversations-desc');
    await reports.getByText(/^3 opened: \d answered by the AI, 1 handed over/).waitFor({ ...SHORT, state: 'attached' });
    await admin.page.screenshot({ path: `${ARTIFACTS_DIR}/reports-page.png` });

    const downloads = reports.getByRole('region', { name: 'Download a report' });
    await downloads.getByRole('button', { name: 'Prepare conversations report' }).click();
    const link = downloads.getByRole('link', { name: /^Download conversations-.*\.csv$/ });
    await link.waitFor(SHORT);
    const [download] = await Promise.all([admin.page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^conversations-\d{4}-\d{2}-\d{2}-rpt_\w+\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^conversation_id,opened_at,state,ai_answered/);
    for (const id of opened) expect(csv).toContain(`${id},`);
    expect(admin.problems).toEqual([]);
  });
});
