import { z } from 'zod';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import { createCannedResponseService } from './canned-response-service.ts';
import {
  AccountParams,
  CannedResponse,
  CannedResponseCreate,
  CannedResponseParams,
  CannedResponseQuery,
  CannedResponseUpdate,
} from '../../shared/schemas/helpdesk/index.ts';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id/canned_responses';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;

/**
 * Canned responses: every person of the account reads and uses them; administrators keep them
 * (as in Chatwoot). Changes are audited.
 */
export function addCannedResponseRoutes(
  routes: ApiRoutes<ApplicationState>,
  { sql, now }: { sql: Sql; now: () => Date },
): void {
  const cannedResponses = createCannedResponseService({ sql, now });
  routes
    .add(
      {
        method: 'get',
        path: base,
        tag,
        security,
        summary: "The account's canned responses",
        params: AccountParams,
        query: CannedResponseQuery,
        responses: { 200: { description: 'By short code.', schema: z.array(CannedResponse) } },
        errors: [...errors],
      },
      async (ctx, { params, query }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = await cannedResponses.list(params.account_id, query.search);
      },
    )
    .add(
      {
        method: 'post',
        path: base,
        tag,
        security,
        summary: 'Add a canned response (administrators)',
        params: AccountParams,
        body: CannedResponseCreate,
        responses: { 200: { description: 'The canned response.', schema: CannedResponse } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        ctx.body = await cannedResponses.create(params.account_id, ctx.state.actor, body);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/:id`,
        tag,
        security,
        summary: 'Change a canned response (administrators)',
        params: CannedResponseParams,
        body: CannedResponseUpdate,
        responses: { 200: { description: 'The canned response.', schema: CannedResponse } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        ctx.body = await cannedResponses.update(params.account_id, ctx.state.actor, params.id, body);
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/:id`,
        tag,
        security,
        summary: 'Delete a canned response (administrators)',
        params: CannedResponseParams,
        responses: { 200: { description: 'Done (empty body).' } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        await cannedResponses.remove(params.account_id, ctx.state.actor, params.id);
        ctx.body = '';
      },
    );
}
