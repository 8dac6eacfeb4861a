/**
 * A Client API contact as the BFF's conversation service sees it: a customer (`ctc_<id>`) of the
 * contact's inbox, so that a custom client and the widget see conversations the same way.
 */
import type { ConversationOwner } from '../store/conversations.ts';
import type { Sender } from '../widget/message-limits.ts';
import type { Customer } from '../widget/sessions.ts';
import { contactCustomerRef, type ContactRecord } from './store/contacts.ts';

// The Client API is a public, production surface: its contacts are live customers.
export const contactOwner = (contact: ContactRecord): ConversationOwner => ({
  inboxId: contact.inboxId,
  customerRef: contactCustomerRef(contact),
  environment: 'live',
});

export const contactCustomer = (contact: ContactRecord): Customer => ({
  ...contactOwner(contact),
  verified: contact.hmacVerified,
});

/** The contact sending from `address` (a limit key): an unproved contact's messages count against it too. */
export const contactSender = (contact: ContactRecord, address: string): Sender => ({
  ...contactCustomer(contact),
  address,
});
