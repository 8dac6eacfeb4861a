import { ParleyError } from '../../shared/index.ts';
import {
  OperatorAccountCreate,
  OperatorAccountCreated,
  OperatorAccountParams,
  OperatorAccountStatus,
  OperatorKeyCreate,
  OperatorKeyCreated,
  OperatorKeyList,
  OperatorKeyParams,
  type OperatorKey,
} from '../../shared/schemas/engine-operator.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { eraseAccount } from '../account-erasure.ts';
import {
  findAccount,
  holdAccount,
  findApiKey,
  insertAccount,
  issueApiKey,
  listApiKeys,
  revokeAccountApiKey,
  setAccountRateLimit,
  setAccountSuspended,
  type ApiKeyRecord,
} from '../store/accounts.ts';

const tag = 'Operator';
const security = 'operatorToken';
const base = '/operator/v1/accounts';

const keyShape = (key: ApiKeyRecord): OperatorKey => ({
  id: key.id,
  environment: key.environment,
  prefix: key.prefix,
  created_at: key.createdAt.toISOString(),
  revoked_at: key.revokedAt?.toISOString() ?? null,
});

interface OperatorRouteDeps {
  sql: Sql;
  now: () => Date;
}

const accountNotFound = (id: string) => new ParleyError('not_found', `No account ${id}.`);

/** A new account with a sandbox and a live key, and the request limits asked for, in one transaction. */
function makeAccount(sql: Sql, body: OperatorAccountCreate): Promise<OperatorAccountCreated> {
  return sql.transaction(async (tx) => {
    const accountId = await insertAccount(tx, body.name);
    const test = await issueApiKey(tx, accountId, 'sandbox');
    const live = await issueApiKey(tx, accountId, 'live');
    for (const environment of ['sandbox', 'live'] as const) {
      const limit = body.requests_per_minute?.[environment];
      if (limit !== undefined) await setAccountRateLimit(tx, accountId, environment, limit);
    }
    return { account_id: accountId, keys: { test: test.key, live: live.key } } satisfies OperatorAccountCreated;
  });
}

/** Suspends or resumes an account; an account that is not there is not found. */
async function setSuspended(
  { sql, now }: OperatorRouteDeps,
  id: string,
  suspended: boolean,
): Promise<OperatorAccountStatus> {
  const status = await setAccountSuspended(sql, id, suspended, now());
  if (!status) throw accountNotFound(id);
  return { account_id: id, status };
}

/**
 * `/operator/v1/accounts`: the installation's operator (the BFF, for each helpdesk account it
 * makes) makes accounts with a key per environment, suspends and resumes them, and deletes them
 * with everything they hold; it adds keys to an account (for the account's own site server, whose
 * administrators ask the BFF for them), lists and revokes them. Guarded by the operator token
 * (`requireOperatorToken`), never by an API key: no account can reach another through these routes.
 */
export function addOperatorRoutes(routes: ApiRoutes, deps: OperatorRouteDeps): void {
  addAccountStatusRoutes(routes, deps);
  addAccountKeyRoutes(routes, deps);
  addAccountDeletionRoute(routes, deps);
}

/** Making an account, suspending and resuming it. */
function addAccountStatusRoutes(routes: ApiRoutes, deps: OperatorRouteDeps): void {
  const { sql } = deps;
  routes
    .add(
      {
        method: 'post',
        path: base,
        tag,
        security,
        summary: 'Make an account with a sandbox and a live API key',
        description:
          'The keys are in this answer only: the engine keeps their hashes. Send the same request again and a second account is made.',
        body: OperatorAccountCreate,
        responses: { 201: { description: 'The account and its keys (shown once).', schema: OperatorAccountCreated } },
      },
      async (ctx, { body }) => {
        const created = await makeAccount(sql, body);
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
        summary: 'Suspend an account: its keys answer 403 account_suspended at once',
        params: OperatorAccountParams,
        responses: { 200: { description: "The account's status.", schema: OperatorAccountStatus } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await setSuspended(deps, params.id, true);
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
        ctx.body = await setSuspended(deps, params.id, false);
      },
    );
}

/** `/operator/v1/accounts/{id}/keys`: an account's API keys, added, listed and revoked. */
function addAccountKeyRoutes(routes: ApiRoutes, { sql, now }: OperatorRouteDeps): void {
  routes
    .add(
      {
        method: 'post',
        path: `${base}/:id/keys`,
        tag,
        security,
        summary: 'Add an API key to an account',
        description:
          "The key is in this answer only: the engine keeps its hash. The account's other keys keep working. A key of a suspended account is refused (403 account_suspended) until it is resumed.",
        params: OperatorAccountParams,
        body: OperatorKeyCreate,
        responses: { 201: { description: 'The key (shown once).', schema: OperatorKeyCreated } },
        errors: ['not_found'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await sql.transaction(async (tx) => {
          if (!(await holdAccount(tx, params.id))) throw accountNotFound(params.id);
          const issued = await issueApiKey(tx, params.id, body.environment);
          return {
            ...keyShape((await findApiKey(tx, params.id, issued.id))!),
            key: issued.key,
          } satisfies OperatorKeyCreated;
        });
        ctx.status = 201;
        ctx.set('Cache-Control', 'no-store');
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/:id/keys`,
        tag,
        security,
        summary: "An account's API keys, revoked ones too (never the keys themselves)",
        params: OperatorAccountParams,
        responses: { 200: { description: 'The keys, oldest first.', schema: OperatorKeyList } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        if (!(await findAccount(sql, params.id))) throw accountNotFound(params.id);
        ctx.body = { keys: (await listApiKeys(sql, params.id)).map(keyShape) } satisfies OperatorKeyList;
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/:id/keys/:key_id`,
        tag,
        security,
        summary: "Revoke one of an account's API keys: it answers 401 at once",
        description: 'Revoking a revoked key changes nothing. A key of another account is not found.',
        params: OperatorKeyParams,
        responses: { 204: { description: 'Revoked.' } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        if (!(await revokeAccountApiKey(sql, params.id, params.key_id, now())))
          throw new ParleyError('not_found', `No key ${params.key_id} in account ${params.id}.`);
        ctx.status = 204;
      },
    );
}

/** Deleting an account with everything it holds. */
function addAccountDeletionRoute(routes: ApiRoutes, { sql }: OperatorRouteDeps): void {
  routes.add(
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
      if (!(await eraseAccount(sql, params.id))) throw accountNotFound(params.id);
      ctx.status = 204;
    },
  );
}
