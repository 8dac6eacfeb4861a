/**
 * A contact's messages through the Client API: sending words, sending files (Chatwoot's multipart
 * `attachments[]`), reading a page of messages, and opening a message's file.
 */
import { randomUUID } from 'node:crypto';
import type { Sql, UploadedFile } from '../../shared/server/index.ts';
import type { AttachmentService } from '../attachments/attachment-service.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import { contactSender } from './contact-customer.ts';
import { findContactConversation } from './conversation-views.ts';
import { CLIENT_API_PAGES } from './limits.ts';
import { loadClientMessage, loadClientMessages, SERVER_MESSAGE_ID_PREFIX } from './message-views.ts';
import type { ContactRecord } from './store/contacts.ts';

interface ClientMessageServiceDeps {
  sql: Sql;
  conversations: ConversationService;
  attachments: AttachmentService;
  /** Where people reach the BFF: attachments' data_url is absolute with it, a path without. */
  publicUrl: string;
}

export function createClientMessageService({ sql, conversations, attachments, publicUrl }: ClientMessageServiceDeps) {
  const messageView = async (id: number, contact: ContactRecord) =>
    (await loadClientMessage(sql, id, contact, publicUrl))!;

  return {
    async createMessage(
      contact: ContactRecord,
      address: string,
      displayId: string,
      content: string,
      echoId: string | undefined,
    ) {
      const row = await findContactConversation(sql, contact, displayId);
      // Without an echo_id the BFF names the message itself; such ids are never echoed back.
      const { message } = await conversations.send(contactSender(contact, address), row.uuid, {
        text: content,
        message_id: echoId ?? `${SERVER_MESSAGE_ID_PREFIX}${randomUUID()}`,
      });
      return messageView(message.id, contact);
    },

    /** The largest multipart message read: its files (at most ATTACHMENTS_MAX_BYTES together) and its content. */
    attachmentBodyLimit: attachments.bodyLimit,

    /** A message with files (Chatwoot's multipart `attachments[]`), with words or without; `echo_id` makes a retry harmless. */
    async createMessageWithAttachments(
      contact: ContactRecord,
      address: string,
      displayId: string,
      content: string | undefined,
      echoId: string | undefined,
      files: readonly UploadedFile[],
    ) {
      const row = await findContactConversation(sql, contact, displayId);
      const messageId = echoId ?? `${SERVER_MESSAGE_ID_PREFIX}${randomUUID()}`;
      const { message } = await attachments.send(
        contactSender(contact, address),
        row.uuid,
        { text: content, messageId, uploader: 'client_api' },
        files,
      );
      return messageView(message.id, contact);
    },

    /** A file of the contact's conversation, with its bytes; 404 for anyone else's. */
    async attachment(contact: ContactRecord, displayId: string, attachmentId: string) {
      return attachments.open((await findContactConversation(sql, contact, displayId)).id, attachmentId);
    },

    async listMessages(contact: ContactRecord, displayId: string, before: number | undefined) {
      const row = await findContactConversation(sql, contact, displayId);
      return loadClientMessages(sql, row.id, contact, { before, limit: CLIENT_API_PAGES.messages }, publicUrl);
    },
  };
}
