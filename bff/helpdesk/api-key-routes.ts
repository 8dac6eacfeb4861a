import { z } from 'zod';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import type { ApiKeyService } from './api-key-service.ts';
import { AccountParams, ApiKey, ApiKeyCreate, ApiKeyParams } from '../../shared/schemas/helpdesk/index.ts';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id/api_keys';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;
const noAccountOfItsOwn =
  "An account served by the installation's engine account (made before accounts had engine accounts of their own) gets 422: its keys come from the installation's operator.";

/**
 * `/api/v1/accounts/{id}/api_keys`: an account's administrators get API keys of the account's own
 * engine account for their site's server (its knowledge and actions at the engine, verified
 * customers' sessions here), list them without the keys, and revoke them. Nobody else: agents and
 * bots get 401, as on every administrators' route.
 */
export function addApiKeyRoutes(routes: ApiRoutes<ApplicationState>, apiKeys: ApiKeyService, sql: Sql): void {
  const administrator = (ctx: { state: ApplicationState }, accountId: number) =>
    requireStanding(sql, ctx.state.caller, accountId, 'administrator');
  routes
    .add(
      {
        method: 'post',
        path: base,
        tag,
        security,
        summary:
          "Make an API key of the account's engine account (administrators); the whole key is in this answer only",
        description: `A sandbox key (service_test_…) or a live one (service_live_…), for the account's site server: the engine's /v1 for this account (knowledge, actions, customers), and POST /v1/widget-sessions here for verified customers of the account's inboxes. At most 10 unrevoked keys per environment. ${noAccountOfItsOwn} 503 while the engine cannot be reached, or without the BFF's AI_OPERATOR_TOKEN.`,
        params: AccountParams,
        body: ApiKeyCreate,
        responses: { 201: { description: 'The key, shown whole this once.', schema: ApiKey } },
        errors: [...errors, 'not_configured', 'upstream_unavailable'],
      },
      async (ctx, { params, body }) => {
        await administrator(ctx, params.account_id);
        ctx.body = await apiKeys.create(params.account_id, ctx.state.actor, body.environment);
        ctx.status = 201;
        ctx.set('Cache-Control', 'no-store');
      },
    )
    .add(
      {
        method: 'get',
        path: base,
        tag,
        security,
        summary: "The account's API keys (administrators), revoked ones too, never the keys themselves",
        params: AccountParams,
        responses: { 200: { description: 'The keys, oldest first.', schema: z.array(ApiKey) } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await administrator(ctx, params.account_id);
        ctx.body = await apiKeys.list(params.account_id);
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/:id`,
        tag,
        security,
        summary: 'Revoke an API key (administrators): it is refused at once, at the engine and here',
        params: ApiKeyParams,
        responses: { 200: { description: 'Done (empty body).' } },
        errors: [...errors, 'not_configured', 'upstream_unavailable'],
      },
      async (ctx, { params }) => {
        await administrator(ctx, params.account_id);
        await apiKeys.revoke(params.account_id, ctx.state.actor, params.id);
        ctx.body = '';
      },
    );
}
