import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { request } from '../stack.ts';
import { useBrowserStack } from './browser-stack.ts';
import { consoleAgent } from './console-agent.ts';
import { ARTIFACTS_DIR } from './chromium.ts';
import { until } from '../until.ts';
import { SHORT } from './widget-helpers.ts';

/**
 * Issue 29, the Reports page of the agent console in Chromium: after a few conversations an
 * administrator opens Reports (a chunk of its own), sees the four charts as SVG pictures with
 * accessible names (findings per monitor among them, drawn from the monitors report), asks for the
 * conversations report as CSV and downloads it, and the monitors report as JSON; every kind is offered.
 */
describe('the Reports page in Chromium', () => {
  const harness = useBrowserStack();

  it('shows charts of the figures and findings per monitor, and downloads reports of each kind', async () => {
    const { stack } = harness;
    const engine = (path: string, body: unknown) => request(stack.engineUrl + path, { token: stack.apiKey, body });
    const opened: string[] = [];
    for (const customer of ['chart-customer-1', 'chart-customer-2', 'chart-customer-3']) {
      const conversation = await engine('/v1/conversations', { customer_ref: customer });
      await engine(`/v1/conversations/${conversation.body.id}/messages`, { text: 'How do I return an item?' });
      opened.push(conversation.body.id as string);
    }
    await engine(`/v1/conversations/${opened[2]}/handover`, { reason: 'vip' });
    // A monitor that finds one message: the chart of findings per monitor has a bar.
    const monitor = await engine('/v1/monitors', {
      name: 'Chargeback or lawyer',
      criteria: { keywords: ['lawyer', 'chargeback'] },
      severity: 'high',
    });
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
    await engine(`/v1/conversations/${opened[0]}/messages`, { text: 'Otherwise I will call my lawyer' });
    await until(
      () => request(`${stack.engineUrl}/v1/monitors/${monitor.body.id}/findings`, { token: stack.apiKey }),
      (found) => found.body.findings?.length === 1,
      'the finding at the engine',
    );

    const { url } = await consoleAgent(stack, 'Grace Hopper', 'grace@reports.example');
    const admin = await harness.freshPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await admin.page.goto(url);
    const pages = admin.page.getByRole('navigation', { name: 'Pages' });
    await pages.getByRole('button', { name: 'Reports' }).click();
    const reports = admin.page.getByRole('region', { name: 'Reports' });
    await reports.waitFor(SHORT);
    // The shop's widget customers are sandbox ones.
    await reports.getByLabel('Customers').selectOption('sandbox');
    for (const name of [
      'Conversations per day',
      'CSAT over time',
      'First answer time',
      'Handover wait',
      'Monitor findings per monitor',
    ])
      await reports.getByRole('img', { name }).waitFor(SHORT);
    await expect
      .poll(() => reports.getByRole('img', { name: 'Conversations per day' }).getAttribute('aria-labelledby'))
      .toBe('chart-conversations-title chart-conversations-desc');
    await reports.getByText(/^3 opened: \d answered by the AI, 1 handed over/).waitFor({ ...SHORT, state: 'attached' });
    // The monitors report (JSON), added up per monitor: one bar, its name and total drawn.
    await reports
      .getByText('1 finding by 1 monitor: Chargeback or lawyer 1 (1 high).')
      .waitFor({ ...SHORT, state: 'attached' });
    const findingsChart = reports.getByRole('img', { name: 'Monitor findings per monitor' });
    await expect.poll(() => findingsChart.locator('rect.bar').count()).toBe(3);
    expect(await findingsChart.locator('text').allTextContents()).toEqual(['Chargeback or lawyer', '1']);
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

    // Each kind downloads, in either format: the monitors report as JSON, the interview answers as CSV.
    for (const label of ['Conversations', 'Quality scores', 'CSAT answers', 'Monitor findings', 'Interview answers'])
      await downloads.getByRole('button', { name: `Prepare ${label.toLowerCase()} report` }).waitFor(SHORT);
    await downloads.getByLabel('Monitor findings format').selectOption('json');
    await downloads.getByRole('button', { name: 'Prepare monitor findings report' }).click();
    const json = downloads.getByRole('link', { name: /^Download monitors-.*\.json$/ });
    await json.waitFor(SHORT);
    const [monitors] = await Promise.all([admin.page.waitForEvent('download'), json.click()]);
    const report = JSON.parse(await readFile((await monitors.path())!, 'utf8')) as { kind: string; rows: unknown[] };
    expect(report.kind).toBe('monitors');
    expect(report.rows).toEqual([
      expect.objectContaining({ monitor_id: monitor.body.id, monitor_name: 'Chargeback or lawyer', findings: 1 }),
    ]);
    await downloads.getByRole('button', { name: 'Prepare interview answers report' }).click();
    await downloads.getByRole('link', { name: /^Download interviews-.*\.csv$/ }).waitFor(SHORT);
    expect(admin.problems).toEqual([]);
  });
});
