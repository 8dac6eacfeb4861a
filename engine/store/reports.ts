import { newId, type ReportKind, type ReportRecord, type ReportSummary } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

type Owner = Pick<Caller, 'accountId' | 'environment'>;

/**
 * The support summary of an account and environment for `[from, to)`, each number counted by when
 * it happened: conversations by when they were opened (and what became of them: answered by the
 * AI, handed over, resolved, first answered, whenever that was), survey answers by when they were
 * first given, "did that help?" answers by when they were given. One statement, so one snapshot.
 *
 * "Answered by the AI" means at least one reply that answered (`turns.answered`: from the knowledge
 * base, or an action's result), not a "not sure", a greeting or a hand-over notice. The first
 * answer is the first reply, the AI's or a person's, after the customer's first message.
 */
export async function summaryReport(
  db: Queryable,
  owner: Owner,
  from: Date,
  to: Date,
): Promise<Omit<ReportSummary, 'from' | 'to'>> {
  const [row] = await db.query<{
    opened: number;
    answered_by_ai: number;
    handed_over: number;
    resolved: number;
    measured: number;
    p50: number | null;
    p95: number | null;
    csat_responses: number;
    csat_average: number | null;
    yes: number;
    no: number;
  }>(
    `WITH opened AS (
       SELECT id, handover_count, resolved FROM conversations
       WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     ), first_answers AS (
       SELECT extract(epoch FROM (reply.created_at - asked.created_at)) * 1000 AS ms
       FROM opened o
       JOIN LATERAL (SELECT position, created_at FROM turns WHERE conversation_id = o.id AND role = 'customer' ORDER BY position LIMIT 1) asked ON true
       JOIN LATERAL (SELECT created_at FROM turns WHERE conversation_id = o.id AND role IN ('ai', 'human') AND position > asked.position ORDER BY position LIMIT 1) reply ON true
     ), conversation_counts AS (
       SELECT count(*)::int AS opened,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM turns t WHERE t.conversation_id = o.id AND t.role = 'ai' AND t.answered IS TRUE))::int AS answered_by_ai,
              count(*) FILTER (WHERE o.handover_count > 0)::int AS handed_over,
              count(*) FILTER (WHERE o.resolved IS TRUE)::int AS resolved
       FROM opened o
     ), answer_times AS (
       SELECT count(*)::int AS measured,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY ms) AS p95
       FROM first_answers
     ), csat AS (
       SELECT count(*)::int AS csat_responses, avg(rating)::float8 AS csat_average FROM survey_responses
       WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     ), feedback AS (
       SELECT count(*) FILTER (WHERE helpful)::int AS yes, count(*) FILTER (WHERE NOT helpful)::int AS no FROM answer_feedback
       WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     )
     SELECT conversation_counts.*, answer_times.measured, answer_times.p50::float8 AS p50, answer_times.p95::float8 AS p95, csat.*, feedback.*
     FROM conversation_counts, answer_times, csat, feedback`,
    [owner.accountId, owner.environment, from, to],
  );
  const r = row!;
  const rounded = (value: number | null, places: number) =>
    value === null ? null : Math.round(value * 10 ** places) / 10 ** places;
  return {
    conversations: {
      opened: r.opened,
      answered_by_ai: r.answered_by_ai,
      handed_over: r.handed_over,
      resolved: r.resolved,
    },
    csat: { responses: r.csat_responses, average: rounded(r.csat_average, 2) },
    answer_feedback: {
      yes: r.yes,
      no: r.no,
      helpful_rate: r.yes + r.no > 0 ? rounded(r.yes / (r.yes + r.no), 4) : null,
    },
    first_answer_ms: { measured: r.measured, p50: rounded(r.p50, 0), p95: rounded(r.p95, 0) },
  };
}

/** A report's row as stored. */
interface ReportRow {
  id: string;
  kind: ReportKind;
  format: ReportFormat;
  period_from: Date;
  period_to: Date;
  status: ReportRecord['status'];
  rows: number | null;
  failure_reason: string | null;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date;
}

export type ReportFormat = ReportRecord['format'];

const REPORT_COLUMNS =
  'id, kind, format, period_from, period_to, status, rows, failure_reason, created_at, finished_at, expires_at';

function toReportRecord(row: ReportRow): ReportRecord {
  return {
    id: row.id,
    kind: row.kind,
    format: row.format,
    from: row.period_from.toISOString(),
    to: row.period_to.toISOString(),
    status: row.status,
    rows: row.rows,
    failure_reason: row.failure_reason,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    expires_at: row.expires_at.toISOString(),
  };
}

/** What a report is asked to gather. */
export interface ReportOrder {
  kind: ReportKind;
  format: ReportFormat;
  from: Date;
  to: Date;
}

/** Records a report to gather, `pending`, kept until `expiresAt`. */
export async function insertReport(
  db: Queryable,
  owner: Owner,
  order: ReportOrder,
  { now, expiresAt }: { now: Date; expiresAt: Date },
): Promise<ReportRecord> {
  const [row] = await db.query<ReportRow>(
    `INSERT INTO reports (id, account_id, environment, kind, format, period_from, period_to, status, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9) RETURNING ${REPORT_COLUMNS}`,
    [
      newId('report'),
      owner.accountId,
      owner.environment,
      order.kind,
      order.format,
      order.from,
      order.to,
      now,
      expiresAt,
    ],
  );
  return toReportRecord(row!);
}

/** A report of the owner's, unless it has expired. */
export async function findReport(
  db: Queryable,
  owner: Owner,
  id: string,
  now: Date,
): Promise<ReportRecord | undefined> {
  const [row] = await db.query<ReportRow>(
    `SELECT ${REPORT_COLUMNS} FROM reports WHERE id = $1 AND account_id = $2 AND environment = $3 AND expires_at > $4`,
    [id, owner.accountId, owner.environment, now],
  );
  return row && toReportRecord(row);
}

/** A report of the owner's with its file (null until it is ready), unless it has expired. */
export async function findReportContent(
  db: Queryable,
  owner: Owner,
  id: string,
  now: Date,
): Promise<{ record: ReportRecord; content: string | null } | undefined> {
  const [row] = await db.query<ReportRow & { content: string | null }>(
    `SELECT ${REPORT_COLUMNS}, content FROM reports
     WHERE id = $1 AND account_id = $2 AND environment = $3 AND expires_at > $4`,
    [id, owner.accountId, owner.environment, now],
  );
  return row && { record: toReportRecord(row), content: row.content };
}

/** A report taken for gathering, with whose it is. */
export interface ClaimedReport {
  record: ReportRecord;
  owner: Owner;
  attempts: number;
  leaseUntil: Date;
}

/**
 * Takes the oldest report still waiting whose lease is free (never taken, or run out: the process
 * that took it died), until `leaseUntil`, and marks it `running`. SKIP LOCKED lets several engine
 * processes take different ones at once.
 */
export async function claimReport(db: Queryable, now: Date, leaseUntil: Date): Promise<ClaimedReport | undefined> {
  const [row] = await db.query<ReportRow & { account_id: string; environment: Owner['environment']; attempts: number }>(
    `WITH next AS (
       SELECT id FROM reports
       WHERE status IN ('pending', 'running') AND (lease_until IS NULL OR lease_until < $1) AND expires_at > $1
       ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
     )
     UPDATE reports r SET status = 'running', lease_until = $2, attempts = r.attempts + 1 FROM next
     WHERE r.id = next.id RETURNING ${REPORT_COLUMNS.split(', ')
       .map((column) => `r.${column}`)
       .join(', ')}, r.account_id, r.environment, r.attempts`,
    [now, leaseUntil],
  );
  if (!row) return undefined;
  return {
    record: toReportRecord(row),
    owner: { accountId: row.account_id, environment: row.environment },
    attempts: row.attempts,
    leaseUntil,
  };
}

/** When the next lease held by someone runs out, if a report is still being gathered elsewhere. */
export async function nextReportLeaseEnd(db: Queryable, now: Date): Promise<Date | undefined> {
  const [row] = await db.query<{ at: Date | null }>(
    "SELECT min(lease_until) AS at FROM reports WHERE status = 'running' AND lease_until >= $1",
    [now],
  );
  return row?.at ?? undefined;
}

export type ReportOutcome = { status: 'ready'; rows: number; content: string } | { status: 'failed'; reason: string };

/**
 * Records what became of a claimed report, only while the claim is still this one's (same lease):
 * gives false when another process took it over meanwhile, and then nothing is written.
 */
export async function settleReport(
  db: Queryable,
  claimed: ClaimedReport,
  outcome: ReportOutcome,
  now: Date,
): Promise<boolean> {
  const ready = outcome.status === 'ready';
  const rows = await db.query(
    `UPDATE reports SET status = $3, rows = $4, content = $5, failure_reason = $6, finished_at = $7, lease_until = NULL
     WHERE id = $1 AND status = 'running' AND lease_until = $2 RETURNING 1`,
    [
      claimed.record.id,
      claimed.leaseUntil,
      outcome.status,
      ready ? outcome.rows : null,
      ready ? outcome.content : null,
      ready ? null : outcome.reason,
      now,
    ],
  );
  return rows.length > 0;
}

/** Deletes the reports (and their files) kept past their time; gives how many. */
export async function deleteExpiredReports(db: Queryable, now: Date): Promise<number> {
  return (await db.query('DELETE FROM reports WHERE expires_at <= $1 RETURNING 1', [now])).length;
}
