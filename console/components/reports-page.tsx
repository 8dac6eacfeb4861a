import { useEffect, useState } from 'preact/hooks';
import type { ReportDays, ReportKind } from '../../shared/schemas/engine-reports.ts';
import type { DeskApi, ReportEnvironment } from '../api.ts';
import { duration } from './chart-geometry.ts';
import { BarChart, LineChart } from './charts.tsx';
import { MonitorFindingsChart } from './monitor-findings-chart.tsx';
import { fetchReport, type Period } from './report-fetch.ts';
import { REPORTS_CSS } from './reports-styles.ts';

/**
 * The Reports page (administrators, issue 29): the account's support day by day as charts drawn
 * here in SVG — conversations (answered by the AI, handed over, resolved), CSAT, first-answer time
 * and handover wait (p50, p95), monitor findings per monitor — and a download of each report kind
 * (conversations, quality, CSAT, monitors, interviews; CSV or JSON), asked of the engine and
 * fetched once it is ready. Loaded as a chunk of its own when the page is first opened.
 */
const DAY_MS = 24 * 3600_000;
const PERIODS = [7, 30, 90] as const;
const KINDS: { kind: ReportKind; label: string }[] = [
  { kind: 'conversations', label: 'Conversations' },
  { kind: 'quality', label: 'Quality scores' },
  { kind: 'csat', label: 'CSAT answers' },
  { kind: 'monitors', label: 'Monitor findings' },
  { kind: 'interviews', label: 'Interview answers' },
];

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

let adopted = false;
function adoptSheet(): void {
  if (adopted) return;
  adopted = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(REPORTS_CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

function Charts({ figures, children }: { figures: ReportDays; children: preact.ComponentChildren }) {
  const days = figures.days.map((day) => day.day);
  const total = (pick: (day: ReportDays['days'][number]) => number) =>
    figures.days.reduce((sum, day) => sum + pick(day), 0);
  const rated = figures.days.filter((day) => day.csat.average !== null);
  return (
    <div class="charts">
      <BarChart
        id="chart-conversations"
        title="Conversations per day"
        summary={`${total((day) => day.opened)} opened: ${total((day) => day.answered_by_ai)} answered by the AI, ${total((day) => day.handed_over)} handed over, ${total((day) => day.resolved)} resolved.`}
        days={days}
        series={[
          { name: 'AI answered', tone: 'one', values: figures.days.map((day) => day.answered_by_ai) },
          { name: 'Handed over', tone: 'two', values: figures.days.map((day) => day.handed_over) },
          { name: 'Resolved', tone: 'three', values: figures.days.map((day) => day.resolved) },
        ]}
      />
      <LineChart
        id="chart-csat"
        title="CSAT over time"
        summary={`${total((day) => day.csat.responses)} survey answers on ${rated.length} days; average rating per day, 1 to 5.`}
        days={days}
        least={5}
        series={[{ name: 'Average rating', tone: 'one', values: figures.days.map((day) => day.csat.average) }]}
      />
      <LineChart
        id="chart-first-answer"
        title="First answer time"
        summary="Time from a customer's first message to the first reply, per day: median (p50) and p95."
        days={days}
        least={1000}
        format={duration}
        series={[
          { name: 'p50', tone: 'one', values: figures.days.map((day) => day.first_answer_ms.p50) },
          { name: 'p95', tone: 'two', values: figures.days.map((day) => day.first_answer_ms.p95) },
        ]}
      />
      <LineChart
        id="chart-handover-wait"
        title="Handover wait"
        summary="Time from a handover to a person's first answer, per day: median (p50) and p95."
        days={days}
        least={1000}
        format={duration}
        series={[
          { name: 'p50', tone: 'one', values: figures.days.map((day) => day.handover_wait_ms.p50) },
          { name: 'p95', tone: 'two', values: figures.days.map((day) => day.handover_wait_ms.p95) },
        ]}
      />
      {children}
    </div>
  );
}

/** Where one kind's download stands. */
type Download =
  | { state: 'idle' }
  | { state: 'working'; text: string }
  | { state: 'ready'; href: string; name: string }
  | { state: 'failed'; text: string };

function DownloadRow({ api, period, kind, label }: { api: DeskApi; period: Period; kind: ReportKind; label: string }) {
  const [format, setFormat] = useState<'csv' | 'json'>('csv');
  const [download, setDownload] = useState<Download>({ state: 'idle' });
  useEffect(() => () => download.state === 'ready' && URL.revokeObjectURL(download.href), [download]);
  const prepare = async () => {
    setDownload({ state: 'working', text: 'Preparing…' });
    try {
      const { record, file } = await fetchReport(api, { ...period, kind, format });
      const name = `${record.kind}-${record.from.slice(0, 10)}-${record.id}.${record.format}`;
      setDownload({ state: 'ready', href: URL.createObjectURL(file), name });
    } catch (error) {
      setDownload({ state: 'failed', text: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <li>
      <span class="kind">{label}</span>
      <label class="check">
        Format{' '}
        <select
          value={format}
          aria-label={`${label} format`}
          onChange={(event) => setFormat((event.currentTarget as HTMLSelectElement).value as 'csv' | 'json')}
        >
          <option value="csv">CSV</option>
          <option value="json">JSON</option>
        </select>
      </label>
      <button type="button" disabled={download.state === 'working'} onClick={() => void prepare()}>
        Prepare {label.toLowerCase()} report
      </button>
      <span role="status">
        {download.state === 'working' && download.text}
        {download.state === 'ready' && (
          <a href={download.href} download={download.name}>
            Download {download.name}
          </a>
        )}
        {download.state === 'failed' && <span class="error">{download.text}</span>}
      </span>
    </li>
  );
}

/** The page: the period and customers chosen, the charts of their figures, and the downloads. */
export function ReportsPage({ api }: { api: DeskApi }) {
  adoptSheet();
  const [days, setDays] = useState<(typeof PERIODS)[number]>(30);
  const [environment, setEnvironment] = useState<ReportEnvironment>('live');
  const [figures, setFigures] = useState<ReportDays | undefined>();
  const [error, setError] = useState<string | undefined>();
  const today = Date.now();
  const period: Period = { from: dayOf(today - (days - 1) * DAY_MS), to: dayOf(today), environment };
  useEffect(() => {
    let current = true;
    setError(undefined);
    api.reportDays(period).then(
      (read) => current && setFigures(read),
      (failure: unknown) => current && setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, period.from, period.to, environment]);
  return (
    <section class="reports" aria-labelledby="reports-heading">
      <h1 id="reports-heading">Reports</h1>
      <div class="controls">
        <label>
          Period
          <select
            value={days}
            onChange={(event) => setDays(Number((event.currentTarget as HTMLSelectElement).value) as 30)}
          >
            {PERIODS.map((count) => (
              <option key={count} value={count}>
                Last {count} days
              </option>
            ))}
          </select>
        </label>
        <label>
          Customers
          <select
            value={environment}
            onChange={(event) => setEnvironment((event.currentTarget as HTMLSelectElement).value as ReportEnvironment)}
          >
            <option value="live">Live</option>
            <option value="sandbox">Sandbox</option>
          </select>
        </label>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {figures ? (
        <Charts figures={figures}>
          <MonitorFindingsChart api={api} period={period} />
        </Charts>
      ) : (
        !error && <p class="muted">Loading the figures…</p>
      )}
      <section class="downloads" aria-labelledby="downloads-heading">
        <h2 id="downloads-heading">Download a report</h2>
        <ul>
          {KINDS.map(({ kind, label }) => (
            <DownloadRow key={kind} api={api} period={period} kind={kind} label={label} />
          ))}
        </ul>
      </section>
    </section>
  );
}
