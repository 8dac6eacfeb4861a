import {
  ParleyError,
  type MessagesPage,
  type SendWidgetMessageRequest,
  type WidgetAttachment,
  type WidgetConfig,
  type WidgetConversation,
  type WidgetMessage,
} from '../../shared/index.ts';
import type { Queryable, RateLimiter, Sql } from '../../shared/server/index.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { Relay } from '../engine-link/relay.ts';
import { givenCustomerRef } from './customer-refs.ts';
import type { Customer, Session, SessionStanding } from './sessions.ts';
import {
  findCustomerConversation,
  insertConversation,
  markReadUpTo,
  updateConversation,
  type ConversationRecord,
} from '../store/conversations.ts';
import { ALWAYS_OPEN, greetingIn, isAway } from '../store/inbox-presentation.ts';
import { findInbox } from '../store/inboxes.ts';
import { listMessages, storeCustomerMessage, type CustomerMessage } from '../store/messages.ts';
import type { OutboxWork } from '../store/outbox.ts';
import { askSurvey, saveSurvey, saveSurveyAnswer, surveyQuestion } from '../store/surveys.ts';
import {
  createMessageCounter,
  messageLimits as limitsInForce,
  type MessageLimits,
  type Sender,
} from './message-limits.ts';
import { conversationViews, unreadCount } from '../store/views.ts';

export interface ConversationServiceDeps {
  sql: Sql;
  /** A conversation is opened only where its inbox's engine account holds a key for the customer's environment. */
  engines: Pick<EngineAccounts, 'forInbox'>;
  relay: Pick<Relay, 'kick' | 'surveyAnswered' | 'leaseRequest'>;
  publisher: Publisher;
  now: () => Date;
  /** Counts new messages per customer, per address and per inbox before they go to the engine (message-limits.ts). */
  messageLimiter: RateLimiter;
  /** Other numbers for some of the limits (a test lifting one); MESSAGE_LIMITS by default. */
  messageLimits?: Partial<MessageLimits> | undefined;
}

const PAGE_SIZE = 100;
/** A survey takes answers (and changes) for 14 days after it was asked, as Chatwoot's does. */
const SURVEY_LOCK_MS = 14 * 24 * 3600_000;

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
  const counter = createMessageCounter({ limiter: messageLimiter, limits: limitsInForce(messageLimits) });

  /** A new message counts against its customer's, its address's and its inbox's minute; over any it is refused (and not kept). */
  async function countMessage(db: Queryable, sender: Sender): Promise<void> {
    const { refusal } = await counter.count(db, sender, now());
    if (refusal) throw refusal;
  }

  /**
   * The send as one statement, with no transaction around it (two round trips to the store fewer
   * on the busiest path): the message is counted first and given back when it was not kept (a
   * retry of one kept already, or no such conversation). It gives undefined, having kept and
   * counted nothing, when the send needs the transaction: over a limit (which refuses the message
   * unless it is a retry, and a retry is free) or when someone hears of the inbox (the helpdesk's
   * webhooks, the only durable subscriber, record the message in the same transaction).
   */
  async function sendAlone(
    sender: Sender,
    uuid: string,
    message: CustomerMessage,
    standing: SessionStanding | undefined,
  ): Promise<
    | {
        sent:
          | {
              conversation: ConversationRecord;
              result: { message: WidgetMessage; created: boolean };
              claimed?: OutboxWork;
            }
          | undefined;
      }
    | undefined
  > {
    const at = now();
    const { keys } = await counter.count(sql, sender, at);
    if (!keys) return undefined;
    let counted = false;
    try {
      const found = await storeCustomerMessage(sql, sender, uuid, message, at, standing, true, relay.leaseRequest());
      if (!found) return { sent: undefined };
      if (found.heard) return undefined;
      const { conversation, stored } = found;
      if (!stored) throw new ParleyError('invalid_state', `Conversation ${uuid} is resolved; start a new one.`);
      counted = stored.created;
      return { sent: { conversation, result: stored, ...(found.claimed && { claimed: found.claimed }) } };
    } finally {
      if (!counted) await counter.giveBack(keys, at);
    }
  }

  async function mine(customer: Customer, uuid: string): Promise<ConversationRecord> {
    const conversation = await findCustomerConversation(sql, customer, uuid);
    if (!conversation) throw new ParleyError('not_found', `No conversation ${uuid} for this customer.`);
    return conversation;
  }

  async function view(customer: Customer, conversation: ConversationRecord): Promise<WidgetConversation> {
    const [found] = await conversationViews(sql, { ...customer, id: conversation.id });
    return found!;
  }

  return {
    mine,

    /** `locale` is the language the widget shows: the greeting comes in it when the inbox has it. */
    async config(session: Session, locale?: string): Promise<WidgetConfig> {
      const inbox = await findInbox(sql, session.inboxId);
      if (!inbox) throw new ParleyError('not_found', 'The inbox of this session no longer exists.');
      const shown = inbox.presentation;
      // Unset settings are left out, so the widget shows nothing for them rather than empty text.
      const given = (value: string) => value || undefined;
      return {
        inbox: {
          name: inbox.name,
          greeting: greetingIn(inbox.greeting, shown.greetingTranslations, locale),
          color: inbox.color,
          locale: inbox.locale,
          avatar_url: given(shown.avatarUrl),
          reply_time: shown.replyTime ?? undefined,
          welcome_title: given(shown.welcomeTitle),
          welcome_tagline: given(shown.welcomeTagline),
          suggested_questions: shown.suggestedQuestions.length ? shown.suggestedQuestions : undefined,
          email: given(shown.email),
          ...(inbox.workingHoursEnabled && isAway(shown.workingHours ?? ALWAYS_OPEN, inbox.timezone, now())
            ? { away: true, out_of_office_message: given(inbox.outOfOfficeMessage) }
            : {}),
        },
        features: {
          survey: inbox.surveyEnabled,
          prechat_form: inbox.prechatEnabled && !session.verified,
          several_conversations: true,
        },
        // The reference as the site's server gave it (a sandbox customer's own space is the BFF's business).
        customer: {
          customer_ref: givenCustomerRef(session.customerRef),
          verified: session.verified,
          name: session.name ?? null,
        },
      };
    },

    /** Opens a conversation; a visitor's pre-chat name and email are kept with it. */
    async open(
      customer: Customer,
      contact: {
        name?: string | undefined;
        email?: string | undefined;
        pageUrl?: string | undefined;
        locale?: string | undefined;
      } = {},
    ): Promise<WidgetConversation> {
      // Kept only when it can go to the engine: with the key of the inbox's engine account and the customer's own environment.
      await engines.forInbox(customer.inboxId, customer.environment);
      const conversation = await sql.transaction(async (tx) => {
        const created = await insertConversation(tx, customer, now(), contact);
        await publisher.record(tx, created, [{ type: 'conversation.created' }]);
        return created;
      });
      publisher.publish(conversation, { type: 'conversation.created' });
      return view(customer, conversation);
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

    /**
     * Keeps the customer's message and queues it for the engine. The same `message_id` again
     * gives back the first copy and changes nothing, so every retry is safe. `attach` keeps the
     * files of a new message in the same transaction (the attachments' service gives it).
     */
    async send(
      sender: Sender & Pick<Session, 'standingToCheck'>,
      uuid: string,
      request: SendWidgetMessageRequest,
      attach?: (tx: Queryable, message: WidgetMessage, conversation: ConversationRecord) => Promise<WidgetAttachment[]>,
    ): Promise<{ message: WidgetMessage; created: boolean }> {
      const standing = sender.standingToCheck;
      const message = { text: request.text, messageId: request.message_id };
      // Files are kept with the message, in a transaction; a plain message usually needs none.
      const alone = attach ? undefined : await sendAlone(sender, uuid, message, standing);
      const sent =
        alone !== undefined
          ? alone.sent
          : await sql.transaction(async (tx) => {
              // Found, locked (which orders the conversation's messages) and kept in one statement; it
              // also asks whether the session still stands, when the session check left that to it.
              const found = await storeCustomerMessage(tx, sender, uuid, message, now(), standing);
              if (!found) return undefined;
              const { conversation, stored: result } = found;
              if (!result) throw new ParleyError('invalid_state', `Conversation ${uuid} is resolved; start a new one.`);
              // Only a new message counts (a retry of one kept already is free); over a limit it is not kept.
              if (result.created) await countMessage(tx, sender);
              if (result.created && attach)
                result.message = { ...result.message, attachments: await attach(tx, result.message, conversation) };
              if (result.created)
                await publisher.record(tx, conversation, [{ type: 'message.created', message: result.message }]);
              return { conversation, result };
            });
      if (!sent) {
        // A revoked or ended session is a 401, whichever conversation it names (asked after the
        // transaction, so that it never waits for a second connection while holding one).
        await standing?.confirm();
        throw new ParleyError('not_found', `No conversation ${uuid} for this customer.`);
      }
      const { conversation, result } = sent;
      if (result.created) {
        publisher.publishBatch({
          conversation,
          changes: [{ type: 'message.created', message: result.message }],
          exceptSocket: request.socket_id,
        });
        relay.kick(conversation.id, alone?.sent?.claimed);
      }
      return result;
    },

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
      if (conversation.status === 'resolved')
        throw new ParleyError('invalid_state', `Conversation ${uuid} is already resolved.`);
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
      return view(customer, conversation);
    },

    async answerSurvey(
      customer: Customer,
      uuid: string,
      answer: { rating: number; comment?: string | undefined },
    ): Promise<{ conversation_id: string; rating: number; comment: string }> {
      const comment = answer.comment ?? '';
      await rate(await mine(customer, uuid), answer.rating, comment);
      return { conversation_id: uuid, rating: answer.rating, comment };
    },

    rate,
  };

  /**
   * The one way a survey is answered (widget, Client API, survey page): the conversation must have
   * been asked, and the answer may change until 14 days after the question.
   */
  async function rate(conversation: ConversationRecord, rating: number, comment: string): Promise<void> {
    if (conversation.status !== 'resolved')
      throw new ParleyError('invalid_state', 'The survey opens when the conversation is resolved.');
    const question = await surveyQuestion(sql, conversation.id);
    if (!question) throw new ParleyError('invalid_state', 'This conversation was not asked for a rating.');
    if (now().getTime() - question.askedAt.getTime() > SURVEY_LOCK_MS)
      throw new ParleyError('unprocessable', 'The survey is locked 14 days after it was asked.');
    await sql.transaction(async (tx) => {
      await saveSurvey(tx, conversation.id, rating, comment, now());
      await saveSurveyAnswer(tx, question.id, rating, comment);
      await publisher.record(tx, conversation, [{ type: 'message.answered', messageId: question.id }]);
    });
    publisher.publish(conversation, { type: 'message.answered', messageId: question.id });
    // The engine gets the answer through the relay (after the close), so it is not lost while the engine is away.
    relay.surveyAnswered(conversation.id);
  }
}

export type ConversationService = ReturnType<typeof createConversationService>;
