import { randomUUID } from 'node:crypto';
import { ParleyError } from '../../shared/index.ts';
import type { RateDecision, RateLimiter, Sql, UploadedFile } from '../../shared/server/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import type { Sender } from '../widget/message-limits.ts';
import type { Customer } from '../widget/sessions.ts';
import { accountSuspendedError, inboxSuspended } from '../helpdesk/store/accounts.ts';
import {
  clientConversations,
  clientMessages,
  findAnswerableMessage,
  findClientConversation,
  findClientConversationByUuid,
  findClientMessage,
  findSurveyByUuid,
  setContactLastSeen,
  setCustomAttributes,
  setSubmittedValues,
  type ClientConversationRow,
  type ClientMessageRow,
} from './store/client-views.ts';
import { attachmentsOfMessages } from '../attachments/store.ts';
import type { AttachmentService } from '../attachments/attachment-service.ts';
import { clientAttachmentUrl, publicAttachmentShape } from '../attachments/shapes.ts';
import {
  contactCustomerRef,
  deepMerge,
  findContactBySource,
  findProvedContact,
  insertContact,
  matchUnprovedContact,
  updateContact,
  type ContactRecord,
} from './store/contacts.ts';
import { findConversationById, type ConversationOwner } from '../store/conversations.ts';
import { findInbox, findInboxByIdentifier, type ClientInbox } from '../store/inboxes.ts';
import { checkIdentity } from './hmac.ts';
import { CLIENT_API_PAGES, type ClientApiLimit } from './limits.ts';
import { conversationShape, messageShape } from './shapes.ts';
import { CUSTOM_ATTRIBUTES_MAX_BYTES, type ContactPayload, type MessageUpdatePayload } from './schemas.ts';

export const BOT_NAME = 'AI assistant';
/** The prefix of message ids the BFF makes for Client API messages sent without an echo_id. */
export const SERVER_MESSAGE_ID_PREFIX = 'srv.';

/** One message as the Client API shows it (for the routes and the realtime events); `base` goes before its attachments' paths. */
export async function loadClientMessage(sql: Sql, id: number, contact: ContactRecord, base = '') {
  const row = await findClientMessage(sql, id);
  return row && (await shapeClientMessages(sql, [row], contact, base))[0];
}

/** Messages as the contact sees them, with their attachments (one more statement, for all of them). */
async function shapeClientMessages(sql: Sql, rows: readonly ClientMessageRow[], contact: ContactRecord, base: string) {
  const attachments = await attachmentsOfMessages(
    sql,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    messageShape(
      row,
      contact,
      BOT_NAME,
      (attachments.get(row.id) ?? []).map((attachment) =>
        publicAttachmentShape(attachment, {
          messageId: row.id,
          accountId: attachment.accountId,
          dataUrl: clientAttachmentUrl(base, {
            inboxIdentifier: attachment.inboxIdentifier ?? '',
            sourceId: contact.sourceId,
            conversationId: attachment.conversationId,
            id: attachment.id,
          }),
        }),
      ),
    ),
  );
}

export interface ClientServiceDeps {
  sql: Sql;
  conversations: ConversationService;
  attachments: AttachmentService;
  /** Where people reach the BFF (PUBLIC_URL): attachments' data_url is absolute with it, a path without. */
  publicUrl?: string | undefined;
  publisher: Publisher;
  floodLimiter: RateLimiter;
  now: () => Date;
}

/**
 * The helpdesk Client API over the BFF's one conversation service: a contact of an inbox is a
 * customer (`ctc_<id>`), so a custom client and the widget see conversations the same way. The
 * routes load the inbox and the contact once per request (`inboxOf`, `contactOf`); every lookup
 * after is scoped to them.
 */
export function createClientService({
  sql,
  conversations,
  attachments,
  publisher,
  floodLimiter,
  now,
  publicUrl = '',
}: ClientServiceDeps) {
  // The Client API is a public, production surface: its contacts are live customers.
  const ownerOf = (contact: ContactRecord): ConversationOwner => ({
    inboxId: contact.inboxId,
    customerRef: contactCustomerRef(contact),
    environment: 'live',
  });
  const customerOf = (contact: ContactRecord): Customer => ({ ...ownerOf(contact), verified: contact.hmacVerified });
  /** The contact sending from `address` (a limit key): an unproved contact's messages count against it too. */
  const senderOf = (contact: ContactRecord, address: string): Sender => ({ ...customerOf(contact), address });

  async function conversationRow(contact: ContactRecord, displayId: string): Promise<ClientConversationRow> {
    const id = Number(displayId);
    const row =
      Number.isSafeInteger(id) && id > 0 ? await findClientConversation(sql, ownerOf(contact), id) : undefined;
    if (!row) throw new ParleyError('not_found', `No conversation ${displayId} for this contact.`);
    return row;
  }

  async function messagesOf(
    conversationId: number,
    contact: ContactRecord,
    options: { before?: number | undefined; limit: number },
  ) {
    return shapeClientMessages(sql, await clientMessages(sql, conversationId, options), contact, publicUrl);
  }

  /** A conversation with its newest messages (Chatwoot sends them all); older ones come from `GET …/messages?before=`. */
  async function conversationView(inbox: ClientInbox, contact: ContactRecord, row: ClientConversationRow) {
    return conversationShape(
      row,
      inbox,
      contact,
      await messagesOf(row.id, contact, { limit: CLIENT_API_PAGES.messagesInConversation }),
    );
  }

  const messageView = async (id: number, contact: ContactRecord) =>
    (await loadClientMessage(sql, id, contact, publicUrl))!;

  async function survey(uuid: string) {
    const row = /^[0-9a-f-]{36}$/i.test(uuid) ? await findSurveyByUuid(sql, uuid) : undefined;
    if (!row || row.csat_id === null) throw new ParleyError('not_found', 'No survey for this conversation.');
    const inbox = await findInbox(sql, row.inbox_id);
    return { row, inbox: inbox! };
  }

  return {
    /**
     * Counts one request against a limit of the Client API (`limits.ts`) for `key` (an address, an
     * inbox, a contact) in the current minute; the routes turn a refusal into 429 with Retry-After.
     */
    async count(
      limit: ClientApiLimit,
      key: string | number,
      perMinute: number,
    ): Promise<{ decision: RateDecision; at: Date }> {
      const at = now();
      return { decision: await floodLimiter.consume(`client-api:${limit}:${key}`, perMinute, at), at };
    },

    /** The inbox of an identifier; a suspended account's inboxes answer 403 `account_suspended`. */
    async inboxOf(identifier: string): Promise<ClientInbox> {
      const inbox = await findInboxByIdentifier(sql, identifier);
      if (!inbox) throw new ParleyError('not_found', `No inbox ${identifier}.`);
      if (await inboxSuspended(sql, inbox.id)) throw accountSuspendedError();
      return inbox;
    },

    async contactOf(inbox: ClientInbox, sourceId: string): Promise<ContactRecord> {
      const contact = await findContactBySource(sql, inbox.id, sourceId);
      if (!contact) throw new ParleyError('not_found', `No contact ${sourceId} in this inbox.`);
      return contact;
    },

    /**
     * Gives the contact of a known source_id; gives the contact whose identifier was proved when the
     * caller proves it too; otherwise makes a new contact (new source_id and pubsub_token). What a
     * caller claims without proof never reaches a proved contact (issue 12: whoever named a
     * customer's identifier first would otherwise be handed that customer's contact once the site
     * proved it): a match by identifier, email or phone links the new contact to a person nobody
     * proved and hands out nothing of the matched one, and an identifier someone proved is not
     * stored on a contact that did not prove it.
     */
    async createContact(inbox: ClientInbox, body: ContactPayload) {
      const proved = checkIdentity(inbox, body.identifier, body.identifier_hash);
      if (body.source_id) {
        const known = await findContactBySource(sql, inbox.id, body.source_id);
        // A proved identity gets only its own proved contact, never one someone registered under a source_id they guessed.
        if (known && proved && !(known.hmacVerified && known.identifier === body.identifier)) {
          throw new ParleyError(
            'unauthorized',
            'This source_id belongs to another contact: create the contact without a source_id, or with one of its own.',
          );
        }
        if (known) return known;
      }
      const fields = {
        name: body.name,
        email: body.email,
        phoneNumber: body.phone_number,
        customAttributes: body.custom_attributes,
      };
      if (proved) {
        const own = await findProvedContact(sql, inbox.id, body.identifier!);
        return (
          own ??
          insertContact(sql, inbox.id, body.source_id, { ...fields, identifier: body.identifier }, now(), {
            hmacVerified: true,
          })
        );
      }
      const claimed =
        body.identifier && !(await findProvedContact(sql, inbox.id, body.identifier)) ? body.identifier : undefined;
      const person = await matchUnprovedContact(sql, inbox.id, {
        identifier: claimed,
        email: body.email,
        phoneNumber: body.phone_number,
      });
      return insertContact(sql, inbox.id, body.source_id, { ...fields, identifier: claimed }, now(), {
        personId: person?.personId,
      });
    },

    checkContact(
      inbox: ClientInbox,
      contact: ContactRecord,
      identity: { identifier?: string | undefined; identifier_hash?: string | undefined },
    ): ContactRecord {
      const proved = checkIdentity(inbox, identity.identifier, identity.identifier_hash);
      if (proved && identity.identifier !== contact.identifier)
        throw new ParleyError('unauthorized', 'The identifier does not belong to this contact.');
      return contact;
    },

    /**
     * Updates the contact. The identifier is set only with its identifier_hash and only where the
     * contact has none; without proof it is ignored, as Chatwoot's update ignores it.
     */
    async updateContact(inbox: ClientInbox, contact: ContactRecord, body: ContactPayload) {
      // Each request is held to the limit; so is what the contact keeps once merged, or PATCHes would add up without end.
      if (
        body.custom_attributes &&
        Buffer.byteLength(JSON.stringify(deepMerge(contact.customAttributes, body.custom_attributes))) >
          CUSTOM_ATTRIBUTES_MAX_BYTES
      ) {
        throw new ParleyError(
          'unprocessable',
          `A contact keeps at most ${CUSTOM_ATTRIBUTES_MAX_BYTES / 1024} KB of custom attributes (as JSON); these would make it more.`,
        );
      }
      const proved = checkIdentity(inbox, body.identifier, body.identifier_hash);
      if (proved && contact.identifier && body.identifier !== contact.identifier)
        throw new ParleyError('unauthorized', 'The identifier does not belong to this contact.');
      const fields = {
        name: body.name,
        email: body.email,
        phoneNumber: body.phone_number,
        customAttributes: body.custom_attributes,
      };
      return updateContact(sql, contact, fields, proved ? { proved, identifier: body.identifier! } : { proved }, now());
    },

    async createConversation(
      inbox: ClientInbox,
      contact: ContactRecord,
      customAttributes: Record<string, unknown> | undefined,
    ) {
      // Locked to one conversation, the contact keeps its newest while it is open. A resolved one
      // takes no more messages (409), so reusing it would leave the contact stuck for good: a new one starts.
      if (inbox.lockToSingleConversation) {
        const [last] = await clientConversations(sql, ownerOf(contact), { limit: 1 });
        if (last && last.status !== 'resolved') return conversationView(inbox, contact, last);
      }
      const opened = await conversations.open(customerOf(contact), {
        name: contact.name,
        email: contact.email ?? undefined,
      });
      if (customAttributes) await setCustomAttributes(sql, opened.id, customAttributes);
      return conversationView(inbox, contact, (await findClientConversationByUuid(sql, opened.id))!);
    },

    /** Page `page` (from 1) of the contact's conversations: the newest first, each page oldest first. */
    async listConversations(inbox: ClientInbox, contact: ContactRecord, page: number) {
      const rows = await clientConversations(sql, ownerOf(contact), {
        limit: CLIENT_API_PAGES.conversations,
        offset: (page - 1) * CLIENT_API_PAGES.conversations,
      });
      return Promise.all(rows.map((row) => conversationView(inbox, contact, row)));
    },

    async getConversation(inbox: ClientInbox, contact: ContactRecord, displayId: string) {
      return conversationView(inbox, contact, await conversationRow(contact, displayId));
    },

    /** Resolves (never reopens; resolving twice changes nothing); with CSAT on, the close asks for a rating. */
    async resolve(inbox: ClientInbox, contact: ContactRecord, displayId: string) {
      const row = await conversationRow(contact, displayId);
      if (row.status !== 'resolved') await conversations.close(customerOf(contact), row.uuid);
      return conversationView(inbox, contact, await conversationRow(contact, displayId));
    },

    async typing(contact: ContactRecord, displayId: string, status: 'on' | 'off') {
      await conversations.setTyping(
        customerOf(contact),
        (await conversationRow(contact, displayId)).uuid,
        status === 'on',
      );
    },

    /** The contact has seen everything up to now: earlier answers become read, and the people answering are told. */
    async lastSeen(contact: ContactRecord, displayId: string) {
      const row = await conversationRow(contact, displayId);
      await setContactLastSeen(sql, row.id, now());
      await conversations.markRead(customerOf(contact), row.uuid, Number.MAX_SAFE_INTEGER);
    },

    async createMessage(
      contact: ContactRecord,
      address: string,
      displayId: string,
      content: string,
      echoId: string | undefined,
    ) {
      const row = await conversationRow(contact, displayId);
      // Without an echo_id the BFF names the message itself; such ids are never echoed back.
      const { message } = await conversations.send(senderOf(contact, address), row.uuid, {
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
      const row = await conversationRow(contact, displayId);
      const messageId = echoId ?? `${SERVER_MESSAGE_ID_PREFIX}${randomUUID()}`;
      const { message } = await attachments.send(
        senderOf(contact, address),
        row.uuid,
        { text: content, messageId, uploader: 'client_api' },
        files,
      );
      return messageView(message.id, contact);
    },

    /** A file of the contact's conversation, with its bytes; 404 for anyone else's. */
    async attachment(contact: ContactRecord, displayId: string, attachmentId: string) {
      return attachments.open((await conversationRow(contact, displayId)).id, attachmentId);
    },

    async listMessages(contact: ContactRecord, displayId: string, before: number | undefined) {
      return messagesOf((await conversationRow(contact, displayId)).id, contact, {
        before,
        limit: CLIENT_API_PAGES.messages,
      });
    },

    /**
     * Answers an interactive message: choices or form values (arrays), or the CSAT rating. A choice
     * picked in an open conversation is also the customer's next message to the AI, as in the widget.
     */
    async updateMessage(
      contact: ContactRecord,
      address: string,
      displayId: string,
      messageId: string,
      submitted: SubmittedValues,
    ) {
      const row = await conversationRow(contact, displayId);
      const id = Number(messageId);
      const message = Number.isSafeInteger(id) ? await findAnswerableMessage(sql, row.id, id) : undefined;
      if (!message) throw new ParleyError('not_found', `No message ${messageId} in this conversation.`);
      if (!Array.isArray(submitted)) {
        if (message.content_type !== 'input_csat')
          throw new ParleyError('unprocessable', 'A csat_survey_response answers only the survey message.');
        const { rating, feedback_message } = submitted.csat_survey_response;
        await conversations.rate(
          await conversations.mine(customerOf(contact), row.uuid),
          rating,
          feedback_message ?? '',
        );
        return messageView(message.id, contact);
      }
      if (message.author === 'customer')
        throw new ParleyError('unprocessable', "A contact's own message takes no submitted values.");
      const conversation = await conversations.mine(customerOf(contact), row.uuid);
      const answered: Change = { type: 'message.answered', messageId: message.id };
      await sql.transaction(async (tx) => {
        await setSubmittedValues(tx, message.id, submitted);
        await publisher.record(tx, conversation, [answered]);
      });
      publisher.publish(conversation, answered);
      const picked = submitted[0];
      const text = picked?.value || picked?.title;
      if (message.attributes?.choices?.length && text && row.status !== 'resolved') {
        // One message per answered offer: a repeated PATCH changes the stored values, not the conversation.
        await conversations.send(senderOf(contact, address), row.uuid, {
          text,
          message_id: `${SERVER_MESSAGE_ID_PREFIX}choice.${message.id}`,
        });
      }
      return messageView(message.id, contact);
    },

    /** The survey of a conversation by its UUID (the page and the csat_survey routes); 404 when none was asked for. */
    survey,

    async answerSurvey(uuid: string, rating: number, feedback: string) {
      const { row } = await survey(uuid);
      const conversation = await findConversationById(sql, row.id);
      await conversations.rate(conversation!, rating, feedback);
      return survey(uuid);
    },
  };
}

/** What `PATCH …/messages/{id}` may submit: choices or form values, or the survey's answer. */
type SubmittedValues = MessageUpdatePayload['submitted_values'];

export type ClientService = ReturnType<typeof createClientService>;
