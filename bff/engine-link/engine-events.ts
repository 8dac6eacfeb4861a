import type { EngineEvent } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { CustomerErasure } from './customer-erasure.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import type { EngineScope } from './engine-accounts-store.ts';
import type { Environment } from '../store/inboxes.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import { settleCustomerMessages } from '../store/messages.ts';
import { applyEvent } from './event-application.ts';

export interface RecordOptions {
  /** The customer message whose forwarding brought these events: the engine has accepted it. */
  forwardedMessageRowId?: number | undefined;
  /** Changes to publish after the events' own, in the same batch (the end of the AI's typing). */
  then?: readonly Change[] | undefined;
  /** The events came by webhook (the engine's pushes are working). */
  byWebhook?: boolean | undefined;
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
  return {
    /** Applies `events` to the conversation in one transaction, then publishes what changed. */
    async record(
      conversation: ConversationRecord,
      events: readonly EngineEvent[],
      options: RecordOptions = {},
    ): Promise<void> {
      const changes: Change[] = [];
      const forwarded = options.forwardedMessageRowId ?? 0;
      await sql.transaction(async (tx) => {
        const at = now();
        let answerId = 0;
        for (const event of events)
          answerId =
            (await applyEvent({ tx, conversation, event, at, changes }, options.byWebhook ?? false)) ?? answerId;
        if (forwarded !== 0 || answerId !== 0) {
          const readIds = await settleCustomerMessages(tx, conversation.id, forwarded, answerId, at);
          // The forwarded message is delivered first, so that a read in the same batch wins.
          if (forwarded) changes.unshift({ type: 'message.status', messageId: forwarded, status: 'delivered' });
          for (const id of readIds) changes.push({ type: 'message.status', messageId: id, status: 'read' });
        }
        await publisher.record(tx, conversation, changes);
      });
      // After the commit only; `then` is copied as it is now.
      publisher.publish(conversation, ...changes, ...(options.then ?? []));
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
