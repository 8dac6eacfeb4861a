import { ParleyError, type MessagesPage, type WidgetConfig, type WidgetConversation } from '../../shared/index.ts';
import type { RateLimiter, Sql } from '../../shared/server/index.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { Relay } from '../engine-link/relay.ts';
import type { Customer, Session } from './sessions.ts';
import {
  findCustomerConversation,
  insertConversation,
  markReadUpTo,
  updateConversation,
  type ConversationRecord,
} from '../store/conversations.ts';
import { listMessages } from '../store/messages.ts';
import { askSurvey } from '../store/surveys.ts';
import type { MessageLimits } from './message-limits.ts';
import { createMessageSending } from './message-sending.ts';
import { createSurveyAnswers } from './survey-answers.ts';
import { widgetConfig } from './widget-config.ts';
import { conversationViews, unreadCount } from '../store/views.ts';

export interface ConversationServiceDeps {
  sql: Sql;
  /** A conversation is opened only where its inbox's engine account holds a key for the customer's environment. */
  engines: Pick<EngineAccounts, 'forInbox'>;
  relay: Pick<Relay, 'kick' | 'surveyAnswered'>;
  publisher: Publisher;
  now: () => Date;
  /** Counts new messages per customer, per address and per inbox before they go to the engine (message-limits.ts). */
  messageLimiter: RateLimiter;
  /** Other numbers for some of the limits (a test lifting one); MESSAGE_LIMITS by default. */
  messageLimits?: Partial<MessageLimits> | undefined;
}

const PAGE_SIZE = 100;

/** What a visitor may give when opening a conversation (the pre-chat form, the page, the language). */
export interface ContactGiven {
  name?: string | undefined;
  email?: string | undefined;
  pageUrl?: string | undefined;
  locale?: string | undefined;
}

/** Keeps a new conversation, only when it can go to the engine: with the key of the inbox's engine account and the customer's own environment. */
async function openConversation(
  { sql, engines, publisher, now }: Pick<ConversationServiceDeps, 'sql' | 'engines' | 'publisher' | 'now'>,
  customer: Customer,
  contact: ContactGiven,
): Promise<ConversationRecord> {
  await engines.forInbox(customer.inboxId, customer.environment);
  const conversation = await sql.transaction(async (tx) => {
    const created = await insertConversation(tx, customer, now(), contact);
    await publisher.record(tx, created, [{ type: 'conversation.created' }]);
    return created;
  });
  publisher.publish(conversation, { type: 'conversation.created' });
  return conversation;
}

/** The customer closes the conversation: resolved now, a rating asked for, and the engine told through the outbox. */
async function closeConversation(
  { sql, relay, publisher, now }: Pick<ConversationServiceDeps, 'sql' | 'relay' | 'publisher' | 'now'>,
  conversation: ConversationRecord,
): Promise<void> {
  if (conversation.status === 'resolved')
    throw new ParleyError('invalid_state', `Conversation ${conversation.uuid} is already resolved.`);
  const changes = await sql.transaction(async (tx) => {
    await updateConversation(tx, conversation.id, { status: 'resolved', closeRequested: true }, now());
    conversation.status = 'resolved';
    const question = await askSurvey(tx, conversation, now());
    const changes: Change[] = [
      { type: 'closed', resolved: false },
      ...(question ? [{ type: 'survey.asked' as const, question }] : []),
    ];
    await publisher.record(tx, conversation, changes);
    return changes;
  });
  publisher.publish(conversation, ...changes);
  relay.kick(conversation.id);
}

/**
 * The BFF's one implementation of conversations, behind the widget routes and the socket
 * (and, later, the helpdesk Client API). Every lookup is scoped to the asking customer.
 */
export function createConversationService({
  sql,
  engines,
  relay,
  publisher,
  now,
  messageLimiter,
  messageLimits,
}: ConversationServiceDeps) {
  async function mine(customer: Customer, uuid: string): Promise<ConversationRecord> {
    const conversation = await findCustomerConversation(sql, customer, uuid);
    if (!conversation) throw new ParleyError('not_found', `No conversation ${uuid} for this customer.`);
    return conversation;
  }
  const sending = createMessageSending({ sql, relay, publisher, now, messageLimiter, messageLimits });
  const surveys = createSurveyAnswers({ sql, relay, publisher, now, mine });

  async function view(customer: Customer, conversation: ConversationRecord): Promise<WidgetConversation> {
    const [found] = await conversationViews(sql, { ...customer, id: conversation.id });
    return found!;
  }

  return {
    mine,

    /** `locale` is the language the widget shows: the greeting comes in it when the inbox has it. */
    config: (session: Session, locale?: string): Promise<WidgetConfig> =>
      widgetConfig({ sql, now, engines }, session, locale),

    /** Opens a conversation; a visitor's pre-chat name and email are kept with it. */
    async open(customer: Customer, contact: ContactGiven = {}): Promise<WidgetConversation> {
      return view(customer, await openConversation({ sql, engines, publisher, now }, customer, contact));
    },

    list(customer: Customer): Promise<WidgetConversation[]> {
      return conversationViews(sql, customer);
    },

    async get(customer: Customer, uuid: string): Promise<WidgetConversation> {
      return view(customer, await mine(customer, uuid));
    },

    async messages(customer: Customer, uuid: string, after = 0): Promise<MessagesPage> {
      const conversation = await mine(customer, uuid);
      const messages = await listMessages(sql, conversation.id, after, PAGE_SIZE);
      return { messages, next: messages.at(-1)?.id ?? (after || null) };
    },

    send: sending.send,

    /** The customer is typing (or stopped); people answering the conversation see it. */
    async setTyping(customer: Customer, uuid: string, typing: boolean): Promise<void> {
      const conversation = await mine(customer, uuid);
      if (conversation.status === 'resolved') return;
      publisher.publish(conversation, { type: 'customer.typing', typing });
    },

    async markRead(
      customer: Customer,
      uuid: string,
      lastReadId: number,
    ): Promise<{ conversation_id: string; last_read_id: number; unread: number }> {
      const conversation = await mine(customer, uuid);
      const position = await markReadUpTo(sql, conversation.id, lastReadId);
      if (position > conversation.customerLastReadId)
        publisher.publish(conversation, { type: 'customer.read', lastReadId: position });
      return { conversation_id: uuid, last_read_id: position, unread: await unreadCount(sql, conversation.id) };
    },

    /** Closes the conversation for the customer now, asks for a rating, and tells the engine through the outbox. */
    async close(customer: Customer, uuid: string): Promise<WidgetConversation> {
      const conversation = await mine(customer, uuid);
      await closeConversation({ sql, relay, publisher, now }, conversation);
      return view(customer, conversation);
    },

    answerSurvey: surveys.answerSurvey,
    rate: surveys.rate,
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
