import type { MessageStatus, WidgetMessage } from '../../shared/index.ts';
import type { Logger, Queryable } from '../../shared/server/index.ts';
import type { ConversationRecord } from '../store/conversations.ts';

/** Something that changed in a conversation, told to the sockets that follow it after it is committed. */
export type Change =
  /** The customer opened a new conversation. */
  | { type: 'conversation.created' }
  | { type: 'message.created'; message: WidgetMessage }
  /** A person's private note: for the people (and the account's webhooks) only, never the customer. */
  | { type: 'note.created'; messageId: number }
  /** A customer message moved on: delivered (the engine has it), read (answered), failed. */
  | { type: 'message.status'; messageId: number; status: MessageStatus }
  /** An interactive message (choices, the survey question) got its answer. */
  | { type: 'message.answered'; messageId: number }
  /** A piece of the AI's reply as an LLM writes it: for open sockets only (the reply is kept whole, once finished). */
  | { type: 'reply.delta'; text: string }
  /** The AI works on an answer, or a person types. */
  | { type: 'typing'; who: 'ai' | 'human'; typing: boolean }
  /** The customer types: for the people who answer, not for the customer's own tabs. */
  | { type: 'customer.typing'; typing: boolean }
  /** The customer has read up to a message: a read receipt for the people who answer. */
  | { type: 'customer.read'; lastReadId: number }
  | { type: 'handed_over' }
  | { type: 'handed_back' }
  | { type: 'closed'; resolved: boolean }
  /** People opened the resolved conversation again, on a new engine conversation, and answer it. */
  | { type: 'reopened' }
  /** The conversation was assigned to a person of the account (null: unassigned). */
  | { type: 'assigned'; assigneeId: number | null }
  /** A person snoozed the conversation until `until` (null: until the customer writes); a snooze ended by a person is one until now. */
  | { type: 'snoozed'; until: Date | null }
  /** A resolve asked for a rating with this survey question. */
  | { type: 'survey.asked'; question: WidgetMessage }
  /** A person changed the conversation's labels: for the people's open consoles only. */
  | { type: 'labels.changed' };

/** The changes of one step of one conversation (one transaction, one exchange), in order. */
export interface ChangeBatch {
  conversation: ConversationRecord;
  changes: readonly Change[];
  /** A widget socket that has these changes already (the tab whose request made them): not pushed to. */
  exceptSocket?: string | undefined;
}

/** A socket namespace (the widget's, the Client API's, later the people's) that turns batches into pushes. */
export type Subscriber = (batch: ChangeBatch) => void;

/**
 * What must outlive the process, written in the step's own transaction: the helpdesk's webhooks
 * (each delivery commits with the change it tells of, so none is lost to a crash after the commit).
 */
export type DurableSubscriber = (tx: Queryable, batch: ChangeBatch) => Promise<void>;

/**
 * The one way the BFF tells what changed. A step records its changes in its transaction (for the
 * durable subscribers: webhooks), then publishes them once committed, as one batch (for the
 * sockets); each subscriber decides what its clients are sent. Changes with nothing durable to say
 * (typing, read marks) are only published.
 *
 * @example
 * await sql.transaction(async (tx) => { …; await publisher.record(tx, conversation, changes) });
 * publisher.publish(conversation, ...changes);
 */
export class Publisher {
  readonly #subscribers: Subscriber[] = [];
  readonly #durable: DurableSubscriber[] = [];
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  subscribe(subscriber: Subscriber): void {
    this.#subscribers.push(subscriber);
  }

  subscribeDurable(subscriber: DurableSubscriber): void {
    this.#durable.push(subscriber);
  }

  /** Hands a step's changes to the durable subscribers inside its transaction (a failure there fails the step). */
  async record(tx: Queryable, conversation: ConversationRecord, changes: readonly Change[]): Promise<void> {
    if (changes.length === 0) return;
    const batch: ChangeBatch = { conversation, changes: coalesce(changes) };
    for (const subscriber of this.#durable) await subscriber(tx, batch);
  }

  publish(conversation: ConversationRecord, ...changes: Change[]): void {
    this.publishBatch({ conversation, changes });
  }

  /** As `publish`, for a batch that says more (the socket that has it already). */
  publishBatch({ conversation, changes, exceptSocket }: ChangeBatch): void {
    if (changes.length === 0) return;
    const batch: ChangeBatch = { conversation, changes: coalesce(changes), ...(exceptSocket && { exceptSocket }) };
    for (const subscriber of this.#subscribers) {
      try {
        subscriber(batch);
      } catch (error) {
        // A push that fails must not undo or hide what was committed; the client reads it by cursor.
        this.#logger.error({ err: error, conversation: conversation.uuid }, 'a push failed');
      }
    }
  }
}

/**
 * Within one batch, a message's last status is the only one worth sending: "delivered" and then
 * "read" in the same step is one change to "read".
 */
export function coalesce(changes: readonly Change[]): Change[] {
  const lastStatus = new Map<number, number>();
  changes.forEach((change, index) => {
    if (change.type === 'message.status') lastStatus.set(change.messageId, index);
  });
  return changes.filter(
    (change, index) => change.type !== 'message.status' || lastStatus.get(change.messageId) === index,
  );
}
