/**
 * A contact's conversations through the Client API: starting one (or keeping the open one of an
 * inbox locked to a single conversation), listing, resolving, typing and reading.
 */
import type { Sql } from '../../shared/server/index.ts';
import type { ClientInbox } from '../store/inboxes.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import { contactCustomer, contactOwner } from './contact-customer.ts';
import { conversationView, findContactConversation } from './conversation-views.ts';
import { CLIENT_API_PAGES } from './limits.ts';
import {
  clientConversations,
  findClientConversationByUuid,
  setContactLastSeen,
  setCustomAttributes,
  type ClientConversationRow,
} from './store/client-views.ts';
import type { ContactRecord } from './store/contacts.ts';

interface ClientConversationServiceDeps {
  sql: Sql;
  conversations: ConversationService;
  /** Where people reach the BFF: attachments' data_url is absolute with it, a path without. */
  publicUrl: string;
  now: () => Date;
}

export function createClientConversationService({ sql, conversations, publicUrl, now }: ClientConversationServiceDeps) {
  const view = (inbox: ClientInbox, contact: ContactRecord, row: ClientConversationRow) =>
    conversationView({ sql, publicUrl }, inbox, contact, row);

  return {
    async createConversation(
      inbox: ClientInbox,
      contact: ContactRecord,
      customAttributes: Record<string, unknown> | undefined,
    ) {
      // Locked to one conversation, the contact keeps its newest while it is open. A resolved one
      // takes no more messages (409), so reusing it would leave the contact stuck for good: a new one starts.
      if (inbox.lockToSingleConversation) {
        const [last] = await clientConversations(sql, contactOwner(contact), { limit: 1 });
        if (last && last.status !== 'resolved') return view(inbox, contact, last);
      }
      const opened = await conversations.open(contactCustomer(contact), {
        name: contact.name,
        email: contact.email ?? undefined,
      });
      if (customAttributes) await setCustomAttributes(sql, opened.id, customAttributes);
      return view(inbox, contact, (await findClientConversationByUuid(sql, opened.id))!);
    },

    /** Page `page` (from 1) of the contact's conversations: the newest first, each page oldest first. */
    async listConversations(inbox: ClientInbox, contact: ContactRecord, page: number) {
      const rows = await clientConversations(sql, contactOwner(contact), {
        limit: CLIENT_API_PAGES.conversations,
        offset: (page - 1) * CLIENT_API_PAGES.conversations,
      });
      return Promise.all(rows.map((row) => view(inbox, contact, row)));
    },

    async getConversation(inbox: ClientInbox, contact: ContactRecord, displayId: string) {
      return view(inbox, contact, await findContactConversation(sql, contact, displayId));
    },

    /** Resolves (never reopens; resolving twice changes nothing); with CSAT on, the close asks for a rating. */
    async resolve(inbox: ClientInbox, contact: ContactRecord, displayId: string) {
      const row = await findContactConversation(sql, contact, displayId);
      if (row.status !== 'resolved') await conversations.close(contactCustomer(contact), row.uuid);
      return view(inbox, contact, await findContactConversation(sql, contact, displayId));
    },

    async typing(contact: ContactRecord, displayId: string, status: 'on' | 'off') {
      await conversations.setTyping(
        contactCustomer(contact),
        (await findContactConversation(sql, contact, displayId)).uuid,
        status === 'on',
      );
    },

    /** The contact has seen everything up to now: earlier answers become read, and the people answering are told. */
    async lastSeen(contact: ContactRecord, displayId: string) {
      const row = await findContactConversation(sql, contact, displayId);
      await setContactLastSeen(sql, row.id, now());
      await conversations.markRead(contactCustomer(contact), row.uuid, Number.MAX_SAFE_INTEGER);
    },
  };
}
