import { ParleyError } from '../../shared/index.ts';
import { Fixture, FixtureList, FixtureParams, PutFixtureRequest } from '../../shared/schemas/engine-actions.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import {
  deleteSandboxFixture,
  findAction,
  listSandboxFixtures,
  setSandboxFixture,
  type FixtureRow,
} from '../store/actions.ts';
import type { Caller } from '../store/environment.ts';

const tag = 'Sandbox';
const security = 'apiKey';

const toFixture = (row: FixtureRow): Fixture => ({
  action: row.action,
  result: row.result,
  updated_at: row.updated_at.toISOString(),
});

/** Fixtures answer sandbox customers only, so only sandbox keys see or change them (SPEC "Sandbox": test keys only). */
function requireSandboxKey(caller: Caller): void {
  if (caller.environment !== 'sandbox') {
    throw new ParleyError(
      'forbidden',
      "Sandbox fixtures are for sandbox keys (service_test_…); a live customer's action is run by your server or by the action's URL, never by a fixture.",
    );
  }
}

/**
 * `/v1/sandbox/fixtures`: results the engine gives for an action itself, for sandbox customers
 * (`handled_by: "sandbox"`), so a site can be tried before its server runs actions.
 */
export function addSandboxFixtureRoutes(
  routes: ApiRoutes<EngineState>,
  { sql, now }: { sql: Sql; now: () => Date },
): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/sandbox/fixtures',
        tag,
        security,
        summary: "The sandbox's action fixtures",
        description: 'Sandbox keys only.',
        responses: { 200: { description: 'Every fixture, by action.', schema: FixtureList } },
        errors: ['forbidden'],
      },
      async (ctx) => {
        requireSandboxKey(ctx.state.caller);
        ctx.body = { fixtures: (await listSandboxFixtures(sql, ctx.state.caller.accountId)).map(toFixture) };
      },
    )
    .add(
      {
        method: 'put',
        path: '/v1/sandbox/fixtures/:action',
        tag,
        security,
        summary: "Set an action's sandbox result",
        description:
          "Sandbox keys only. From the next message on, when a sandbox customer's request calls for the action, the engine runs it with this result (handled_by: sandbox) and the AI answers with it. {status: 'failed', error} tries a failure. The action must exist.",
        params: FixtureParams,
        body: PutFixtureRequest,
        responses: { 200: { description: 'The fixture.', schema: Fixture } },
        errors: ['forbidden', 'not_found'],
      },
      async (ctx, { params, body }) => {
        const { caller } = ctx.state;
        requireSandboxKey(caller);
        if (!(await findAction(sql, caller, params.action)))
          throw new ParleyError(
            'not_found',
            `No action ${params.action} in this account; define it first (PUT /v1/actions/${params.action}).`,
          );
        ctx.body = toFixture(await setSandboxFixture(sql, caller.accountId, params.action, body.result, now()));
      },
    )
    .add(
      {
        method: 'delete',
        path: '/v1/sandbox/fixtures/:action',
        tag,
        security,
        summary: "Remove an action's sandbox result",
        description:
          "Sandbox keys only. Sandbox customers' requests for the action then go to your server (action-results).",
        params: FixtureParams,
        responses: { 204: { description: 'Removed.' } },
        errors: ['forbidden', 'not_found'],
      },
      async (ctx, { params }) => {
        requireSandboxKey(ctx.state.caller);
        await deleteSandboxFixture(sql, ctx.state.caller.accountId, params.action);
        ctx.status = 204;
      },
    );
}
