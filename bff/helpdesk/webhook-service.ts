/**
 * An account's webhooks: kept by its administrators (each change audited, the signing secret shown
 * only when made), tested with a ping, and their deliveries listed and sent again.
 */
import type { z } from 'zod';
import { newId } from '../../shared/index.ts';
import {
  enableEndpointRow,
  insertDeliveries,
  listDeliveries,
  resendDelivery,
  type DeliveryRecord,
  type SecretBox,
  type Sql,
  type TargetPolicy,
  type WebhookWorker,
} from '../../shared/server/index.ts';
import { createAuditService } from './audit-service.ts';
import { findAccount } from './store/accounts.ts';
import type { Actor } from './store/audit-log.ts';
import {
  DESK_EVENT_TYPES,
  deleteDeskWebhook,
  findDeskWebhook,
  insertDeskWebhook,
  listDeskWebhooks,
  updateDeskWebhook,
  type DeskWebhookRecord,
} from './store/desk-webhooks.ts';
import { deskReceiverUrl } from './desk-webhooks.ts';
import type { Webhook, WebhookCreate, WebhookDeliveriesQuery, WebhookUpdate } from './webhook-schemas.ts';

export interface WebhookServiceDeps {
  sql: Sql;
  worker: WebhookWorker;
  policy: TargetPolicy;
  now: () => Date;
  secrets: SecretBox;
}

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

/** Posts an event of type ping to the webhook at once, and gives the delivery after its first attempt. */
async function ping({ sql, worker, now }: WebhookServiceDeps, accountId: number, number: number) {
  const webhook = await findDeskWebhook(sql, accountId, number);
  const account = await findAccount(sql, accountId);
  const at = now();
  const body = JSON.stringify({
    event: 'ping',
    webhook: { id: webhook.number },
    account: { id: accountId, name: account?.name ?? '' },
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
  return { ...delivery, webhook_id: webhook.number };
}

export function createWebhookService(deps: WebhookServiceDeps) {
  const { sql, worker, policy, now, secrets } = deps;
  const { record } = createAuditService({ sql, now });
  const receiver = (raw: string) => deskReceiverUrl(raw, policy, 'url');
  const type = 'Webhook';

  return {
    async list(accountId: number) {
      return { payload: { webhooks: (await listDeskWebhooks(sql, accountId)).map((webhook) => shape(webhook)) } };
    },

    async create(accountId: number, actor: Actor, body: z.infer<typeof WebhookCreate>) {
      const fields = 'webhook' in body ? body.webhook : body;
      const url = receiver(fields.url);
      return sql.transaction(async (tx) => {
        const made = { url, name: fields.name, eventTypes: fields.subscriptions };
        const { webhook, secret } = await insertDeskWebhook(tx, accountId, made, now(), secrets);
        const after = shape(webhook);
        await record(tx, { accountId, actor, type, id: webhook.number, action: 'create', before: {}, after });
        return { payload: { webhook: shape(webhook, secret) } };
      });
    },

    /** Changes the webhook; `enabled: true` switches it on again. */
    async update(accountId: number, actor: Actor, number: number, body: z.infer<typeof WebhookUpdate>) {
      const before = await findDeskWebhook(sql, accountId, number);
      const fields = 'webhook' in body ? body.webhook : body;
      const url = fields.url === undefined ? undefined : receiver(fields.url);
      return sql.transaction(async (tx) => {
        if (fields.enabled) await enableEndpointRow(tx, before.id);
        const after = await updateDeskWebhook(tx, before.id, {
          url,
          name: fields.name,
          eventTypes: fields.subscriptions,
        });
        const shown = { before: shape(before), after: shape(after) };
        await record(tx, { accountId, actor, type, id: after.number, action: 'update', ...shown });
        return { payload: { webhook: shown.after } };
      });
    },

    async remove(accountId: number, actor: Actor, number: number): Promise<void> {
      const before = await findDeskWebhook(sql, accountId, number);
      await sql.transaction(async (tx) => {
        await deleteDeskWebhook(tx, before.id);
        const shown = { before: shape(before), after: {} };
        await record(tx, { accountId, actor, type, id: before.number, action: 'destroy', ...shown });
      });
    },

    ping: (accountId: number, number: number) => ping(deps, accountId, number),

    async deliveries(accountId: number, number: number, query: z.infer<typeof WebhookDeliveriesQuery>) {
      const webhook = await findDeskWebhook(sql, accountId, number);
      return {
        payload: (await listDeliveries(sql, webhook.id, { status: query.status, page: query.page })).map(
          ({ endpoint_id: _, ...delivery }) => ({ ...delivery, webhook_id: webhook.number }),
        ),
      };
    },

    /** Starts a new round of attempts for the delivery, the first one at once. */
    async resend(accountId: number, number: number, deliveryId: string): Promise<void> {
      const webhook = await findDeskWebhook(sql, accountId, number);
      await resendDelivery(sql, webhook.id, deliveryId, now());
      void worker.tick();
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
