/**
 * A contact's conversations as the Client API finds and shows them: by the display id of the path,
 * scoped to the contact, with their newest messages.
 */
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { ClientInbox } from '../store/inboxes.ts';
import { contactOwner } from './contact-customer.ts';
import { CLIENT_API_PAGES } from './limits.ts';
import { loadClientMessages } from './message-views.ts';
import { conversationShape } from './shapes.ts';
import { findClientConversation, type ClientConversationRow } from './store/client-views.ts';
import type { ContactRecord } from './store/contacts.ts';

/** The contact's conversation `displayId` (the path's conversation_id); 404 for anyone else's. */
export async function findContactConversation(
  sql: Sql,
  contact: ContactRecord,
  displayId: string,
): Promise<ClientConversationRow> {
  const id = Number(displayId);
  const row =
    Number.isSafeInteger(id) && id > 0 ? await findClientConversation(sql, contactOwner(contact), id) : undefined;
  if (!row) throw new ParleyError('not_found', `No conversation ${displayId} for this contact.`);
  return row;
}

/**
 * A conversation with its newest messages (Chatwoot sends them all); older ones come from
 * `GET …/messages?before=`. `publicUrl` goes before the attachments' paths.
 */
export async function conversationView(
  { sql, publicUrl }: { sql: Sql; publicUrl: string },
  inbox: ClientInbox,
  contact: ContactRecord,
  row: ClientConversationRow,
) {
  return conversationShape(
    row,
    inbox,
    contact,
    await loadClientMessages(sql, row.id, contact, { limit: CLIENT_API_PAGES.messagesInConversation }, publicUrl),
  );
}
