import type { Namespace, Server } from 'socket.io';
import type { MessageUpdate, TypingChange, WidgetMessage } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { Publisher } from '../realtime.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import { findConversationById } from '../store/conversations.ts';
import { loadClientMessage, SERVER_MESSAGE_ID_PREFIX } from './client-service.ts';
import { findContactById, findContactByPubsubToken, type ContactRecord } from './contacts.ts';

/** The Socket.IO namespace where custom clients subscribe with a contact's `pubsub_token`. */
export const CLIENT_NAMESPACE = '/client';

const contactRoom = (contactId: number) => `contact:${contactId}`;
const contactIdOf = (conversation: ConversationRecord): number | undefined => {
  const match = /^ctc_(\d+)$/.exec(conversation.customerRef);
  return match ? Number(match[1]) : undefined;
};

/**
 * Realtime for custom clients of the Client API, with Chatwoot's event names and payloads:
 * `message.created` (with the `echo_id` the client sent), `message.updated`,
 * `conversation.status_changed`, `conversation.typing_on` / `conversation.typing_off`.
 */
export class ClientRealtime implements Publisher {
  #namespace: Namespace | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly logger: Logger,
  ) {}

  attach(io: Server): void {
    const namespace = io.of(CLIENT_NAMESPACE);
    namespace.use((socket, next) => {
      const token = (socket.handshake.auth as { pubsub_token?: unknown }).pubsub_token;
      if (typeof token !== 'string' || !/^[\w-]{8,128}$/.test(token)) return next(new Error('unauthorized: send the contact pubsub_token as auth.pubsub_token'));
      findContactByPubsubToken(this.sql, token).then(
        (contact) => {
          if (!contact) return next(new Error('unauthorized: the pubsub_token is not valid'));
          socket.data.contactId = contact.id;
          next();
        },
        () => next(new Error('unauthorized: the pubsub_token could not be checked')),
      );
    });
    namespace.on('connection', (socket) => void socket.join(contactRoom(socket.data.contactId as number)));
    this.#namespace = namespace;
  }

  /** Sends one event to the conversation's contact, when the conversation is a Client API contact's. */
  #send(conversation: ConversationRecord, build: (contact: ContactRecord) => Promise<[string, unknown] | undefined>): void {
    const contactId = contactIdOf(conversation);
    if (contactId === undefined || !this.#namespace) return;
    const namespace = this.#namespace;
    void (async () => {
      const contact = await findContactById(this.sql, contactId);
      const event = contact && (await build(contact));
      if (event) namespace.to(contactRoom(contactId)).emit(event[0], event[1]);
    })().catch((error: unknown) => this.logger.warn({ err: error }, 'a Client API event could not be sent'));
  }

  messageCreated(conversation: ConversationRecord, message: WidgetMessage): void {
    this.#send(conversation, async (contact) => {
      const shaped = await loadClientMessage(this.sql, message.id, contact);
      // Activity messages (notices) are not for the contact, as in Chatwoot.
      if (!shaped || shaped.message_type === 2) return undefined;
      const echoed = message.author === 'customer' && message.message_id && !message.message_id.startsWith(SERVER_MESSAGE_ID_PREFIX);
      return ['message.created', { ...shaped, ...(echoed ? { echo_id: message.message_id } : {}) }];
    });
  }

  messageUpdated(conversation: ConversationRecord, update: MessageUpdate): void {
    this.#send(conversation, async (contact) => {
      const shaped = await loadClientMessage(this.sql, update.id, contact);
      return shaped ? ['message.updated', { ...shaped, status: update.status }] : undefined;
    });
  }

  /** A message changed in another way (its submitted values): the contact gets it whole again. */
  messageChanged(conversationId: number, messageId: number): void {
    void findConversationById(this.sql, conversationId)
      .then((conversation) => {
        if (!conversation) return;
        this.#send(conversation, async (contact) => {
          const shaped = await loadClientMessage(this.sql, messageId, contact);
          return shaped ? ['message.updated', shaped] : undefined;
        });
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'a Client API event could not be sent'));
  }

  typingChanged(conversation: ConversationRecord, change: Omit<TypingChange, 'conversation_id'>): void {
    this.#send(conversation, async () => [
      change.typing ? 'conversation.typing_on' : 'conversation.typing_off',
      { conversation: { id: conversation.id }, user: { type: change.who === 'ai' ? 'agent_bot' : 'user' }, is_private: false },
    ]);
  }

  closed(conversation: ConversationRecord): void {
    this.#send(conversation, async () => ['conversation.status_changed', { id: conversation.id, uuid: conversation.uuid, status: 'resolved' }]);
  }

  surveyAsked(conversation: ConversationRecord, question: WidgetMessage): void {
    this.messageCreated(conversation, question);
  }

  messageAnswered(conversation: ConversationRecord, messageId: number): void {
    this.messageChanged(conversation.id, messageId);
  }

  customerTyping(): void {
    // The contact's own typing goes to the people answering, not back to the contact.
  }

  customerRead(): void {
    // Read receipts are for the people answering.
  }

  handedOver(): void {}

  handedBack(): void {}
}

/** One publisher that tells several: the widget's sockets and the custom clients' sockets. */
export function fanOut(publishers: readonly Publisher[]): Publisher {
  return {
    messageCreated: (...args) => publishers.forEach((publisher) => publisher.messageCreated(...args)),
    messageUpdated: (...args) => publishers.forEach((publisher) => publisher.messageUpdated(...args)),
    typingChanged: (...args) => publishers.forEach((publisher) => publisher.typingChanged(...args)),
    customerTyping: (...args) => publishers.forEach((publisher) => publisher.customerTyping(...args)),
    customerRead: (...args) => publishers.forEach((publisher) => publisher.customerRead(...args)),
    handedOver: (...args) => publishers.forEach((publisher) => publisher.handedOver(...args)),
    handedBack: (...args) => publishers.forEach((publisher) => publisher.handedBack(...args)),
    closed: (...args) => publishers.forEach((publisher) => publisher.closed(...args)),
    surveyAsked: (...args) => publishers.forEach((publisher) => publisher.surveyAsked(...args)),
    messageAnswered: (...args) => publishers.forEach((publisher) => publisher.messageAnswered(...args)),
  };
}
