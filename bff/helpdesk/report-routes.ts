import { ParleyError, ReportDays, ReportRecord } from '../../shared/index.ts';
import {
  AccountParams,
  DeskReportParams,
  DeskReportQuery,
  DeskReportRequest,
  ReportFiguresQuery,
} from '../../shared/schemas/helpdesk/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { EngineCallError } from '../engine-link/engine-client.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { EngineReports } from '../engine-link/engine-reports.ts';
import type { Environment } from '../store/inboxes.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import { engineFailure } from './desk-engine-moves.ts';
import { reportScopeOf } from './store/report-scope.ts';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id/reports';
const errors = ['unauthorized', 'unprocessable', 'upstream_unavailable'] as const;

export interface ReportRouteDeps {
  sql: Sql;
  engines: Pick<EngineAccounts, 'for'>;
}

/** The engine's refusals that are the request's (a bad period, a kind not available, a report not ready), told as they are. */
function reportFailure(error: unknown): never {
  if (error instanceof EngineCallError) {
    if (error.code === 'invalid_request' || error.code === 'not_available')
      throw new ParleyError('unprocessable', error.message, { code: error.code });
    if (error.code === 'not_found' || error.code === 'invalid_state') throw new ParleyError(error.code, error.message);
  }
  return engineFailure(error);
}

/** The account's reports at the engine, in `environment`: its own engine account's, or the installation's when it serves this account alone. */
async function reportsOf(
  { sql, engines }: ReportRouteDeps,
  accountId: number,
  environment: Environment,
): Promise<EngineReports> {
  const scope = await reportScopeOf(sql, accountId);
  if (scope === 'shared')
    throw new ParleyError(
      'unprocessable',
      "This account shares the installation's engine account with other accounts: its reports would hold theirs too.",
    );
  return (await engines.for(scope === 'own' ? accountId : null, environment)).reports();
}

/**
 * `/api/v1/accounts/{id}/reports`: what the console's Reports page shows and downloads, for the
 * account's administrators only (agents and bots get 401, as on every administrators' route).
 * Everything is the engine's, read with the account's own key of the environment asked for.
 */
export function addDeskReportRoutes(routes: ApiRoutes<ApplicationState>, deps: ReportRouteDeps): void {
  const administrator = (ctx: { state: ApplicationState }, accountId: number) =>
    requireStanding(deps.sql, ctx.state.caller, accountId, 'administrator');
  routes
    .add(
      {
        method: 'get',
        path: `${base}/daily`,
        tag,
        security,
        summary: 'Support figures day by day, for charts (administrators)',
        description:
          "The engine's GET /v1/reports/daily for the account: conversations per day (answered by the AI, handed over, resolved), first-answer time and handover wait (p50, p95), CSAT. Live by default.",
        params: AccountParams,
        query: ReportFiguresQuery,
        responses: { 200: { description: 'The days.', schema: ReportDays } },
        errors: [...errors],
      },
      async (ctx, { params, query }) => {
        await administrator(ctx, params.account_id);
        const { environment, ...period } = query;
        ctx.body = await (await reportsOf(deps, params.account_id, environment)).daily(period).catch(reportFailure);
      },
    )
    .add(
      {
        method: 'post',
        path: base,
        tag,
        security,
        summary: 'Ask for a report that arrives later (administrators)',
        description:
          'kind conversations, quality or csat, from and to (days or instants, at most 366 days apart), format csv or json. Answers 202 pending; GET the report until it is ready, then download its content.',
        params: AccountParams,
        body: DeskReportRequest,
        responses: { 202: { description: 'The report, pending.', schema: ReportRecord } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await administrator(ctx, params.account_id);
        const { environment, ...order } = body;
        const reports = await reportsOf(deps, params.account_id, environment);
        ctx.body = await reports.request(order, ctx.get('idempotency-key') || undefined).catch(reportFailure);
        ctx.status = 202;
      },
    );
  addReportReadRoutes(routes, deps, administrator);
}

/** A report's status, and its file as a download. */
function addReportReadRoutes(
  routes: ApiRoutes<ApplicationState>,
  deps: ReportRouteDeps,
  administrator: (ctx: { state: ApplicationState }, accountId: number) => Promise<unknown>,
): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/:id`,
        tag,
        security,
        summary: 'A report: pending, running, ready or failed with its reason (administrators)',
        params: DeskReportParams,
        query: DeskReportQuery,
        responses: { 200: { description: 'The report.', schema: ReportRecord } },
        errors: [...errors, 'not_found'],
      },
      async (ctx, { params, query }) => {
        await administrator(ctx, params.account_id);
        const reports = await reportsOf(deps, params.account_id, query.environment);
        ctx.body = await reports.report(params.id).catch(reportFailure);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/:id/content`,
        tag,
        security,
        summary: "A ready report's file, as a download (administrators)",
        description: 'CSV or JSON as asked, with its name in Content-Disposition; 409 while it is not ready.',
        params: DeskReportParams,
        query: DeskReportQuery,
        responses: { 200: { description: 'The file.', contentType: 'text/csv' } },
        errors: [...errors, 'not_found', 'invalid_state'],
      },
      async (ctx, { params, query }) => {
        await administrator(ctx, params.account_id);
        const reports = await reportsOf(deps, params.account_id, query.environment);
        const file = await reports.content(params.id).catch(reportFailure);
        ctx.set('Content-Disposition', file.disposition);
        ctx.set('Cache-Control', 'private, no-store');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.type = file.contentType;
        ctx.body = file.body;
      },
    );
}
