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
import { OperatorLimits, OperatorLimitsChange } from '../../shared/schemas/engine-operator-limits.ts';
import type { ApiRoutes, Logger, Sql } from '../../shared/server/index.ts';
import { eraseAccount } from '../account-erasure.ts';
import { addAccountMoveRoute } from './account-moves.ts';
import { auditOperatorAction, auditRateLimitChanges } from '../operator-audit.ts';
import { DEFAULT_REQUESTS_PER_MINUTE } from '../store/environment.ts';
import {
  findAccount,
  holdAccount,
  findApiKey,
  changeAccountRateLimits,
  insertAccount,
  issueApiKey,
  listApiKeys,
  readAccountRateLimits,
  revokeAccountApiKey,
  setAccountRateLimit,
  setAccountSuspended,
  type AccountRateLimits,
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
  /** Where each change to an account's keys and limits is written as an audit line (operator-audit.ts). */
  logger: Logger;
}

/** The account's limits as the operator routes show them. */
const limitsShape = (accountId: string, own: AccountRateLimits): OperatorLimits => ({
  account_id: accountId,
  limits: {
    sandbox: { requests_per_minute: own.sandbox ?? DEFAULT_REQUESTS_PER_MINUTE.sandbox, default: own.sandbox === null },
    live: { requests_per_minute: own.live ?? DEFAULT_REQUESTS_PER_MINUTE.live, default: own.live === null },
  },
});

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
  addAccountLimitRoutes(routes, deps);
  addAccountDeletionRoute(routes, deps);
  addAccountMoveRoute(routes, deps);
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
function addAccountKeyRoutes(routes: ApiRoutes, { sql, now, logger }: OperatorRouteDeps): void {
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
        const created = await sql.transaction(async (tx) => {
          if (!(await holdAccount(tx, params.id))) throw accountNotFound(params.id);
          const issued = await issueApiKey(tx, params.id, body.environment);
          return {
            ...keyShape((await findApiKey(tx, params.id, issued.id))!),
            key: issued.key,
          } satisfies OperatorKeyCreated;
        });
        auditOperatorAction(logger, 'http', {
          action: 'api_key.created',
          account: params.id,
          key: created.id,
          environment: created.environment,
        });
        ctx.body = created;
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
        const revoked = await revokeAccountApiKey(sql, params.id, params.key_id, now());
        if (!revoked) throw new ParleyError('not_found', `No key ${params.key_id} in account ${params.id}.`);
        auditOperatorAction(logger, 'http', {
          action: 'api_key.revoked',
          account: params.id,
          key: params.key_id,
          environment: revoked.environment,
        });
        ctx.status = 204;
      },
    );
}

/** `/operator/v1/accounts/{id}/limits`: an account's requests per minute, read and changed on request (audited). */
function addAccountLimitRoutes(routes: ApiRoutes, { sql, logger }: OperatorRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/:id/limits`,
        tag,
        security,
        summary: "An account's requests per minute in each environment",
        params: OperatorAccountParams,
        responses: { 200: { description: 'The limits.', schema: OperatorLimits } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        const own = await readAccountRateLimits(sql, params.id);
        if (!own) throw accountNotFound(params.id);
        ctx.body = limitsShape(params.id, own);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/:id/limits`,
        tag,
        security,
        summary: "Change an account's requests per minute (raised on request); it holds from the next request",
        description:
          "Name the environments to change; null gives an environment its default back. Each change is written to the engine's log as an audit line (audit: operator) with the account, the environment, and the value before and after.",
        params: OperatorAccountParams,
        body: OperatorLimitsChange,
        responses: { 200: { description: 'The limits now.', schema: OperatorLimits } },
        errors: ['not_found'],
      },
      async (ctx, { params, body }) => {
        const changed = await changeAccountRateLimits(sql, params.id, body.requests_per_minute);
        if (!changed) throw accountNotFound(params.id);
        auditRateLimitChanges(logger, 'http', params.id, changed);
        ctx.body = limitsShape(params.id, changed.after);
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
