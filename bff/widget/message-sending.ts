import {
  ParleyError,
  type SendWidgetMessageRequest,
  type WidgetAttachment,
  type WidgetMessage,
} from '../../shared/index.ts';
import type { Queryable, RateLimiter, Sql } from '../../shared/server/index.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { Relay } from '../engine-link/relay.ts';
import type { Session } from './sessions.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import { storeCustomerMessage } from '../store/customer-messages.ts';
import {
  createMessageCounter,
  messageLimits as limitsInForce,
  type MessageLimits,
  type Sender,
} from './message-limits.ts';

/** Keeps the files of a new message in the message's transaction (the attachments' service gives it). */
export type Attach = (
  tx: Queryable,
  message: WidgetMessage,
  conversation: ConversationRecord,
) => Promise<WidgetAttachment[]>;

export interface MessageSendingDeps {
  sql: Sql;
  relay: Pick<Relay, 'kick'>;
  publisher: Publisher;
  now: () => Date;
  messageLimiter: RateLimiter;
  messageLimits?: Partial<MessageLimits> | undefined;
}

/**
 * The one way a customer's message is kept and queued for the engine (the widget's routes and
 * socket, the Client API, messages with files). One transaction, each step in the order a reader
 * expects: the conversation found and locked, the message kept, counted against the limits (a
 * retry of a kept message is free; over a limit nothing is kept), its files kept, and its record
 * made for the durable subscribers (the helpdesk's webhooks). After the commit the message is
 * published and the relay is told.
 */
export function createMessageSending({
  sql,
  relay,
  publisher,
  now,
  messageLimiter,
  messageLimits,
}: MessageSendingDeps) {
  const counter = createMessageCounter({ limiter: messageLimiter, limits: limitsInForce(messageLimits) });

  /** A new message counts against its customer's, its address's and its inbox's minute; over any it is refused (and not kept). */
  async function countMessage(db: Queryable, sender: Sender): Promise<void> {
    const { refusal } = await counter.count(db, sender, now());
    if (refusal) throw refusal;
  }

  return {
    /**
     * Keeps the customer's message and queues it for the engine. The same `message_id` again
     * gives back the first copy and changes nothing, so every retry is safe.
     */
    async send(
      sender: Sender & Pick<Session, 'standingToCheck'>,
      uuid: string,
      request: SendWidgetMessageRequest,
      attach?: Attach,
    ): Promise<{ message: WidgetMessage; created: boolean }> {
      const standing = sender.standingToCheck;
      const message = { text: request.text, messageId: request.message_id };
      const sent = await sql.transaction(async (tx) => {
        // It also asks whether the session still stands, when the session check left that to it.
        const found = await storeCustomerMessage(tx, { owner: sender, uuid, message, now: now(), standing });
        if (!found) return undefined;
        const { conversation, stored: result } = found;
        if (!result) throw new ParleyError('invalid_state', `Conversation ${uuid} is resolved; start a new one.`);
        if (!result.created) return { conversation, result };
        await countMessage(tx, sender);
        if (attach) result.message = { ...result.message, attachments: await attach(tx, result.message, conversation) };
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
        relay.kick(conversation.id);
      }
      return result;
    },
  };
}
