import { newId, ParleyError } from '../../shared/index.ts';
import {
  enableEndpointRow,
  insertDeliveries,
  listDeliveries,
  resendDelivery,
  type ApiRoutes,
  type Queryable,
  type Sql,
  type DeliveryRecord,
  type SecretBox,
  type TargetPolicy,
  type WebhookWorker,
} from '../../shared/server/index.ts';
import { changesBetween, writeAudit } from './store/audit-log.ts';
import { findAccount } from './store/accounts.ts';
import {
  DESK_EVENT_TYPES,
  deleteDeskWebhook,
  findDeskWebhook,
  insertDeskWebhook,
  listDeskWebhooks,
  updateDeskWebhook,
  type DeskWebhookRecord,
} from './store/desk-webhooks.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import { deskReceiverUrl } from './desk-webhooks.ts';
import { AccountParams } from '../../shared/schemas/helpdesk/index.ts';
import {
  DeskWebhookDelivery,
  DeskWebhookDeliveryList,
  Webhook,
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

const shape = (webhook: DeskWebhookRecord, secret?: string): Webhook => ({
  id: webhook.number,
  account_id: webhook.accountId,
  name: webhook.name,
  url: webhook.url,
  subscriptions: webhook.eventTypes ?? [...DESK_EVENT_TYPES],
  enabled: webhook.enabled,
  disabled_reason: webhook.disabledReason,
  ...(secret ? { secret } : {}),
});

/**
 * The account's webhooks (administrators; Chatwoot's `/webhooks`): where the helpdesk's events are
 * posted, signed `X-Desk-*`, with the same retries, switch-off and address rules as the engine's.
 * Beyond Chatwoot: a test `ping`, the deliveries with their attempts (30 days), and resending one.
 */
export function addWebhookRoutes(
  routes: ApiRoutes<ApplicationState>,
  {
    sql,
    worker,
    policy,
    now,
    secrets,
  }: { sql: Sql; worker: WebhookWorker; policy: TargetPolicy; now: () => Date; secrets: SecretBox },
): void {
  const administrator = (ctx: { state: ApplicationState }, accountId: number) =>
    requireStanding(sql, ctx.state.caller, accountId, 'administrator');
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
        auditableType: 'Webhook',
        auditableId: id,
        action,
        changes: changesBetween(before as Record<string, unknown>, after as Record<string, unknown>),
      },
      now(),
    );
  const receiver = (raw: string) => deskReceiverUrl(raw, policy, 'url');

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
        await administrator(ctx, params.account_id);
        ctx.body = {
          payload: { webhooks: (await listDeskWebhooks(sql, params.account_id)).map((webhook) => shape(webhook)) },
        };
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
        await administrator(ctx, params.account_id);
        const fields = 'webhook' in body ? body.webhook : body;
        const url = receiver(fields.url);
        ctx.body = await sql.transaction(async (tx) => {
          const { webhook, secret } = await insertDeskWebhook(
            tx,
            params.account_id,
            { url, name: fields.name, eventTypes: fields.subscriptions },
            now(),
            secrets,
          );
          await audit(tx, params.account_id, ctx.state, webhook.number, 'create', {}, shape(webhook));
          return { payload: { webhook: shape(webhook, secret) } };
        });
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
        await administrator(ctx, params.account_id);
        const before = await findDeskWebhook(sql, params.account_id, params.webhook_id);
        const fields = 'webhook' in body ? body.webhook : body;
        const url = fields.url === undefined ? undefined : receiver(fields.url);
        ctx.body = await sql.transaction(async (tx) => {
          if (fields.enabled) await enableEndpointRow(tx, before.id);
          const after = await updateDeskWebhook(tx, before.id, {
            url,
            name: fields.name,
            eventTypes: fields.subscriptions,
          });
          await audit(tx, params.account_id, ctx.state, after.number, 'update', shape(before), shape(after));
          return { payload: { webhook: shape(after) } };
        });
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
        await administrator(ctx, params.account_id);
        const before = await findDeskWebhook(sql, params.account_id, params.webhook_id);
        await sql.transaction(async (tx) => {
          await deleteDeskWebhook(tx, before.id);
          await audit(tx, params.account_id, ctx.state, before.number, 'destroy', shape(before), {});
        });
        ctx.body = '';
      },
    )
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
        await administrator(ctx, params.account_id);
        const webhook = await findDeskWebhook(sql, params.account_id, params.webhook_id);
        const account = await findAccount(sql, params.account_id);
        const at = now();
        const body = JSON.stringify({
          event: 'ping',
          webhook: { id: webhook.number },
          account: { id: params.account_id, name: account?.name ?? '' },
          created_at: at.toISOString(),
        });
        const [deliveryId] = await insertDeliveries(
          sql,
          [{ endpointId: webhook.id, eventId: newId('event'), eventType: 'ping', eventSeq: 0, body }],
          at,
        );
        await worker.sendNow(deliveryId!);
        const [{ endpoint_id: _, ...delivery }] = (await listDeliveries(sql, webhook.id, { only: deliveryId })) as [
          DeliveryRecord,
        ];
        ctx.body = { ...delivery, webhook_id: webhook.number };
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
        await administrator(ctx, params.account_id);
        const webhook = await findDeskWebhook(sql, params.account_id, params.webhook_id);
        ctx.body = {
          payload: (await listDeliveries(sql, webhook.id, { status: query.status, page: query.page })).map(
            ({ endpoint_id: _, ...delivery }) => ({ ...delivery, webhook_id: webhook.number }),
          ),
        };
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
        await administrator(ctx, params.account_id);
        const webhook = await findDeskWebhook(sql, params.account_id, params.webhook_id);
        await resendDelivery(sql, webhook.id, params.delivery_id, now());
        void worker.tick();
        ctx.status = 202;
      },
    );
}
