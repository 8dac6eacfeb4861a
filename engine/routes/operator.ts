import { ParleyError } from '../../shared/index.ts';
import { OperatorAccountCreate, OperatorAccountCreated, OperatorAccountParams, OperatorAccountStatus } from '../../shared/schemas/engine-operator.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { eraseAccount } from '../account-erasure.ts';
import { insertAccount, issueApiKey, setAccountRateLimit, setAccountSuspended } from '../store/accounts.ts';

const tag = 'Operator';
const security = 'operatorToken';
const base = '/operator/v1/accounts';

/**
 * `/operator/v1/accounts`: the installation's operator (the BFF, for each helpdesk account it
 * makes) makes accounts with a key per environment, suspends and resumes them, and deletes them
 * with everything they hold. Guarded by the operator token (`requireOperatorToken`), never by an
 * API key: no account can reach another through these routes.
 */
export function addOperatorRoutes(routes: ApiRoutes, { sql, now }: { sql: Sql; now: () => Date }): void {
  const notFound = (id: string) => new ParleyError('not_found', `No account ${id}.`);
  const setSuspended = async (id: string, suspended: boolean): Promise<OperatorAccountStatus> => {
    const status = await setAccountSuspended(sql, id, suspended, now());
    if (!status) throw notFound(id);
    return { account_id: id, status };
  };
  routes
    .add(
      {
        method: 'post',
        path: base,
        tag,
        security,
        summary: 'Make an account with a sandbox and a live API key',
        description: 'The keys are in this answer only: the engine keeps their hashes. Send the same request again and a second account is made.',
        body: OperatorAccountCreate,
        responses: { 201: { description: 'The account and its keys (shown once).', schema: OperatorAccountCreated } },
      },
      async (ctx, { body }) => {
        const created = await sql.transaction(async (tx) => {
          const accountId = await insertAccount(tx, body.name);
          const test = await issueApiKey(tx, accountId, 'sandbox');
          const live = await issueApiKey(tx, accountId, 'live');
          for (const environment of ['sandbox', 'live'] as const) {
            const limit = body.requests_per_minute?.[environment];
            if (limit !== undefined) await setAccountRateLimit(tx, accountId, environment, limit);
          }
          return { account_id: accountId, keys: { test: test.key, live: live.key } } satisfies OperatorAccountCreated;
        });
        ctx.status = 201;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = created;
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/:id/suspend`,
        tag,
        security,
        summary: "Suspend an account: its keys answer 403 account_suspended at once",
        params: OperatorAccountParams,
        responses: { 200: { description: "The account's status.", schema: OperatorAccountStatus } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await setSuspended(params.id, true);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/:id/resume`,
        tag,
        security,
        summary: 'Resume a suspended account: its keys work again',
        params: OperatorAccountParams,
        responses: { 200: { description: "The account's status.", schema: OperatorAccountStatus } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await setSuspended(params.id, false);
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/:id`,
        tag,
        security,
        summary: 'Delete an account and erase everything it holds; its keys answer 401 at once',
        params: OperatorAccountParams,
        responses: { 204: { description: 'Deleted.' } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        if (!(await eraseAccount(sql, params.id))) throw notFound(params.id);
        ctx.status = 204;
      },
    );
}

