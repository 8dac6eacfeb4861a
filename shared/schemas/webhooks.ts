import { z } from 'zod';
import { ENVIRONMENTS } from '../environment.ts';
import { EVENT_TYPES } from '../events.ts';

/**
 * Webhook endpoints of the AI conversation API (SPEC "Webhook delivery"): where the engine posts
 * each event of the account, signed with the endpoint's secret, at least once.
 */

/** The types an endpoint may subscribe to: every event type but the test event, which is sent only on request. */
const SubscribableType = z.enum(EVENT_TYPES.filter((type) => type !== 'ping') as [string, ...string[]]);

export const CreateWebhookEndpointRequest = z.strictObject({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .describe('Where to post events. Live endpoints must use https; no private addresses.'),
  event_types: z
    .array(SubscribableType)
    .min(1)
    .max(EVENT_TYPES.length)
    .refine((types) => new Set(types).size === types.length, 'each event type once')
    .optional()
    .describe('The event types to send; every type when left out.'),
  description: z.string().trim().max(200).optional(),
});
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

export const WebhookEndpointId = z.string().regex(/^whe_[0-9A-Za-z]{16,64}$/, 'a webhook endpoint id (whe_…)');
export const WebhookEndpointParams = z.strictObject({ id: WebhookEndpointId });
export const WebhookDeliveryParams = z.strictObject({
  id: z.string().regex(/^whd_[0-9A-Za-z]{16,64}$/, 'a webhook delivery id (whd_…)'),
});

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  environment: z.enum(ENVIRONMENTS),
  /** null: every event type. */
  event_types: z.array(z.string()).nullable(),
  description: z.string(),
  enabled: z.boolean(),
  /** Why the endpoint was switched off (after 5 days of failed deliveries), or null. */
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().describe('The signing secret, shown only now.'),
});
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpoint) });

export const WebhookAttempt = z.object({
  at: z.string(),
  /** The receiver's HTTP status, or null when there was no answer. */
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

export const WebhookDelivery = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  next_attempt_at: z.string().nullable(),
  attempts: z.array(WebhookAttempt),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery) });

export const WebhookDeliveriesQuery = z.strictObject({
  status: z.enum(['pending', 'delivered', 'failed']).optional(),
});
