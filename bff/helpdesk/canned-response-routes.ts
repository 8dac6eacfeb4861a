import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { ApiRoutes, Queryable, Sql } from '../../shared/server/index.ts';
import { changesBetween, writeAudit } from './store/audit-log.ts';
import {
  deleteCannedResponse,
  findCannedResponse,
  insertCannedResponse,
  listCannedResponses,
  updateCannedResponse,
  type CannedResponseRecord,
} from './store/canned-responses.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
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
const shape = (response: CannedResponseRecord): CannedResponse => ({
  id: response.id,
  account_id: response.accountId,
  short_code: response.shortCode,
  content: response.content,
});
const taken = () =>
  new ParleyError('unprocessable', 'This account has a canned response with that short code already.', {
    problems: [{ field: 'short_code', message: 'is taken' }],
  });

/**
 * Canned responses: every person of the account reads and uses them; administrators keep them
 * (as in Chatwoot). Changes are audited.
 */
export function addCannedResponseRoutes(
  routes: ApiRoutes<ApplicationState>,
  { sql, now }: { sql: Sql; now: () => Date },
): void {
  const audit = (
    db: Queryable,
    accountId: number,
    state: ApplicationState,
    id: number,
    action: 'create' | 'update' | 'destroy',
    before: object,
    after: object,
  ) =>
    writeAudit(
      db,
      {
        accountId,
        actor: state.actor,
        auditableType: 'CannedResponse',
        auditableId: id,
        action,
        changes: changesBetween(before as Record<string, unknown>, after as Record<string, unknown>),
      },
      now(),
    );
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
        ctx.body = (await listCannedResponses(sql, params.account_id, query.search)).map(shape);
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
        ctx.body = await sql.transaction(async (tx) => {
          const made = await insertCannedResponse(tx, params.account_id, body.short_code, body.content, now());
          if (!made) throw taken();
          await audit(tx, params.account_id, ctx.state, made.id, 'create', {}, shape(made));
          return shape(made);
        });
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
        const before = await findCannedResponse(sql, params.account_id, params.id);
        if (!before) throw new ParleyError('not_found', `No canned response ${params.id}.`);
        ctx.body = await sql.transaction(async (tx) => {
          const after = await updateCannedResponse(
            tx,
            params.account_id,
            params.id,
            { shortCode: body.short_code, content: body.content },
            now(),
          );
          if (after === 'taken') throw taken();
          if (!after) throw new ParleyError('not_found', `No canned response ${params.id}.`);
          await audit(tx, params.account_id, ctx.state, after.id, 'update', shape(before), shape(after));
          return shape(after);
        });
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
        const before = await findCannedResponse(sql, params.account_id, params.id);
        await sql.transaction(async (tx) => {
          if (!before || !(await deleteCannedResponse(tx, params.account_id, params.id)))
            throw new ParleyError('not_found', `No canned response ${params.id}.`);
          await audit(tx, params.account_id, ctx.state, before.id, 'destroy', shape(before), {});
        });
        ctx.body = '';
      },
    );
}
