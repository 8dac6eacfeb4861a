import { ParleyError } from '../../shared/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import {
  CreateMonitorRequest,
  FindingsQuery,
  Monitor,
  MonitorFindingPage,
  MonitorFindingsQuery,
  MonitorList,
  MonitorParams,
  MONITORS_MAX,
  UpdateMonitorRequest,
  type MonitorCriteria,
} from '../../shared/schemas/monitors.ts';
import type { EngineState } from '../auth.ts';
import {
  deleteMonitor,
  findMonitor,
  insertMonitor,
  listMonitors,
  monitorView,
  pageFindings,
  updateMonitor,
} from '../store/monitors.ts';

const tag = 'Monitors';
const security = 'apiKey';

interface MonitorRouteDeps {
  sql: Sql;
  now: () => Date;
  /** Whether the engine has an LLM configured: only then may a monitor have an instruction. */
  llm: boolean;
}

/** An instruction is answered by the LLM: without one configured it is refused before anything is stored. */
function refuseInstructionWithoutLlm(criteria: MonitorCriteria | undefined, llm: boolean): void {
  if (criteria?.instruction && !llm)
    throw new ParleyError(
      'not_available',
      'An instruction is checked by an LLM, and this engine has none configured (LLM_BASE_URL); use keywords or a pattern.',
    );
}

/**
 * `/v1/monitors` and `/v1/findings`: what the account watches its conversations for, and what was
 * found. Monitors belong to the key's environment and read that environment's conversations only,
 * every message written after they were made (engine/monitors/worker.ts, beside the requests).
 */
export function addMonitorRoutes(routes: ApiRoutes<EngineState>, deps: MonitorRouteDeps): void {
  addMonitorListRoutes(routes, deps);
  addMonitorRoutesById(routes, deps);
  addFindingRoutes(routes, deps);
}

function addMonitorListRoutes(routes: ApiRoutes<EngineState>, { sql, now, llm }: MonitorRouteDeps): void {
  routes
    .add(
      {
        method: 'post',
        path: '/v1/monitors',
        tag,
        security,
        summary: 'Add a monitor',
        description: `A monitor reads every message written from now on in the key's environment (the AI's, the customer's, or all, people's too), after the answer and never holding it up, and records a finding, with a monitor.finding event, for each message that holds one of its keywords, matches its pattern, or (with an LLM configured) the LLM says shows its instruction. Each message is found at most once per monitor. At most ${MONITORS_MAX} monitors per environment.`,
        body: CreateMonitorRequest,
        responses: { 201: { description: 'The monitor.', schema: Monitor } },
        errors: ['unprocessable', 'not_available'],
      },
      async (ctx, { body }) => {
        refuseInstructionWithoutLlm(body.criteria, llm);
        const monitor = await sql.transaction((tx) => insertMonitor(tx, ctx.state.caller, body, now()));
        ctx.status = 201;
        ctx.body = monitorView(monitor);
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/monitors',
        tag,
        security,
        summary: "The environment's monitors",
        responses: { 200: { description: 'Every monitor, oldest first.', schema: MonitorList } },
      },
      async (ctx) => {
        ctx.body = { monitors: (await listMonitors(sql, ctx.state.caller)).map(monitorView) };
      },
    );
}

function addMonitorRoutesById(routes: ApiRoutes<EngineState>, { sql, now, llm }: MonitorRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/monitors/:id',
        tag,
        security,
        summary: 'One monitor',
        params: MonitorParams,
        responses: { 200: { description: 'The monitor.', schema: Monitor } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = monitorView(await findMonitor(sql, ctx.state.caller, params.id));
      },
    )
    .add(
      {
        method: 'patch',
        path: '/v1/monitors/:id',
        tag,
        security,
        summary: 'Change a monitor',
        description:
          'Only the fields sent change; criteria are replaced as a whole. Messages written from then on are read with the monitor as it is now.',
        params: MonitorParams,
        body: UpdateMonitorRequest,
        responses: { 200: { description: 'The monitor after the change.', schema: Monitor } },
        errors: ['not_found', 'not_available'],
      },
      async (ctx, { params, body }) => {
        refuseInstructionWithoutLlm(body.criteria, llm);
        ctx.body = monitorView(await updateMonitor(sql, ctx.state.caller, params.id, body, now()));
      },
    )
    .add(
      {
        method: 'delete',
        path: '/v1/monitors/:id',
        tag,
        security,
        summary: 'Remove a monitor',
        description: 'Its findings go with it; the monitor.finding events it emitted stay in the feed.',
        params: MonitorParams,
        responses: { 204: { description: 'Removed.' } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        await deleteMonitor(sql, ctx.state.caller, params.id);
        ctx.status = 204;
      },
    );
}

const pageDescription =
  'Newest first, a page of limit (at most 100, by default 50). Pass next as after to read older ones while has_more is true; no offsets.';

function addFindingRoutes(routes: ApiRoutes<EngineState>, { sql }: MonitorRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/monitors/:id/findings',
        tag,
        security,
        summary: "A monitor's findings",
        description: pageDescription,
        params: MonitorParams,
        query: MonitorFindingsQuery,
        responses: { 200: { description: 'A page of findings.', schema: MonitorFindingPage } },
        errors: ['not_found'],
      },
      async (ctx, { params, query }) => {
        await findMonitor(sql, ctx.state.caller, params.id);
        ctx.body = await pageFindings(sql, ctx.state.caller, { ...query, monitorId: params.id });
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/findings',
        tag,
        security,
        summary: "The environment's findings, of every monitor",
        description: `${pageDescription} With conversation_id, only that conversation's.`,
        query: FindingsQuery,
        responses: { 200: { description: 'A page of findings.', schema: MonitorFindingPage } },
      },
      async (ctx, { query }) => {
        ctx.body = await pageFindings(sql, ctx.state.caller, { ...query, conversationId: query.conversation_id });
      },
    );
}
