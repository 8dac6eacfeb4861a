import { z } from 'zod';
import { MessageText } from '../../shared/index.ts';

/** Request bodies of the helpdesk Client API, as Chatwoot's clients send them. */

const Identifier = z.string().trim().min(1).max(255);

export const ContactPayload = z.strictObject({
  identifier: Identifier.optional(),
  identifier_hash: z.string().max(128).optional(),
  email: z.email().max(320).optional(),
  name: z.string().trim().min(1).max(255).optional(),
  phone_number: z.string().trim().regex(/^\+?[0-9 ()-]{4,32}$/, 'a phone number').optional(),
  avatar_url: z.url().max(2000).optional(),
  custom_attributes: z.record(z.string(), z.unknown()).optional(),
  /** A client may choose the contact's identifier itself (Chatwoot accepts it, undocumented). */
  source_id: z.string().regex(/^[\w-]{8,128}$/, '8 to 128 letters, digits, _ or -').optional(),
});
export type ContactPayload = z.infer<typeof ContactPayload>;

export const IdentityQuery = z.strictObject({
  identifier: Identifier.optional(),
  identifier_hash: z.string().max(128).optional(),
});

export const ConversationPayload = z.strictObject({
  custom_attributes: z.record(z.string(), z.unknown()).optional(),
});

export const TypingQuery = z.strictObject({ typing_status: z.enum(['on', 'off']).optional() });
export const TypingPayload = z.strictObject({ typing_status: z.enum(['on', 'off']).optional() });

export const MessagePayload = z.strictObject({
  content: MessageText,
  echo_id: z.string().min(1).max(100).regex(/^[\w.:-]+$/, 'letters, digits, _ . : -').optional(),
});

export const MessagesQuery = z.strictObject({ before: z.coerce.number().int().min(1).optional() });

export const CsatResponse = z.strictObject({
  rating: z.number().int().min(1).max(5),
  feedback_message: z.string().max(2000).optional(),
});

export const MessageUpdatePayload = z.strictObject({
  submitted_values: z.union([
    z.array(z.strictObject({ name: z.string().max(255).optional(), title: z.string().max(500).optional(), value: z.string().max(2000).optional() })).max(50),
    z.strictObject({ csat_survey_response: CsatResponse }),
  ]),
});
export type MessageUpdatePayload = z.infer<typeof MessageUpdatePayload>;

export const CsatUpdatePayload = z.strictObject({ message: z.strictObject({ submitted_values: z.strictObject({ csat_survey_response: CsatResponse }) }) });
