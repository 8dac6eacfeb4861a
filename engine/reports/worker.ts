import type { Logger, Sql } from '../../shared/server/index.ts';
import { appendEvents } from '../store/events.ts';
import { REPORT_GATHERERS } from '../store/report-rows.ts';
import {
  claimReport,
  deleteExpiredReports,
  nextReportLeaseEnd,
  settleReport,
  type ClaimedReport,
  type ReportOutcome,
} from '../store/reports.ts';
import { toCsv, toJson } from './report-file.ts';

/** A claim on one report: longer than gathering a year of a busy account takes. */
const LEASE_MS = 120_000;
/** A report whose gathering broke off this often (its process died each time) fails. */
const MAX_ATTEMPTS = 3;
/** The most rows one report holds; a period with more fails with a reason that says to ask for less. */
export const MAX_REPORT_ROWS = 100_000;

export interface ReportWorkerDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  /** Rows one report may hold (MAX_REPORT_ROWS unless told). */
  maxRows?: number;
  /** Events were recorded (the webhook worker sends them now). */
  onEvents?: () => void;
}

export type ReportWorker = ReturnType<typeof createReportWorker>;

/** Gathers a claimed report's rows and writes its file, or says why it cannot. */
async function gather(sql: Sql, { record, owner, attempts }: ClaimedReport, maxRows: number): Promise<ReportOutcome> {
  if (attempts > MAX_ATTEMPTS) return { status: 'failed', reason: `Gathering it broke off ${MAX_ATTEMPTS} times.` };
  const table = await REPORT_GATHERERS[record.kind](
    sql,
    owner,
    new Date(record.from),
    new Date(record.to),
    maxRows + 1,
  );
  if (table.rows.length > maxRows)
    return {
      status: 'failed',
      reason: `The period holds more than ${maxRows} rows; ask for a shorter period.`,
    };
  const content = record.format === 'csv' ? toCsv(table) : toJson(record, table);
  return { status: 'ready', rows: table.rows.length, content };
}

/** Records the outcome and, when ready, `report.ready`, in one transaction, only while the claim is still ours. */
async function settle(
  { sql, now, onEvents }: ReportWorkerDeps,
  claimed: ClaimedReport,
  outcome: ReportOutcome,
): Promise<void> {
  const recorded = await sql.transaction(async (tx) => {
    const at = now();
    if (!(await settleReport(tx, claimed, outcome, at))) return false;
    if (outcome.status === 'ready') {
      const data = { report_id: claimed.record.id, kind: claimed.record.kind, rows: outcome.rows };
      await appendEvents(tx, claimed.owner, [{ type: 'report.ready', conversationId: null, data }], at);
    }
    return true;
  });
  if (recorded) onEvents?.();
}

/**
 * Gathers reports after `POST /v1/reports` has answered, never in the request: each report is a
 * row claimed in the database with a lease (SKIP LOCKED, so any number of engine processes share
 * the work), gathered outside any transaction, then settled with its file and its `report.ready`
 * event in one transaction, only while the claim is still this process's. A pass runs after each
 * request for a report (`nudge`) and at start, so reports a stopped process left are gathered by
 * the next; reports left `running` by a process that died are taken again once their lease runs
 * out. Each pass also deletes reports kept past their time.
 */
export function createReportWorker(deps: ReportWorkerDeps) {
  const { sql, logger, now } = deps;
  const maxRows = deps.maxRows ?? MAX_REPORT_ROWS;
  let running: Promise<void> | undefined;
  let again = false;
  let recheck: NodeJS.Timeout | undefined;
  let stopped = false;

  async function pass(): Promise<void> {
    await deleteExpiredReports(sql, now());
    for (;;) {
      if (stopped) return;
      const at = now();
      const claimed = await claimReport(sql, at, new Date(at.getTime() + LEASE_MS));
      if (!claimed) break;
      try {
        await settle(deps, claimed, await gather(sql, claimed, maxRows));
      } catch (error) {
        // Left to its lease: it is taken again when the lease runs out (at most MAX_ATTEMPTS times).
        logger.error({ err: error, report: claimed.record.id }, 'gathering a report failed');
      }
    }
    // Reports another process holds: should it die, take them over when their lease runs out.
    const leaseEnd = await nextReportLeaseEnd(sql, now());
    if (leaseEnd && !recheck && !stopped) {
      recheck = setTimeout(
        () => {
          recheck = undefined;
          nudge();
        },
        Math.max(0, leaseEnd.getTime() - now().getTime()) + 1_000,
      );
      recheck.unref();
    }
  }

  function nudge(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => logger.error({ err: error }, 'a pass over reports failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          nudge();
        }
      });
  }

  return {
    /** Gathers what is waiting, now or right after the pass under way. */
    nudge,
    /** Resolves when no pass is under way or asked for. */
    async settled(): Promise<void> {
      while (running) await running;
    },
    /** Takes no more work; resolves when the pass under way has ended. */
    async stop(): Promise<void> {
      stopped = true;
      if (recheck) clearTimeout(recheck);
      recheck = undefined;
      while (running) await running;
    },
  };
}
