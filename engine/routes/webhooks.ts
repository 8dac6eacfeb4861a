import { z } from 'zod';
import {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointRequest,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryParams,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointParams,
} from '../../shared/index.ts';
import {
  checkEndpointAddress,
  checkEndpointHost,
  checkEndpointUrl,
  type ApiRoutes,
  type SecretBox,
  type Sql,
  type TargetPolicy,
  type WebhookWorker,
} from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import {
  deleteEndpoint,
  enableEndpoint,
  findEndpoint,
  findOwnDelivery,
  insertEndpoint,
  insertPing,
  listEndpoints,
  pageOwnDeliveries,
  resendOwnDelivery,
} from '../webhooks/endpoints.ts';

const tag = 'Webhooks';

/** The most deliveries one page holds. */
const DELIVERIES_PAGE_MAX = 100;

/** The deliveries list pages as the feed does: `after` a cursor (the last delivery of the page before), `limit` the page size. */
const DeliveriesPageQuery = WebhookDeliveriesQuery.extend({
  after: z
    .string()
    .regex(/^whd_[0-9A-Za-z]{16,64}$/, 'a webhook delivery id (whd_…)')
    .optional()
    .describe("The page before's next: the deliveries older than this one."),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(DELIVERIES_PAGE_MAX)
    .default(DELIVERIES_PAGE_MAX)
    .describe(`Page size, at most ${DELIVERIES_PAGE_MAX}.`),
});

const DeliveriesPage = WebhookDeliveryList.extend({
  next: z
    .string()
    .nullable()
    .describe(
      'Pass as after for the next (older) page: the last delivery of this page, or the after sent when it is empty; null only when there is nothing at all.',
    ),
  has_more: z.boolean().describe('Whether older deliveries follow.'),
});
const security = 'apiKey';

interface WebhookRouteDeps {
  sql: Sql;
  worker: WebhookWorker;
  policy: TargetPolicy;
  now: () => Date;
  secrets: SecretBox;
}

/**
 * `/v1/webhook-endpoints` and `/v1/webhook-deliveries`: where the account's events are posted, a
 * test event on request, and the record of every delivery and attempt (30 days). An endpoint
 * belongs to the key's environment and receives only that environment's events.
 */
export function addWebhookRoutes(routes: ApiRoutes<EngineState>, deps: WebhookRouteDeps): void {
  addEndpointListRoutes(routes, deps);
  addEndpointRoutes(routes, deps);
  addDeliveryRoutes(routes, deps);
}

/** `/v1/webhook-endpoints`: a new endpoint, and the environment's endpoints. */
function addEndpointListRoutes(routes: ApiRoutes<EngineState>, { sql, policy, now, secrets }: WebhookRouteDeps): void {
  routes
    .add(
      {
        method: 'post',
        path: '/v1/webhook-endpoints',
        tag,
        security,
        summary: 'Add a webhook endpoint',
        description:
          "Events recorded from now on are posted to the URL, signed with the secret in this answer (shown only now). Live endpoints must use https (the operator's own endpoints listed in the engine's WEBHOOK_ALLOWED_PRIVATE_ORIGINS may use http); sandbox ones may use http. A URL whose host is or resolves to a private address, names this machine (localhost., ip6-localhost), has one label, or is a wildcard DNS name (*.nip.io) is refused, unless it is at or under one of the operator's listed origins and paths.",
        body: CreateWebhookEndpointRequest,
        responses: { 201: { description: 'The endpoint and its signing secret.', schema: CreatedWebhookEndpoint } },
      },
      async (ctx, { body }) => {
        const { caller } = ctx.state;
        const url = checkEndpointUrl(body.url, caller.environment, policy);
        checkEndpointHost(url, policy);
        await checkEndpointAddress(url, policy);
        const { endpoint, secret } = await insertEndpoint(
          sql,
          caller,
          { url: url.href, eventTypes: body.event_types, description: body.description ?? '' },
          now(),
          secrets,
        );
        ctx.status = 201;
        ctx.body = { ...endpoint, secret } satisfies CreatedWebhookEndpoint;
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/webhook-endpoints',
        tag,
        security,
        summary: "The environment's webhook endpoints",
        responses: {
          200: { description: 'Every endpoint, oldest first, without secrets.', schema: WebhookEndpointList },
        },
      },
      async (ctx) => {
        ctx.body = { endpoints: await listEndpoints(sql, ctx.state.caller) };
      },
    );
}

/** `/v1/webhook-endpoints/{id}`: one endpoint, read, removed, or switched on again. */
function addEndpointRoutes(routes: ApiRoutes<EngineState>, { sql, now }: WebhookRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/webhook-endpoints/:id',
        tag,
        security,
        summary: 'One webhook endpoint',
        params: WebhookEndpointParams,
        responses: { 200: { description: 'The endpoint.', schema: WebhookEndpoint } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await findEndpoint(sql, ctx.state.caller, params.id);
      },
    )
    .add(
      {
        method: 'delete',
        path: '/v1/webhook-endpoints/:id',
        tag,
        security,
        summary: 'Remove a webhook endpoint',
        params: WebhookEndpointParams,
        responses: { 204: { description: 'Removed; nothing more is sent to it.' } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        await deleteEndpoint(sql, ctx.state.caller, params.id, now());
        ctx.status = 204;
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/webhook-endpoints/:id/enable',
        tag,
        security,
        summary: 'Switch an endpoint on again',
        description:
          'An endpoint whose every delivery failed for 5 days is switched off; once it is fixed, this switches it on. It goes on from the first event it did not get.',
        params: WebhookEndpointParams,
        responses: { 200: { description: 'The endpoint, switched on.', schema: WebhookEndpoint } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await enableEndpoint(sql, ctx.state.caller, params.id);
      },
    );
}

/** An endpoint's ping and its deliveries, and a delivery sent again. */
function addDeliveryRoutes(routes: ApiRoutes<EngineState>, { sql, worker, now }: WebhookRouteDeps): void {
  routes
    .add(
      {
        method: 'post',
        path: '/v1/webhook-endpoints/:id/ping',
        tag,
        security,
        summary: 'Post a test event now',
        description:
          'Posts an event of type ping at once and answers with the delivery and its first attempt. A switched-off endpoint is pinged too, so a repair can be tested before switching it on; it stays off. Failed pings are retried like any delivery, also while the endpoint is off.',
        params: WebhookEndpointParams,
        responses: { 201: { description: 'The ping delivery, after its first attempt.', schema: WebhookDelivery } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        const deliveryId = await insertPing(sql, ctx.state.caller, params.id, now());
        await worker.sendNow(deliveryId);
        ctx.status = 201;
        ctx.body = await findOwnDelivery(sql, ctx.state.caller, params.id, deliveryId);
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/webhook-endpoints/:id/deliveries',
        tag,
        security,
        summary: "An endpoint's deliveries and their attempts",
        description:
          'Newest first, kept for 30 days; a page of limit (at most 100, by default 100). Pass next as after to read older ones while has_more is true; no offsets. Each attempt has its time, the HTTP status (null without an answer) and the error.',
        params: WebhookEndpointParams,
        query: DeliveriesPageQuery,
        responses: { 200: { description: 'A page of deliveries.', schema: DeliveriesPage } },
        errors: ['not_found'],
      },
      async (ctx, { params, query }) => {
        ctx.body = await pageOwnDeliveries(sql, ctx.state.caller, params.id, query);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/webhook-deliveries/:id/resend',
        tag,
        security,
        summary: 'Send a delivery again',
        description:
          'A failed (or delivered) delivery starts a new round of up to 8 attempts, the first one at once. A delivery still being attempted is a 409.',
        params: WebhookDeliveryParams,
        responses: { 202: { description: 'Queued for sending.' } },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params }) => {
        await resendOwnDelivery(sql, ctx.state.caller, params.id, now());
        void worker.tick();
        ctx.status = 202;
      },
    );
}
