import { z } from 'zod';
import { DeskAttachment } from '../attachment.ts';
import { Attributes, IdParam, Name } from './fields.ts';

// Canned responses (Chatwoot's shape), inserted in replies by their short code.
export const CannedResponseParams = z.strictObject({ account_id: IdParam, id: IdParam });
const ShortCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\w-]+$/, 'letters, digits, _ or - (it follows a / in the console)');
export const CannedResponseCreate = z.strictObject({
  short_code: ShortCode,
  content: z.string().trim().min(1).max(10_000),
});
export const CannedResponseUpdate = CannedResponseCreate.partial();
export const CannedResponseQuery = z.strictObject({ search: z.string().max(100).optional() });
export const CannedResponse = z.object({
  id: z.number().int(),
  account_id: z.number().int(),
  short_code: z.string(),
  content: z.string(),
});
// Named: a component of the OpenAPI documents (shared/server/openapi-components.ts).
z.globalRegistry.add(CannedResponse, { id: 'CannedResponse' });
export type CannedResponse = z.infer<typeof CannedResponse>;

// Conversations for people (Application API, Chatwoot-shaped).
export const ConversationParams = z.strictObject({ account_id: IdParam, conversation_id: IdParam });
/**
 * A conversation's status as people see it (Chatwoot's): `pending` while the AI answers it, `open`
 * once people answer it (handed over), `snoozed` while a person's snooze lasts, `resolved`.
 */
export const DeskStatus = z.enum(['open', 'pending', 'snoozed', 'resolved']);
export type DeskStatus = z.infer<typeof DeskStatus>;
export const ConversationListQuery = z.strictObject({
  /** `all`: every conversation, those people answer first. */
  status: z.enum([...DeskStatus.options, 'all']).default('open'),
  assignee_type: z.enum(['me', 'unassigned', 'all']).default('all'),
  inbox_id: IdParam.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  /** The order: people's first then newest activity (default), newest activity, or longest waiting first. */
  sort_by: z.enum(['default', 'latest', 'waiting_since']).default('default'),
  /** The next page after this cursor (meta.next_cursor of the page before); replaces `page`. */
  after: z.string().max(200).optional(),
  /** Only conversations with every one of these labels (titles, comma-separated). */
  labels: z.string().max(1000).optional(),
  'labels[]': z.string().max(1000).optional(),
  /** Only conversations of this team. */
  team_id: IdParam.optional(),
});
export const DeskMessageCreate = z.strictObject({
  content: z.string().trim().min(1).max(150_000),
  /** A note for the people answering, never shown to the customer. */
  private: z.boolean().default(false),
  /** Makes a retry safe: the same echo_id again gives the same message. */
  echo_id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w.:-]+$/, 'letters, digits, _ . : -')
    .optional(),
});
/** Chatwoot's assignments: a person, a team, or both (null: none); at least one of them. */
export const AssignmentCreate = z
  .strictObject({ assignee_id: IdParam.nullable().optional(), team_id: IdParam.nullable().optional() })
  .refine((body) => body.assignee_id !== undefined || body.team_id !== undefined, {
    message: 'give assignee_id, team_id or both',
    path: ['assignee_id'],
  });
/** Unix seconds up to the year 9999. */
const UnixTime = z.number().int().min(0).max(253_402_300_799);
/**
 * `POST …/toggle_status`, as Chatwoot's: the status wanted (without one: resolved, or open when it is
 * resolved), and for `snoozed` until when (Unix seconds; absent or null: until the customer writes).
 */
export const StatusChange = z
  .strictObject({ status: DeskStatus.optional(), snoozed_until: UnixTime.nullable().optional() })
  .refine((change) => change.snoozed_until === undefined || change.status === 'snoozed', {
    message: 'snoozed_until goes with status snoozed only',
    path: ['snoozed_until'],
  });

/**
 * What a message carried beside its words (Chatwoot's `content_attributes`): the AI's suggestion
 * buttons (`items` with a value) or its card (`card`, and as `items` with a description, as the
 * Client API shows it), and what the customer answered (`submitted_values`; for the survey
 * question, `csat_survey_response` with `rating` 1 to 5 and `feedback_message`).
 */
export const DeskContentAttributes = z.object({
  items: z
    .array(z.object({ title: z.string(), value: z.string().optional(), description: z.string().optional() }))
    .optional(),
  card: z.object({ title: z.string(), fields: z.array(z.object({ label: z.string(), value: z.string() })) }).optional(),
  submitted_values: z.unknown().optional(),
});
export type DeskContentAttributes = z.infer<typeof DeskContentAttributes>;

export const DeskMessage = z.object({
  id: z.number().int(),
  content: z.string(),
  message_type: z
    .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)])
    .describe('0 incoming, 1 outgoing, 2 activity, 3 template'),
  content_type: z.string(),
  private: z.boolean(),
  created_at: z.number().int(),
  conversation_id: z.number().int(),
  /** Who wrote it; null for notices. The AI's own replies are the agent bot `AI assistant` with id null. */
  sender: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('contact'), name: z.string() }),
      z.object({
        type: z.literal('user'),
        /** null when the person is not known here (answered elsewhere, or since removed). */
        id: z.number().int().nullable(),
        name: z.string(),
        available_name: z.string().optional(),
      }),
      z.object({ type: z.literal('agent_bot'), id: z.number().int().nullable(), name: z.string() }),
    ])
    .nullable(),
  content_attributes: DeskContentAttributes,
  /** A customer's files (Chatwoot's shape), only on messages with some; `data_url` takes the same token. */
  attachments: z.array(DeskAttachment).optional(),
});
// Named: a component of the OpenAPI documents (shared/server/openapi-components.ts).
z.globalRegistry.add(DeskMessage, { id: 'Message' });
export type DeskMessage = z.infer<typeof DeskMessage>;

export const DeskConversation = z.object({
  id: z.number().int(),
  uuid: z.string(),
  account_id: z.number().int(),
  inbox_id: z.number().int(),
  status: DeskStatus,
  /** Who answers now: the AI, or people (after a handover); a snoozed conversation keeps its own. */
  handled_by: z.enum(['ai', 'human']),
  /** When a snooze ends (Unix seconds); null when not snoozed, or snoozed until the customer writes. */
  snoozed_until: z.number().int().nullable(),
  assignee_id: z.number().int().nullable(),
  /** The person it is assigned to, with their name (null: nobody). */
  assignee: z.object({ id: z.number().int(), name: z.string(), available_name: z.string() }).nullable(),
  /** The team it is assigned to (null: none). */
  team_id: z.number().int().nullable(),
  team: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** The titles of its labels, in order. */
  labels: z.array(z.string()),
  /** What a list row calls the customer: their name, else their e-mail, else "Visitor <short id>". */
  display_name: z.string(),
  /** The last message the customer or an answer wrote (notes and notices left out), its first line only. */
  last_non_activity_message: z
    .object({ id: z.number().int(), content: z.string(), message_type: z.number().int(), created_at: z.number().int() })
    .nullable(),
  /** Since when the customer waits for an answer (Unix seconds): their first message after the last answer; null when answered. */
  waiting_since: z.number().int().nullable(),
  contact: z.object({
    /** The contact of the Application API's contacts routes (null until the customer has one). */
    id: z.number().int().nullable(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    /** The customer's reference (`vis_…` for a visitor, the site's own id for a verified customer, `ctc_…` for a Client API contact). */
    customer_ref: z.string(),
    /** A Client API contact's identifier and custom attributes. */
    identifier: z.string().nullable(),
    custom_attributes: z.record(z.string(), z.unknown()),
    /**
     * What a widget visitor's browser told (Chatwoot's contact `additional_attributes`): its IANA time
     * zone, the place that names (`city`), and the browser's name from its User-Agent.
     */
    additional_attributes: z.object({
      time_zone: z.string().optional(),
      city: z.string().optional(),
      browser: z.string().optional(),
    }),
  }),
  /** The page the customer was on when the conversation started. */
  page_url: z.string().nullable(),
  /** The customer's messages since people last read it (POST …/update_last_seen). */
  unread_count: z.number().int(),
  /** When people last read it (Unix seconds). */
  agent_last_seen_at: z.number().int().nullable(),
  /** The last message the customer has read. */
  contact_last_read_id: z.number().int(),
  last_activity_at: z.number().int(),
  created_at: z.number().int(),
});
// Named: a component of the OpenAPI documents (shared/server/openapi-components.ts).
z.globalRegistry.add(DeskConversation, { id: 'Conversation' });
export type DeskConversation = z.infer<typeof DeskConversation>;

export const DeskConversationList = z.object({
  data: z.object({
    meta: z.object({
      mine_count: z.number().int(),
      unassigned_count: z.number().int(),
      all_count: z.number().int(),
      /** Give it as `after` for the next page; null on the last page. */
      next_cursor: z.string().nullable(),
    }),
    payload: z.array(DeskConversation),
  }),
});
export type DeskConversationList = z.infer<typeof DeskConversationList>;
