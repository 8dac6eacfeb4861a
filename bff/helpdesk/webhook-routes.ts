import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import { AccountParams } from '../../shared/schemas/helpdesk/index.ts';
import { createWebhookService, type WebhookService, type WebhookServiceDeps } from './webhook-service.ts';
import {
  DeskWebhookDelivery,
  DeskWebhookDeliveryList,
  WebhookAnswer,
  WebhookCreate,
  WebhookDeliveriesQuery,
  WebhookDeliveryParams,
  WebhookListAnswer,
  WebhookParams,
  WebhookUpdate,
} from './webhook-schemas.ts';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id/webhooks';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;

const administrator = (sql: Sql, ctx: { state: ApplicationState }, accountId: number) =>
  requireStanding(sql, ctx.state.caller, accountId, 'administrator');

/** Listing, adding, changing and removing the account's webhooks. */
function addWebhookSettingsRoutes(routes: ApiRoutes<ApplicationState>, webhooks: WebhookService, sql: Sql): void {
  routes
    .add(
      {
        method: 'get',
        path: base,
        tag,
        security,
        summary: "The account's webhooks (administrators)",
        params: AccountParams,
        responses: { 200: { description: 'Every webhook, without secrets.', schema: WebhookListAnswer } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await webhooks.list(params.account_id);
      },
    )
    .add(
      {
        method: 'post',
        path: base,
        tag,
        security,
        summary: 'Add a webhook (administrators)',
        description:
          'Events from now on are posted to the URL with X-Desk-Timestamp and X-Desk-Signature (sha256= HMAC of "<timestamp>.<body>" with the secret in this answer, shown only now). The URL uses https (or is one of the operator\'s allowed own origins) and is never a private address.',
        params: AccountParams,
        body: WebhookCreate,
        responses: { 200: { description: 'The webhook with its signing secret.', schema: WebhookAnswer } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await webhooks.create(params.account_id, ctx.state.actor, body);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/:webhook_id`,
        tag,
        security,
        summary: 'Change a webhook, or switch it on again (administrators)',
        params: WebhookParams,
        body: WebhookUpdate,
        responses: { 200: { description: 'The webhook.', schema: WebhookAnswer } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await webhooks.update(params.account_id, ctx.state.actor, params.webhook_id, body);
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/:webhook_id`,
        tag,
        security,
        summary: 'Remove a webhook (administrators)',
        params: WebhookParams,
        responses: { 200: { description: 'Done (empty body); nothing more is sent to it.' } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await administrator(sql, ctx, params.account_id);
        await webhooks.remove(params.account_id, ctx.state.actor, params.webhook_id);
        ctx.body = '';
      },
    );
}

/** Testing a webhook, its deliveries, and sending one again. */
function addWebhookDeliveryRoutes(routes: ApiRoutes<ApplicationState>, webhooks: WebhookService, sql: Sql): void {
  routes
    .add(
      {
        method: 'post',
        path: `${base}/:webhook_id/ping`,
        tag,
        security,
        summary: 'Post a test event now (administrators)',
        description:
          'Posts an event of type ping at once, even to a switched-off webhook (to test a repaired receiver), and answers with the delivery after its first attempt.',
        params: WebhookParams,
        responses: { 200: { description: 'The ping delivery, after its first attempt.', schema: DeskWebhookDelivery } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await webhooks.ping(params.account_id, params.webhook_id);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/:webhook_id/deliveries`,
        tag,
        security,
        summary: "A webhook's deliveries and their attempts (administrators)",
        description:
          'Newest first, 100 a page (`page`, from 1; an empty page is past the last); kept for 30 days. Each attempt has its time, the HTTP status (null without an answer) and the error.',
        params: WebhookParams,
        query: WebhookDeliveriesQuery,
        responses: { 200: { description: 'The deliveries.', schema: DeskWebhookDeliveryList } },
        errors: [...errors],
      },
      async (ctx, { params, query }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await webhooks.deliveries(params.account_id, params.webhook_id, query);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/:webhook_id/deliveries/:delivery_id/resend`,
        tag,
        security,
        summary: 'Send a delivery again (administrators)',
        description:
          'A failed (or delivered) delivery starts a new round of up to 8 attempts, the first one at once. One still being attempted is refused.',
        params: WebhookDeliveryParams,
        responses: { 202: { description: 'Queued for sending.' } },
        errors: [...errors, 'invalid_state'],
      },
      async (ctx, { params }) => {
        await administrator(sql, ctx, params.account_id);
        await webhooks.resend(params.account_id, params.webhook_id, params.delivery_id);
        ctx.status = 202;
      },
    );
}

/**
 * The account's webhooks (administrators; Chatwoot's `/webhooks`): where the helpdesk's events are
 * posted, signed `X-Desk-*`, with the same retries, switch-off and address rules as the engine's.
 * Beyond Chatwoot: a test `ping`, the deliveries with their attempts (30 days), and resending one.
 */
export function addWebhookRoutes(routes: ApiRoutes<ApplicationState>, deps: WebhookServiceDeps): void {
  const webhooks = createWebhookService(deps);
  addWebhookSettingsRoutes(routes, webhooks, deps.sql);
  addWebhookDeliveryRoutes(routes, webhooks, deps.sql);
}
