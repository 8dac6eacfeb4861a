import { z } from 'zod';
import { MessageText, PublicAttachment } from '../../shared/index.ts';

/** Request bodies of the helpdesk Client API, as Chatwoot's clients send them. */

const Identifier = z.string().trim().min(1).max(255);

/** At most this much custom data on a contact or a conversation, as JSON (a request's and a contact's total after merging). */
export const CUSTOM_ATTRIBUTES_MAX_BYTES = 16 * 1024;
const CustomAttributes = z
  .record(z.string(), z.unknown())
  .refine(
    (value) => Buffer.byteLength(JSON.stringify(value)) <= CUSTOM_ATTRIBUTES_MAX_BYTES,
    `at most ${CUSTOM_ATTRIBUTES_MAX_BYTES / 1024} KB of custom attributes (as JSON)`,
  );

export const ContactPayload = z.strictObject({
  identifier: Identifier.optional(),
  identifier_hash: z.string().max(128).optional(),
  email: z.email().max(320).optional(),
  name: z.string().trim().min(1).max(255).optional(),
  phone_number: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{4,32}$/, 'a phone number')
    .optional(),
  avatar_url: z.url().max(2000).optional(),
  custom_attributes: CustomAttributes.optional(),
  /** A client may choose the contact's identifier itself (Chatwoot accepts it, undocumented). */
  source_id: z
    .string()
    .regex(/^[\w-]{8,128}$/, '8 to 128 letters, digits, _ or -')
    .optional(),
});
export type ContactPayload = z.infer<typeof ContactPayload>;

export const IdentityQuery = z.strictObject({
  identifier: Identifier.optional(),
  identifier_hash: z.string().max(128).optional(),
});

export const ConversationPayload = z.strictObject({
  custom_attributes: CustomAttributes.optional(),
});

export const TypingQuery = z.strictObject({ typing_status: z.enum(['on', 'off']).optional() });
export const TypingPayload = z.strictObject({ typing_status: z.enum(['on', 'off']).optional() });

export const MessagePayload = z.strictObject({
  content: MessageText,
  echo_id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w.:-]+$/, 'letters, digits, _ . : -')
    .optional(),
});

/** The text fields of a message sent as multipart/form-data with `attachments[]` (Chatwoot's form). */
export const MessageFormFields = z.strictObject({
  content: z.string().trim().max(150_000).optional(),
  echo_id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w.:-]+$/, 'letters, digits, _ . : -')
    .optional(),
});

export const MessagesQuery = z.strictObject({
  before: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe('The id of a message: the 20 messages before it (the oldest a page or a conversation showed)'),
});

export const ConversationsQuery = z.strictObject({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe('From 1 (the default): page 1 is the newest 25 conversations, page 2 the 25 before them'),
});

export const CsatResponse = z.strictObject({
  rating: z.number().int().min(1).max(5),
  feedback_message: z.string().max(2000).optional(),
});

export const MessageUpdatePayload = z.strictObject({
  submitted_values: z.union([
    z
      .array(
        z.strictObject({
          name: z.string().max(255).optional(),
          title: z.string().max(500).optional(),
          value: z.string().max(2000).optional(),
        }),
      )
      .max(50),
    z.strictObject({ csat_survey_response: CsatResponse }),
  ]),
});
export type MessageUpdatePayload = z.infer<typeof MessageUpdatePayload>;

export const CsatUpdatePayload = z.strictObject({
  message: z.strictObject({ submitted_values: z.strictObject({ csat_survey_response: CsatResponse }) }),
});

/**
 * Answers of the helpdesk Client API, Chatwoot's views (shared/reference/chatwoot-client-api.md):
 * the shapes in `shapes.ts` are typed by these, and the OpenAPI document describes them.
 */

const EpochSeconds = z.number().int().describe('Unix seconds');

export const PublicInbox = z
  .object({
    identifier: z.string(),
    name: z.string(),
    timezone: z.string(),
    working_hours: z.array(
      z.object({
        day_of_week: z.number().int().min(0).max(6),
        closed_all_day: z.boolean(),
        open_hour: z.number().int().nullable(),
        open_minutes: z.number().int().nullable(),
        close_hour: z.number().int().nullable(),
        close_minutes: z.number().int().nullable(),
        open_all_day: z.boolean(),
      }),
    ),
    working_hours_enabled: z.boolean(),
    csat_survey_enabled: z.boolean(),
    greeting_enabled: z.boolean(),
    identity_validation_enabled: z.boolean(),
  })
  .meta({ id: 'PublicInbox' });
export type PublicInbox = z.infer<typeof PublicInbox>;

export const PublicContact = z
  .object({
    id: z.number().int().describe("The person's id, shared by the contacts of one person"),
    source_id: z.string().describe('The contact identifier: with the inbox identifier, the capability'),
    pubsub_token: z.string().describe('For the realtime namespace /client'),
    name: z.string(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
  })
  .meta({ id: 'PublicContact' });
export type PublicContact = z.infer<typeof PublicContact>;

export const PublicContactRecord = PublicContact.extend({
  identifier: z.string().nullable(),
  custom_attributes: z.record(z.string(), z.unknown()),
  additional_attributes: z.record(z.string(), z.unknown()),
  created_at: EpochSeconds,
  updated_at: EpochSeconds,
}).meta({ id: 'PublicContactRecord' });
export type PublicContactRecord = z.infer<typeof PublicContactRecord>;

/** Who wrote a message: the contact, the AI (an agent bot) or a person (a user). Other fields follow Chatwoot's. */
const Sender = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(['contact', 'agent_bot', 'user']),
});

export const PublicMessage = z
  .object({
    id: z.number().int(),
    content: z.string(),
    message_type: z
      .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)])
      .describe('0 incoming, 1 outgoing, 2 activity, 3 template (the survey question)'),
    content_type: z.string().describe('text, input_select (choices), cards, input_csat'),
    content_attributes: z.record(z.string(), z.unknown()),
    created_at: EpochSeconds,
    conversation_id: z.number().int(),
    /** Only on messages with files, as Chatwoot's. */
    attachments: z.array(PublicAttachment).optional(),
    sender: Sender.optional(),
  })
  .meta({ id: 'PublicMessage' });
export type PublicMessage = z.infer<typeof PublicMessage>;

export const PublicConversation = z
  .object({
    id: z.number().int(),
    uuid: z.string(),
    inbox_id: z.number().int(),
    contact_last_seen_at: EpochSeconds,
    status: z.enum(['open', 'resolved']),
    agent_last_seen_at: EpochSeconds,
    messages: z
      .array(PublicMessage)
      .max(100)
      .describe('The newest 100 messages, oldest first; older ones from GET …/messages?before=<id of the first>'),
    contact: PublicContactRecord,
  })
  .meta({ id: 'PublicConversation' });
export type PublicConversation = z.infer<typeof PublicConversation>;

export const CsatSurvey = z
  .object({
    id: z.number().int().nullable(),
    csat_survey_response: z
      .object({
        rating: z.number().int(),
        feedback_message: z.string(),
        conversation_id: z.number().int(),
        created_at: z.string().optional(),
      })
      .nullable(),
    display_type: z.literal('star'),
    content: z.string(),
    inbox_avatar_url: z.string(),
    inbox_name: z.string(),
    locale: z.string(),
    conversation_id: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: 'CsatSurvey' });
export type CsatSurvey = z.infer<typeof CsatSurvey>;
