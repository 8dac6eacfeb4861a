import { z } from 'zod';
import { Attributes, Email, IdParam, Name } from './fields.ts';
import { DeskConversation } from './conversations.ts';

// Contacts for people (Chatwoot's Application API contacts): read, changed, searched, their conversations.

export const ContactParams = z.strictObject({ account_id: IdParam, id: IdParam });
/** E.164, as Chatwoot checks a contact's phone number. */
const PhoneNumber = z.string().regex(/^\+[1-9]\d{1,14}$/, 'a number in E.164 form, such as +4930123456');
export const ContactUpdate = z.strictObject({
  name: Name.optional(),
  email: Email.nullable().optional(),
  phone_number: PhoneNumber.nullable().optional(),
  /** Replaces the contact's custom attributes. */
  custom_attributes: Attributes.optional(),
});
export const DeskContact = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  identifier: z.string().nullable(),
  custom_attributes: z.record(z.string(), z.unknown()),
  inbox_id: z.number().int(),
  created_at: z.number().int(),
});
export type DeskContact = z.infer<typeof DeskContact>;
export const DeskContactList = z.object({ meta: z.object({ count: z.number().int() }), payload: z.array(DeskContact) });
export const ContactConversations = z.object({ payload: z.array(DeskConversation) });
