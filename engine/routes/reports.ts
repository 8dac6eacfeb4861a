import { ParleyError, ReportSummary, ReportSummaryQuery } from '../../shared/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import { summaryReport } from '../store/reports.ts';

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

/** `GET /v1/reports/summary`: how support went for the key's account and environment over a period. */
export function addReportRoutes(routes: ApiRoutes<EngineState>, { sql, now }: { sql: Sql; now: () => Date }): void {
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
