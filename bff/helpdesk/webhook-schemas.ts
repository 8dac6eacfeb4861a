import { z } from 'zod';
import { WebhookDelivery } from '../../shared/index.ts';
import { DESK_EVENT_TYPES } from './store/desk-webhooks.ts';
import { IdParam } from '../../shared/schemas/helpdesk/index.ts';

// The account's webhooks (Application API, Chatwoot-shaped: `{payload: {webhook}}`).
export const WebhookParams = z.strictObject({ account_id: IdParam, webhook_id: IdParam });
export const WebhookDeliveryParams = z.strictObject({
  account_id: IdParam,
  webhook_id: IdParam,
  delivery_id: z.string().regex(/^whd_[0-9A-Za-z]{1,64}$/, 'a delivery id (whd_…)'),
});

const Subscriptions = z
  .array(z.enum(DESK_EVENT_TYPES))
  .max(DESK_EVENT_TYPES.length)
  .describe('The events to send; empty or left out: all of them.');
const WebhookFields = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).max(2000),
  name: z.string().trim().max(255).nullable().optional(),
  subscriptions: Subscriptions.optional(),
});
/** As Chatwoot takes it: the fields at the top, or inside `webhook`. */
export const WebhookCreate = z.union([WebhookFields, z.strictObject({ webhook: WebhookFields })]);
const WebhookChanges = WebhookFields.partial().extend({
  /** `true` switches on a webhook that was switched off after 5 days of failures. */
  enabled: z.literal(true).optional(),
});
export const WebhookUpdate = z.union([WebhookChanges, z.strictObject({ webhook: WebhookChanges })]);
export const WebhookDeliveriesQuery = z.strictObject({
  status: z.enum(['pending', 'delivered', 'failed']).optional(),
  /** Pages of 100, newest first; page 2 holds the 101st to the 200th. */
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const Webhook = z.object({
  id: z.number().int(),
  account_id: z.number().int(),
  name: z.string().nullable(),
  url: z.string(),
  subscriptions: z.array(z.string()),
  /** False once every delivery failed for 5 days; PATCH `{enabled: true}` after fixing the receiver. */
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  /** Only in the answer that made the webhook: deliveries are signed with it (X-Desk-Signature). */
  secret: z.string().optional(),
});
export type Webhook = z.infer<typeof Webhook>;
export const WebhookAnswer = z.object({ payload: z.object({ webhook: Webhook }) });
export const WebhookListAnswer = z.object({ payload: z.object({ webhooks: z.array(Webhook) }) });

/** A delivery as the engine's list shows it, named by the webhook's number instead of an endpoint id. */
export const DeskWebhookDelivery = WebhookDelivery.omit({ endpoint_id: true }).extend({ webhook_id: z.number().int() });
export const DeskWebhookDeliveryList = z.object({ payload: z.array(DeskWebhookDelivery) });
