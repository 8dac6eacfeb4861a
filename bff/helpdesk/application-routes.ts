import { z } from 'zod';
import type { ApiRoutes } from '../../shared/server/index.ts';
import { requireStanding, standingIn, type ApplicationState } from './auth.ts';
import type { HelpdeskService } from './helpdesk-service.ts';
import {
  AccountBotParams,
  AccountParams,
  AccountUpdate,
  AccountView,
  AgentBot,
  AgentBotCreate,
  AgentBotUpdate,
  AuditLogPage,
  AuditLogQuery,
} from '../../shared/schemas/helpdesk/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { ParleyError } from '../../shared/index.ts';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;

/** The account itself (read, changed by administrators) and its audit log. */
function addAccountRoutes(routes: ApiRoutes<ApplicationState>, helpdesk: HelpdeskService, sql: Sql): void {
  routes
    .add(
      {
        method: 'get',
        path: base,
        tag,
        security,
        summary: 'The account',
        params: AccountParams,
        description: 'An account that does not exist and one you are not a member of are both 404.',
        responses: { 200: { description: 'The account, with your role.', schema: AccountView } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        // An account that does not exist and one the caller is not in answer alike (no oracle): 404.
        const standing = await standingIn(sql, ctx.state.caller, params.account_id);
        if (!standing) throw new ParleyError('not_found', `No account ${params.account_id}.`);
        ctx.body = await helpdesk.accountView(params.account_id, standing);
      },
    )
    .add(
      {
        method: 'patch',
        path: base,
        tag,
        security,
        summary: 'Change the account (administrators)',
        description:
          'As JSON or as a form (application/x-www-form-urlencoded; custom_attributes and settings only as JSON). settings (Chatwoot’s) merge key by key into the kept ones.',
        params: AccountParams,
        body: AccountUpdate,
        form: true,
        responses: { 200: { description: 'The account.', schema: AccountView } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        ctx.body = await helpdesk.updateAccount(params.account_id, ctx.state.actor, body);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/audit_logs`,
        tag,
        security,
        summary: "The account's audit log (administrators)",
        description:
          'Every administrative change: who, what, when, before and after. 15 a page, newest first unless sort=asc. 422 when the account has the audit_logs feature off.',
        params: AccountParams,
        query: AuditLogQuery,
        responses: { 200: { description: 'One page of entries.', schema: AuditLogPage } },
        errors: ['unauthorized', 'forbidden', 'not_found', 'unprocessable'],
      },
      async (ctx, { params, query }) => {
        const standing = await requireStanding(sql, ctx.state.caller, params.account_id);
        if (standing !== 'administrator')
          throw new ParleyError('forbidden', 'Only an administrator of this account may read its audit log.');
        ctx.body = await helpdesk.auditLogs(params.account_id, query);
      },
    );
}

/** The account's agent bots: the list, and a new one. */
function addAgentBotCollectionRoutes(routes: ApiRoutes<ApplicationState>, helpdesk: HelpdeskService, sql: Sql): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/agent_bots`,
        tag,
        security,
        summary: "The account's agent bots",
        params: AccountParams,
        responses: { 200: { description: 'The agent bots.', schema: z.array(AgentBot) } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = await helpdesk.listAccountBots(params.account_id);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/agent_bots`,
        tag,
        security,
        summary: 'Create an agent bot (administrators; its access_token is in this answer only)',
        params: AccountParams,
        body: AgentBotCreate,
        responses: { 200: { description: 'The agent bot.', schema: AgentBot } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        ctx.body = await helpdesk.createAccountBot(params.account_id, ctx.state.actor, body);
      },
    );
}

/** One agent bot of the account: read, changed, deleted. */
function addAgentBotItemRoutes(routes: ApiRoutes<ApplicationState>, helpdesk: HelpdeskService, sql: Sql): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/agent_bots/:id`,
        tag,
        security,
        summary: 'An agent bot',
        params: AccountBotParams,
        responses: { 200: { description: 'The agent bot.', schema: AgentBot } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = await helpdesk.getAccountBot(params.account_id, params.id);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/agent_bots/:id`,
        tag,
        security,
        summary: 'Change an agent bot (administrators)',
        params: AccountBotParams,
        body: AgentBotUpdate,
        responses: { 200: { description: 'The agent bot.', schema: AgentBot } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        ctx.body = await helpdesk.patchAccountBot(params.account_id, ctx.state.actor, params.id, body);
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/agent_bots/:id`,
        tag,
        security,
        summary: 'Delete an agent bot (administrators)',
        params: AccountBotParams,
        responses: { 200: { description: 'Done (empty body).' } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        await helpdesk.deleteAccountBot(params.account_id, ctx.state.actor, params.id);
        ctx.body = '';
      },
    );
}

/**
 * The helpdesk Application API (SPEC "Helpdesk Application API"): a person (or an agent bot) acts
 * inside an account with their role, checked on every route.
 */
export function addApplicationRoutes(routes: ApiRoutes<ApplicationState>, helpdesk: HelpdeskService, sql: Sql): void {
  addAccountRoutes(routes, helpdesk, sql);
  addAgentBotCollectionRoutes(routes, helpdesk, sql);
  addAgentBotItemRoutes(routes, helpdesk, sql);
}
