/**
 * Contacts for people (Chatwoot's Application API contacts): one read, changed (name, e-mail, phone,
 * custom attributes), searched, and its conversations. An agent reaches the contacts of the inboxes
 * they answer; anything else is a 404.
 */
import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { ContactUpdate, DeskContact } from '../../shared/schemas/helpdesk/index.ts';
import type { Role } from './store/accounts.ts';
import {
  contactConversations,
  findDeskContact,
  searchDeskContacts,
  updateDeskContact,
  type DeskContactRow,
} from './store/desk-contacts.ts';
import type { Caller } from './auth.ts';
import type { DeskConversationAccess } from './desk-conversation-access.ts';
import { deskConversationShape } from './shapes.ts';

const PER_PAGE = 25;

export const deskContactShape = (row: DeskContactRow): DeskContact => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone_number: row.phone_number,
  identifier: row.identifier,
  custom_attributes: row.custom_attributes,
  inbox_id: row.inbox_display_id,
  created_at: Math.floor(row.created_at.getTime() / 1000),
});

export interface ContactServiceDeps {
  sql: Sql;
  now: () => Date;
  access: Pick<DeskConversationAccess, 'visibleInboxIds'>;
}

export function createContactService({ sql, now, access }: ContactServiceDeps) {
  async function find(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
    const found = await findDeskContact(sql, accountId, id, await access.visibleInboxIds(accountId, caller, standing));
    if (!found) throw new ParleyError('not_found', `No contact ${id} for you in this account.`);
    return found;
  }

  return {
    async get(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      return deskContactShape(await find(accountId, caller, standing, id));
    },

    async update(
      accountId: number,
      caller: Caller,
      standing: Role | 'bot',
      id: number,
      changes: z.infer<typeof ContactUpdate>,
    ) {
      const contact = await find(accountId, caller, standing, id);
      await sql.transaction((tx) => updateDeskContact(tx, contact, changes, now()));
      return deskContactShape(await find(accountId, caller, standing, id));
    },

    async search(accountId: number, caller: Caller, standing: Role | 'bot', query: string, page: number) {
      const inboxIds = await access.visibleInboxIds(accountId, caller, standing);
      const found = await searchDeskContacts(sql, accountId, inboxIds, query, { number: page, size: PER_PAGE });
      return { meta: { count: found.count }, payload: found.contacts.map(deskContactShape) };
    },

    /** The contact's conversations, newest first. */
    async conversations(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const contact = await find(accountId, caller, standing, id);
      return { payload: (await contactConversations(sql, contact, now())).map(deskConversationShape) };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
