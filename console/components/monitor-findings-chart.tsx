import { useEffect, useState } from 'preact/hooks';
import type { DeskApi } from '../api.ts';
import { findingsPerMonitor, type MonitorFindings, type MonitorReportRow } from './chart-geometry.ts';
import { MonitorChart } from './charts.tsx';
import { fetchReport, type Period } from './report-fetch.ts';

const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * "Monitor findings per monitor" on the Reports page (issue 29): the period's monitors report
 * (`kind: monitors`, JSON), asked of the engine as any report that arrives later, added up per
 * monitor and drawn as bars split by severity. Asked again when the period or customers change.
 */
export function MonitorFindingsChart({ api, period }: { api: DeskApi; period: Period }) {
  const [monitors, setMonitors] = useState<MonitorFindings[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let current = true;
    setMonitors(undefined);
    setError(undefined);
    fetchReport(api, { ...period, kind: 'monitors', format: 'json' })
      .then(async ({ file }) => (JSON.parse(await file.text()) as { rows: MonitorReportRow[] }).rows)
      .then(
        (rows) => current && setMonitors(findingsPerMonitor(rows)),
        (failure: unknown) =>
          current && setError(`Findings per monitor: ${failure instanceof Error ? failure.message : String(failure)}`),
      );
    return () => {
      current = false;
    };
  }, [api, period.from, period.to, period.environment]);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!monitors) return <p class="muted">Gathering the monitors’ findings…</p>;
  const total = monitors.reduce((sum, monitor) => sum + monitor.total, 0);
  const words = monitors.map((monitor) => `${monitor.name} ${monitor.total} (${monitor.high} high)`).join(', ');
  return (
    <MonitorChart
      id="chart-monitor-findings"
      title="Monitor findings per monitor"
      summary={
        monitors.length === 0
          ? 'No monitor found anything in this period.'
          : `${counted(total, 'finding')} by ${counted(monitors.length, 'monitor')}: ${words}.`
      }
      monitors={monitors}
    />
  );
}
