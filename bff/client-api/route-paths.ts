/**
 * The Client API's paths and their parameters, shared by its routers, and what the path's
 * identifiers load into `ctx.state` before a handler runs (`routes.ts` loads them). Each router
 * names the parts of the state it reads as its type parameter's bound, so that it need not import
 * `routes.ts`, which composes it.
 */
import { z } from 'zod';
import type { ClientInbox } from '../store/inboxes.ts';
import type { ContactRecord } from './store/contacts.ts';

export const tag = 'Client API';
export const base = '/public/api/v1/inboxes/:inbox_identifier';
export const InboxIdentifier = z.string().max(100);
export const ContactIdentifier = z.string().max(128);
export const inboxParams = z.strictObject({ inbox_identifier: InboxIdentifier });
export const contactParams = inboxParams.extend({ contact_identifier: ContactIdentifier });
export const conversationParams = contactParams.extend({ conversation_id: z.string().max(20) });
export const messageParams = conversationParams.extend({ message_id: z.string().max(20) });
export const errors = ['not_found', 'unauthorized', 'account_suspended', 'rate_limited'] as const;

/** The client's address: the limits count by it. */
export interface AddressState {
  address: string;
}

/** The inbox `:inbox_identifier` names. */
export interface InboxState {
  inbox: ClientInbox;
}

/** The contact `:contact_identifier` names, in the inbox of the path. */
export interface ContactState extends InboxState {
  contact: ContactRecord;
}
