import { randomUUID } from 'node:crypto';
import { ParleyError } from '../../shared/index.ts';
import type { Queryable, RateLimiter, Sql } from '../../shared/server/index.ts';
import type { ConversationService } from '../conversation-service.ts';
import type { Customer } from '../sessions.ts';
import { findConversationById } from '../store/conversations.ts';
import { findInbox, findInboxByIdentifier, type ClientInbox } from '../store/inboxes.ts';
import { checkIdentity } from './hmac.ts';
import { contactCustomerRef, findContactBySource, insertContact, matchContact, updateContact, type ContactRecord } from './contacts.ts';
import { conversationShape, messageShape, type ConversationRow, type MessageRow } from './shapes.ts';
import type { ContactPayload } from './schemas.ts';

// Chatwoot's default flood guard: messages per conversation per minute.
export const MESSAGES_PER_CONVERSATION_PER_MINUTE = 200;
const PAGE = 20;
export const BOT_NAME = 'AI assistant';
/** The prefix of message ids the BFF makes for Client API messages sent without an echo_id. */
export const SERVER_MESSAGE_ID_PREFIX = 'srv.';

const MESSAGE_SELECT = `SELECT m.id, c.id AS conversation_display_id, m.author, m.author_name, m.text, m.content_type, m.attributes, m.submitted_values, m.message_id, m.created_at
  FROM messages m JOIN conversations c ON c.id = m.conversation_id`;

/** One message as the Client API shows it (for the routes and the realtime events). */
export async function loadClientMessage(db: Queryable, id: number, contact: ContactRecord) {
  const [row] = await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.id = $1`, [id]);
  return row && messageShape(row, contact, BOT_NAME);
}

/**
 * The helpdesk Client API over the BFF's one conversation service: a contact of an inbox is a
 * customer (`ctc_<id>`), so a custom client and the widget see conversations the same way. Every
 * lookup is scoped to the inbox and the contact.
 */
export interface ClientServiceDeps {
  sql: Sql;
  conversations: ConversationService;
  floodLimiter: RateLimiter;
  now: () => Date;
  /** Tells the contact's sockets that a message changed (its submitted values). */
  onMessageUpdated?: (conversationId: number, messageId: number) => void;
}

export function createClientService({ sql, conversations, floodLimiter, now, onMessageUpdated }: ClientServiceDeps) {
  const notifyUpdated = (conversationId: number, messageId: number) => onMessageUpdated?.(conversationId, messageId);
  async function inboxOf(identifier: string): Promise<ClientInbox> {
    const inbox = await findInboxByIdentifier(sql, identifier);
    if (!inbox) throw new ParleyError('not_found', `No inbox ${identifier}.`);
    return inbox;
  }

  const customerOf = (contact: ContactRecord): Customer => ({ inboxId: contact.inboxId, customerRef: contactCustomerRef(contact), verified: contact.hmacVerified });

  async function contactOf(inbox: ClientInbox, sourceId: string): Promise<ContactRecord> {
    const contact = await findContactBySource(sql, inbox.id, sourceId);
    if (!contact) throw new ParleyError('not_found', `No contact ${sourceId} in this inbox.`);
    return contact;
  }

  async function conversationRow(db: Queryable, contact: ContactRecord, displayId: string, lock = false): Promise<ConversationRow> {
    const id = Number(displayId);
    const [row] = Number.isSafeInteger(id) && id > 0
      ? await db.query<ConversationRow>(
          `SELECT id, uuid, status, contact_last_seen_at, agent_last_seen_at FROM conversations WHERE id = $1 AND inbox_id = $2 AND customer_ref = $3${lock ? ' FOR UPDATE' : ''}`,
          [id, contact.inboxId, contactCustomerRef(contact)],
        )
      : [];
    if (!row) throw new ParleyError('not_found', `No conversation ${displayId} for this contact.`);
    return row;
  }

  async function messagesOf(conversationId: number, contact: ContactRecord, options: { before?: number | undefined; limit?: number } = {}) {
    const params: unknown[] = [conversationId];
    let filter = "AND NOT (m.author = 'system' AND m.content_type = 'text')";
    if (options.before) {
      params.push(options.before);
      filter += ` AND m.id < $${params.length}`;
    }
    const limit = options.limit ? ` ORDER BY m.id DESC LIMIT ${options.limit}` : ' ORDER BY m.id';
    const rows = await sql.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.conversation_id = $1 ${filter}${limit}`, params);
    if (options.limit) rows.reverse();
    return rows.map((row) => messageShape(row, contact, BOT_NAME));
  }

  async function conversationView(inbox: ClientInbox, contact: ContactRecord, row: ConversationRow) {
    return conversationShape(row, inbox, contact, await messagesOf(row.id, contact));
  }

  const messageView = async (id: number, contact: ContactRecord) => (await loadClientMessage(sql, id, contact))!;

  const uuidOf = async (contact: ContactRecord, displayId: string) => (await conversationRow(sql, contact, displayId)).uuid;

  return {
    inboxOf,

    /**
     * Gives the contact of a known source_id as it is; gives the contact of an identifier proved by
     * its identifier_hash; otherwise makes a new contact (new source_id and pubsub_token). A match by
     * identifier, email or phone without proof links the new contact to the same person but hands
     * out nothing of the matched one (naming someone's email must not open their conversations).
     */
    async createContact(identifier: string, body: ContactPayload) {
      const inbox = await inboxOf(identifier);
      const proved = checkIdentity(inbox, body.identifier, body.identifier_hash);
      if (body.source_id) {
        const known = await findContactBySource(sql, inbox.id, body.source_id);
        if (known) return known;
      }
      if (proved) {
        const own = await matchContact(sql, inbox.id, { identifier: body.identifier });
        if (own) return updateContact(sql, own, {}, true, now());
      }
      const person = await matchContact(sql, inbox.id, { identifier: body.identifier, email: body.email, phoneNumber: body.phone_number });
      const fields = { identifier: body.identifier, name: body.name, email: body.email, phoneNumber: body.phone_number, customAttributes: body.custom_attributes };
      const contact = await insertContact(sql, inbox.id, body.source_id, fields, now(), person?.personId);
      return proved ? updateContact(sql, contact, {}, true, now()) : contact;
    },

    async getContact(identifier: string, sourceId: string, identity: { identifier?: string | undefined; identifier_hash?: string | undefined }) {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      const proved = checkIdentity(inbox, identity.identifier, identity.identifier_hash);
      if (proved && identity.identifier !== contact.identifier) throw new ParleyError('unauthorized', 'The identifier does not belong to this contact.');
      return contact;
    },

    async updateContact(identifier: string, sourceId: string, body: ContactPayload) {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      const proved = checkIdentity(inbox, body.identifier, body.identifier_hash);
      if (proved && contact.identifier && body.identifier !== contact.identifier) throw new ParleyError('unauthorized', 'The identifier does not belong to this contact.');
      return updateContact(sql, contact, { identifier: body.identifier, name: body.name, email: body.email, phoneNumber: body.phone_number, customAttributes: body.custom_attributes }, proved, now());
    },

    async createConversation(identifier: string, sourceId: string, customAttributes: Record<string, unknown> | undefined) {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      if (inbox.lockToSingleConversation) {
        const [last] = await sql.query<ConversationRow>(
          'SELECT id, uuid, status, contact_last_seen_at, agent_last_seen_at FROM conversations WHERE inbox_id = $1 AND customer_ref = $2 ORDER BY id DESC LIMIT 1',
          [inbox.id, contactCustomerRef(contact)],
        );
        if (last) return conversationView(inbox, contact, last);
      }
      const opened = await conversations.open(customerOf(contact), { name: contact.name, email: contact.email ?? undefined });
      if (customAttributes) await sql.query('UPDATE conversations SET custom_attributes = $2::jsonb WHERE uuid = $1', [opened.id, JSON.stringify(customAttributes)]);
      const [row] = await sql.query<ConversationRow>('SELECT id, uuid, status, contact_last_seen_at, agent_last_seen_at FROM conversations WHERE uuid = $1', [opened.id]);
      return conversationView(inbox, contact, row!);
    },

    async listConversations(identifier: string, sourceId: string) {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      const rows = await sql.query<ConversationRow>(
        'SELECT id, uuid, status, contact_last_seen_at, agent_last_seen_at FROM conversations WHERE inbox_id = $1 AND customer_ref = $2 ORDER BY id',
        [inbox.id, contactCustomerRef(contact)],
      );
      return Promise.all(rows.map((row) => conversationView(inbox, contact, row)));
    },

    async getConversation(identifier: string, sourceId: string, displayId: string) {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      return conversationView(inbox, contact, await conversationRow(sql, contact, displayId));
    },

    /** Resolves (never reopens; resolving twice changes nothing); with CSAT on, the close asks for a rating. */
    async resolve(identifier: string, sourceId: string, displayId: string) {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      const row = await conversationRow(sql, contact, displayId);
      if (row.status !== 'resolved') await conversations.close(customerOf(contact), row.uuid);
      return conversationView(inbox, contact, await conversationRow(sql, contact, displayId));
    },

    async typing(identifier: string, sourceId: string, displayId: string, status: 'on' | 'off') {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      await conversations.setTyping(customerOf(contact), await uuidOf(contact, displayId), status === 'on');
    },

    /** The contact has seen everything up to now: earlier answers become read, and the people answering are told. */
    async lastSeen(identifier: string, sourceId: string, displayId: string) {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      const row = await conversationRow(sql, contact, displayId);
      await sql.query('UPDATE conversations SET contact_last_seen_at = $2 WHERE id = $1', [row.id, now()]);
      await conversations.markRead(customerOf(contact), row.uuid, Number.MAX_SAFE_INTEGER);
    },

    async createMessage(identifier: string, sourceId: string, displayId: string, content: string, echoId: string | undefined) {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      const row = await conversationRow(sql, contact, displayId);
      const at = now();
      const flood = await floodLimiter.consume(`conversation:${row.id}`, MESSAGES_PER_CONVERSATION_PER_MINUTE, at);
      if (!flood.allowed) throw new ParleyError('rate_limited', `At most ${MESSAGES_PER_CONVERSATION_PER_MINUTE} messages a minute in one conversation.`);
      // Without an echo_id the BFF names the message itself; such ids are never echoed back.
      const { message } = await conversations.send(customerOf(contact), row.uuid, { text: content, message_id: echoId ?? `${SERVER_MESSAGE_ID_PREFIX}${randomUUID()}` });
      return messageView(message.id, contact);
    },

    async listMessages(identifier: string, sourceId: string, displayId: string, before: number | undefined) {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      const row = await conversationRow(sql, contact, displayId);
      return messagesOf(row.id, contact, { before, limit: PAGE });
    },

    /**
     * Answers an interactive message: choices or form values (arrays), or the CSAT rating. A choice
     * picked in an open conversation is also the customer's next message to the AI, as in the widget.
     */
    async updateMessage(identifier: string, sourceId: string, displayId: string, messageId: string, submitted: unknown) {
      const inbox = await inboxOf(identifier);
      const contact = await contactOf(inbox, sourceId);
      const row = await conversationRow(sql, contact, displayId);
      const id = Number(messageId);
      const [message] = Number.isSafeInteger(id)
        ? await sql.query<{ id: number; content_type: string; author: string; attributes: { choices?: unknown[] } | null }>(
            'SELECT id, content_type, author, attributes FROM messages WHERE id = $1 AND conversation_id = $2',
            [id, row.id],
          )
        : [];
      if (!message) throw new ParleyError('not_found', `No message ${messageId} in this conversation.`);
      if (!Array.isArray(submitted)) {
        if (message.content_type !== 'input_csat') throw new ParleyError('unprocessable', 'A csat_survey_response answers only the survey message.');
        const { rating, feedback_message } = (submitted as { csat_survey_response: { rating: number; feedback_message?: string } }).csat_survey_response;
        await conversations.rate(await conversations.mine(customerOf(contact), row.uuid), rating, feedback_message ?? '');
        return messageView(message.id, contact);
      }
      if (message.author === 'customer') throw new ParleyError('unprocessable', "A contact's own message takes no submitted values.");
      await sql.query('UPDATE messages SET submitted_values = $2::jsonb WHERE id = $1', [message.id, JSON.stringify(submitted)]);
      notifyUpdated(row.id, message.id);
      const picked = (submitted as { title?: string; value?: string }[])[0];
      const text = picked?.value || picked?.title;
      if (message.attributes?.choices?.length && text && row.status !== 'resolved') {
        // One message per answered offer: a repeated PATCH changes the stored values, not the conversation.
        await conversations.send(customerOf(contact), row.uuid, { text, message_id: `${SERVER_MESSAGE_ID_PREFIX}choice.${message.id}` });
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

  async function survey(uuid: string) {
    const [row] = /^[0-9a-f-]{36}$/i.test(uuid)
      ? await sql.query<{ id: number; inbox_id: string; status: string; rating: number | null; comment: string | null; survey_at: Date | null; created_at: Date; csat_id: number | null }>(
          `SELECT c.id, c.inbox_id, c.status, s.rating, s.comment, s.created_at AS survey_at, c.created_at,
             (SELECT m.id FROM messages m WHERE m.conversation_id = c.id AND m.content_type = 'input_csat' ORDER BY m.id DESC LIMIT 1) AS csat_id
           FROM conversations c LEFT JOIN surveys s ON s.conversation_id = c.id WHERE c.uuid = $1`,
          [uuid],
        )
      : [];
    if (!row || row.csat_id === null) throw new ParleyError('not_found', 'No survey for this conversation.');
    const inbox = await findInbox(sql, row.inbox_id);
    return { row, inbox: inbox! };
  }
}

export type ClientService = ReturnType<typeof createClientService>;
