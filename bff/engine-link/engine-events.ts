import type { EngineEvent } from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import type { CustomerErasure } from './customer-erasure.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import type { EngineScope } from './engine-accounts-store.ts';
import type { Environment } from '../store/inboxes.ts';
import { updateConversation, type ConversationRecord } from '../store/conversations.ts';
import { markEventSeen } from '../store/events-seen.ts';
import {
  insertMessage,
  messageIdOfEvent,
  recordAnswerEvent,
  settleCustomerMessages,
  type MessageSender,
  type NewMessage,
} from '../store/messages.ts';
import type { OutboxWork } from '../store/outbox.ts';
import { askSurvey } from '../store/surveys.ts';

/** Notices the widget shows when the engine moves a conversation. */
export const NOTICES = {
  handover: "You're being connected with a person from our team. They will answer here.",
  handback: "You're chatting with our AI assistant again.",
} as const;

/** Who answered, from the `author_ref` the helpdesk gave the engine (`user:12`, `agent_bot:3`); anything else names nobody. */
function senderOf(ref: string | undefined): MessageSender | undefined {
  const [, kind, id] = /^(user|agent_bot):(\d{1,9})$/.exec(ref ?? '') ?? [];
  if (!kind || !id) return undefined;
  return kind === 'user' ? { userId: Number(id) } : { agentBotId: Number(id) };
}

/** The message of an event that answers the customer (the AI's reply, a person's answer); undefined for any other event. */
function answerOf(event: EngineEvent): NewMessage | undefined {
  switch (event.type) {
    case 'conversation.reply': {
      const { text, choices, card } = event.data;
      return { author: 'ai', text, attributes: { choices, card } };
    }
    case 'conversation.human_message':
      return {
        author: 'human',
        text: event.data.text,
        authorName: event.data.author_name,
        sender: senderOf(event.data.author_ref),
      };
    default:
      return undefined;
  }
}

export interface RecordOptions {
  /** The customer message whose forwarding brought these events: the engine has accepted it. */
  forwardedMessageRowId?: number | undefined;
  /** Changes to publish after the events' own, in the same batch (the end of the AI's typing). */
  then?: readonly Change[] | undefined;
  /** The events came by webhook (the engine's pushes are working). */
  byWebhook?: boolean | undefined;
  /** The relay's lease on the conversation: when the step's one statement can end the relay's step too, it does. */
  lease?: { owner: string; until: Date } | undefined;
}

/**
 * Turns engine events into stored messages and conversation changes, and publishes them once
 * committed, as one batch. Events arrive by more than one path (the engine's answer, webhooks, the
 * feed); the table of seen event ids makes each count once. Events of types the BFF shows nothing
 * for (action requests, quality scores, types added later) are only marked seen.
 */
export function createEngineEventRecorder({
  sql,
  publisher,
  now,
  erasure,
}: {
  sql: Sql;
  publisher: Publisher;
  now: () => Date;
  erasure?: CustomerErasure;
}) {
  /** Applies one event; gives the id of the message that answered the customer, if it made one. */
  async function apply(
    tx: Queryable,
    conversation: ConversationRecord,
    event: EngineEvent,
    at: Date,
    changes: Change[],
    byWebhook: boolean,
  ): Promise<number | undefined> {
    if (!(await markEventSeen(tx, event.id, at, byWebhook))) {
      // Kept before by another path (a webhook that raced the engine's answer): its message still answers.
      return answerOf(event) ? messageIdOfEvent(tx, conversation.id, event.id) : undefined;
    }
    const say = async (message: NewMessage): Promise<number | undefined> => {
      const { message: stored, created } = await insertMessage(
        tx,
        conversation,
        { ...message, engineEventId: event.id },
        at,
      );
      if (!created) return undefined;
      changes.push({ type: 'message.created', message: stored });
      return stored.id;
    };
    /** A line for the people only (never the customer): why the AI handed over, what it asked the site to do. */
    const tellPeople = async (text: string): Promise<void> => {
      const { message: stored, created } = await insertMessage(
        tx,
        conversation,
        { author: 'system', text, messageId: `team.${event.id}`, private: true },
        at,
      );
      if (created) changes.push({ type: 'note.created', messageId: stored.id });
    };
    switch (event.type) {
      case 'conversation.action_request': {
        const { action, inputs, handled_by } = event.data;
        const given = Object.entries(inputs).map(
          ([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
        );
        await tellPeople(
          `The AI asked the site to run ${action}${given.length ? ` (${given.join(', ')})` : ''}${handled_by === 'sandbox' ? '; the sandbox ran it with its fixture' : ''}.`,
        );
        return undefined;
      }
      case 'conversation.reply':
      case 'conversation.human_message':
        return say(answerOf(event)!);
      case 'conversation.handover':
        await updateConversation(tx, conversation.id, { handledBy: 'human' }, at);
        conversation.handledBy = 'human';
        await say({ author: 'system', text: NOTICES.handover, attributes: { notice: 'handover' } });
        await tellPeople(
          `Handed over ${event.data.requested_by === 'ai' ? 'by the AI' : 'from the helpdesk'}: ${event.data.reason.replaceAll('_', ' ')}`,
        );
        changes.push({ type: 'handed_over' });
        return undefined;
      case 'conversation.handback':
        await updateConversation(tx, conversation.id, { handledBy: 'ai' }, at);
        conversation.handledBy = 'ai';
        await say({ author: 'system', text: NOTICES.handback, attributes: { notice: 'handback' } });
        changes.push({ type: 'handed_back' });
        return undefined;
      case 'conversation.closed': {
        const { resolved } = event.data;
        const wasOpen = conversation.status === 'open';
        await updateConversation(
          tx,
          conversation.id,
          { status: 'resolved', engineClosed: true, resolvedByAi: resolved },
          at,
        );
        conversation.status = 'resolved';
        conversation.engineClosed = true;
        // A close the customer asked for was already announced and asked for a rating; one the AI made is news.
        if (!wasOpen) return undefined;
        changes.push({ type: 'closed', resolved });
        const question = await askSurvey(tx, conversation, at);
        if (question) changes.push({ type: 'survey.asked', question });
        return undefined;
      }
      default:
        return undefined;
    }
  }

  return {
    /** Applies `events` to the conversation in one transaction, then publishes what changed. */
    async record(
      conversation: ConversationRecord,
      events: readonly EngineEvent[],
      options: RecordOptions = {},
    ): Promise<{ next: OutboxWork | undefined } | undefined> {
      const changes: Change[] = [];
      const forwarded = options.forwardedMessageRowId ?? 0;
      /** The forwarded message is delivered (first, so that a read in the same batch wins), and the answered ones are read. */
      const settled = (forwardedId: number, readIds: readonly number[]) => {
        if (forwardedId) changes.unshift({ type: 'message.status', messageId: forwardedId, status: 'delivered' });
        for (const id of readIds) changes.push({ type: 'message.status', messageId: id, status: 'read' });
      };
      const [only] = events;
      const answer = events.length === 1 && only ? answerOf(only) : undefined;
      if (only && answer) {
        // The usual step, when nobody hears of the inbox: one statement and no transaction (the
        // helpdesk's webhooks are the only durable subscriber, and they would record nothing).
        const alone = await recordAnswerEvent(
          sql,
          conversation,
          { ...answer, engineEventId: only.id },
          { byWebhook: options.byWebhook ?? false },
          forwarded,
          now(),
          true,
          options.lease,
        );
        if (!alone.heard) {
          if (alone.created) changes.push({ type: 'message.created', message: alone.created });
          settled(forwarded, alone.readIds);
          publisher.publish(conversation, ...changes, ...(options.then ?? []));
          return options.lease && { next: alone.next };
        }
      }
      await sql.transaction(async (tx) => {
        const at = now();
        if (only && answer) {
          // The usual step (one answer to one message): seen, kept and settled in one statement.
          const recorded = await recordAnswerEvent(
            tx,
            conversation,
            { ...answer, engineEventId: only.id },
            { byWebhook: options.byWebhook ?? false },
            forwarded,
            at,
          );
          if (recorded.created) changes.push({ type: 'message.created', message: recorded.created });
          settled(forwarded, recorded.readIds);
        } else {
          let answerId = 0;
          for (const event of events)
            answerId = (await apply(tx, conversation, event, at, changes, options.byWebhook ?? false)) ?? answerId;
          if (forwarded !== 0 || answerId !== 0)
            settled(forwarded, await settleCustomerMessages(tx, conversation.id, forwarded, answerId, at));
        }
        await publisher.record(tx, conversation, changes);
      });
      // After the commit only; `then` is copied as it is now.
      publisher.publish(conversation, ...changes, ...(options.then ?? []));
      return undefined;
    },

    /**
     * Applies an event of no conversation, from the engine account (`scope`) and environment whose
     * feed or webhook brought it: `customer.forgotten` erases that customer here (once), among the
     * customers of the inboxes that engine account serves only; others (`ping`, `report.ready`)
     * change nothing.
     */
    async recordAccountEvent(
      scope: EngineScope,
      environment: Environment,
      event: EngineEvent,
      options: Pick<RecordOptions, 'byWebhook'> = {},
    ): Promise<void> {
      if (event.type === 'customer.forgotten')
        await erasure?.erase(scope, environment, event, options.byWebhook ?? false);
    },
  };
}

export type EngineEventRecorder = ReturnType<typeof createEngineEventRecorder>;
