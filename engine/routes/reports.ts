import { z } from 'zod';
import {
  CreateReportRequest,
  ParleyError,
  ReportParams,
  ReportDays,
  ReportRecord,
  ReportSummary,
  ReportSummaryQuery,
} from '../../shared/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import { reportFile } from '../reports/report-file.ts';
import { MAX_REPORT_ROWS, type ReportWorker } from '../reports/worker.ts';
import { dailyReport } from '../store/report-days.ts';
import { findReport, findReportContent, insertReport, summaryReport } from '../store/reports.ts';

const DAY_MS = 24 * 3600_000;
/** The longest period one summary covers: a year, a leap year's too. */
export const MAX_REPORT_DAYS = 366;
const DEFAULT_REPORT_DAYS = 30;

/** A bound as given: a day is its 00:00 UTC (as an end, the next day's, so that the day counts whole); an instant is itself. */
function instant(value: string, end: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(Date.parse(`${value}T00:00:00Z`) + (end ? DAY_MS : 0));
  return new Date(value);
}

/** The period `[from, to)` of a summary: from before to, at most MAX_REPORT_DAYS long; a 400 otherwise. */
export function reportPeriod(query: ReportSummaryQuery, now: Date): { from: Date; to: Date } {
  const to = query.to ? instant(query.to, true) : now;
  const from = query.from ? instant(query.from, false) : new Date(to.getTime() - DEFAULT_REPORT_DAYS * DAY_MS);
  if (from.getTime() >= to.getTime()) {
    throw new ParleyError('invalid_request', `from (${from.toISOString()}) must be before to (${to.toISOString()}).`, {
      problems: [{ field: 'from', message: 'not before to' }],
    });
  }
  if (to.getTime() - from.getTime() > MAX_REPORT_DAYS * DAY_MS) {
    throw new ParleyError(
      'invalid_request',
      `A summary covers at most ${MAX_REPORT_DAYS} days; ask for several periods.`,
      { problems: [{ field: 'to', message: `more than ${MAX_REPORT_DAYS} days after from` }] },
    );
  }
  return { from, to };
}

/** How long a report and its file are kept after it was asked for. */
export const REPORT_KEEP_DAYS = 7;

interface ReportRouteDeps {
  sql: Sql;
  now: () => Date;
  worker: ReportWorker;
}

/**
 * `/v1/reports`: the summary answered at once, and reports that arrive later (asked for, gathered
 * by the report worker, then read as a file).
 */
export function addReportRoutes(routes: ApiRoutes<EngineState>, deps: ReportRouteDeps): void {
  addSummaryRoute(routes, deps);
  addDailyRoute(routes, deps);
  addReportRequestRoute(routes, deps);
  addReportReadRoutes(routes, deps);
}

/** `GET /v1/reports/summary`: how support went for the key's account and environment over a period. */
function addSummaryRoute(routes: ApiRoutes<EngineState>, { sql, now }: ReportRouteDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/v1/reports/summary',
      tag: 'Reports',
      security: 'apiKey',
      summary: 'Support summary over a period',
      description: `Conversations opened in the period and what became of them (answered by the AI, handed over, resolved), the first answer's time (p50, p95), the average survey rating (CSAT) and the "did that help?" rate of the answers given in it. from and to are days (2026-01-31: the whole day, UTC) or instants with an offset; from must be before to, at most ${MAX_REPORT_DAYS} days apart. Without them: the last ${DEFAULT_REPORT_DAYS} days.`,
      query: ReportSummaryQuery,
      responses: { 200: { description: 'The summary.', schema: ReportSummary } },
    },
    async (ctx, { query }) => {
      const { from, to } = reportPeriod(query, now());
      const summary: ReportSummary = {
        from: from.toISOString(),
        to: to.toISOString(),
        ...(await summaryReport(sql, ctx.state.caller, from, to)),
      };
      ctx.body = summary;
    },
  );
}

/** The period widened to whole UTC days: from its day's 00:00 to the 00:00 after its last instant. */
function wholeDays({ from, to }: { from: Date; to: Date }): { from: Date; to: Date } {
  const start = Math.floor(from.getTime() / DAY_MS) * DAY_MS;
  const end = Math.ceil(to.getTime() / DAY_MS) * DAY_MS;
  return { from: new Date(start), to: new Date(Math.min(end, start + MAX_REPORT_DAYS * DAY_MS)) };
}

/** `GET /v1/reports/daily`: the summary's figures day by day, for charts. */
function addDailyRoute(routes: ApiRoutes<EngineState>, { sql, now }: ReportRouteDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/v1/reports/daily',
      tag: 'Reports',
      security: 'apiKey',
      summary: 'Support figures day by day',
      description: `Every UTC day of the period, quiet days too: conversations opened that day and what became of them (answered by the AI, handed over, resolved), their first answer's time and the wait from a handover to a person's first answer (p50, p95), and survey answers (CSAT) first given that day. from and to as in the summary, widened to whole UTC days; at most ${MAX_REPORT_DAYS} days. Without them: the last ${DEFAULT_REPORT_DAYS} days.`,
      query: ReportSummaryQuery,
      responses: { 200: { description: 'The days.', schema: ReportDays } },
    },
    async (ctx, { query }) => {
      const { from, to } = wholeDays(reportPeriod(query, now()));
      const days: ReportDays = {
        from: from.toISOString(),
        to: to.toISOString(),
        days: await dailyReport(sql, ctx.state.caller, from, to),
      };
      ctx.body = days;
    },
  );
}

/** `POST /v1/reports`: a report to gather after the answer (202); the worker takes it up at once. */
function addReportRequestRoute(routes: ApiRoutes<EngineState>, { sql, now, worker }: ReportRouteDeps): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/reports',
      tag: 'Reports',
      security: 'apiKey',
      summary: 'Ask for a report that arrives later',
      description: `The report is gathered after this answer (202, status pending): watch GET /v1/reports/{id} or wait for report.ready {report_id, kind, rows} in the feed and webhooks, then download GET /v1/reports/{id}/content. Work survives a restart of the engine. from must be before to, at most ${MAX_REPORT_DAYS} days apart; a report holds at most ${MAX_REPORT_ROWS} rows (a period with more fails, saying so) and is kept ${REPORT_KEEP_DAYS} days. CSV cells that a spreadsheet would run as a formula (=, +, -, @) are opened with an apostrophe. Kinds: conversations (one row per conversation opened), quality (per conversation closed, with its score's reasons), csat (per survey answer), monitors (findings per monitor and severity per UTC day, with the conversations they were in; no excerpts), interviews (per answer of each interview response that ended in the period, with the question, the answer and whether it was skipped). With an Idempotency-Key, a retry gives the same report.`,
      body: CreateReportRequest,
      responses: { 202: { description: 'The report, pending.', schema: ReportRecord } },
    },
    async (ctx, { body }) => {
      const { from, to } = reportPeriod(body, now());
      const at = now();
      const expiresAt = new Date(at.getTime() + REPORT_KEEP_DAYS * DAY_MS);
      const order = { kind: body.kind, format: body.format, from, to };
      const record = await insertReport(sql, ctx.state.caller, order, { now: at, expiresAt });
      worker.nudge();
      ctx.status = 202;
      ctx.body = record;
    },
  );
}

/** `GET /v1/reports/{id}` and its file. */
function addReportReadRoutes(routes: ApiRoutes<EngineState>, { sql, now }: ReportRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/reports/:id',
        tag: 'Reports',
        security: 'apiKey',
        summary: 'A report: whether it is ready, or why it failed',
        params: ReportParams,
        responses: { 200: { description: 'The report.', schema: ReportRecord } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        const record = await findReport(sql, ctx.state.caller, params.id, now());
        if (!record) throw new ParleyError('not_found', `No report ${params.id} for this key.`);
        ctx.body = record;
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/reports/:id/content',
        tag: 'Reports',
        security: 'apiKey',
        summary: "A ready report's file",
        description:
          'The file as a download (Content-Disposition: attachment), CSV or JSON as asked. A report not ready yet answers 409 invalid_state; a failed one too, with its reason.',
        params: ReportParams,
        responses: {
          200: {
            description: 'The file.',
            contentType: 'text/csv',
            schema: z.string(),
            alternatives: { 'application/json': z.object({ rows: z.array(z.record(z.string(), z.unknown())) }) },
          },
        },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params }) => {
        const found = await findReportContent(sql, ctx.state.caller, params.id, now());
        if (!found) throw new ParleyError('not_found', `No report ${params.id} for this key.`);
        const { record, content } = found;
        if (record.status === 'failed')
          throw new ParleyError('invalid_state', `Report ${record.id} failed: ${record.failure_reason}`);
        if (content === null)
          throw new ParleyError('invalid_state', `Report ${record.id} is ${record.status}; try again soon.`);
        const { contentType, fileName } = reportFile(record);
        ctx.set('Content-Disposition', `attachment; filename="${fileName}"`);
        ctx.set('Cache-Control', 'private, no-store');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.type = contentType;
        ctx.body = content;
      },
    );
}
