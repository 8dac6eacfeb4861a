import type { ReportKind, ReportRecord } from '../../shared/schemas/engine-reports.ts';
import type { DeskApi, ReportEnvironment } from '../api.ts';

/** The period and customers a report is asked for. */
export interface Period {
  from: string;
  to: string;
  environment: ReportEnvironment;
}

const POLL_MS = 1000;
const POLLS = 120;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks the engine for a report that arrives later (`POST …/reports`), follows it until it is ready
 * (once a second, for two minutes at most), and reads its file. A failed report throws its reason.
 */
export async function fetchReport(
  api: Pick<DeskApi, 'requestReport' | 'report' | 'reportFile'>,
  order: Period & { kind: ReportKind; format: 'csv' | 'json' },
): Promise<{ record: ReportRecord; file: Blob }> {
  let record: ReportRecord = await api.requestReport(order);
  for (let poll = 0; poll < POLLS && (record.status === 'pending' || record.status === 'running'); poll++) {
    await wait(POLL_MS);
    record = await api.report(record.id, order.environment);
  }
  if (record.status === 'failed') throw new Error(record.failure_reason ?? 'The report failed.');
  if (record.status !== 'ready') throw new Error('The report is taking long; try again in a minute.');
  return { record, file: await api.reportFile(record.id, order.environment) };
}
