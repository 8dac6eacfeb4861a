import type { EventOf } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import { customerConversations, eraseCustomer, type ErasureResult } from './erasure-store.ts';
import { markEventSeen, seenEngineEvents } from '../store/events-seen.ts';
import type { EngineScope } from './engine-accounts-store.ts';
import type { Environment } from '../store/inboxes.ts';

/** Deletes the attachments of these conversations, rows and bytes, at once (the attachment store's part of an erasure). */
export type EraseAttachments = (conversationIds: readonly number[]) => Promise<unknown>;

export interface CustomerErasureDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  /** The attachments' part; without attachments there is nothing to do. */
  eraseAttachments?: EraseAttachments | undefined;
}

/**
 * The BFF's side of forgetting a customer: when the engine's `customer.forgotten` event arrives (by
 * webhook or from the feed), everything the BFF keeps of that customer in the event's environment,
 * among the inboxes served by the engine account that forgot them (another account's customer of
 * the same reference stays), is erased in one transaction, once per event, and the customer's open
 * sockets are closed (the listeners of `onErased`). The log says how much was erased, never whom.
 */
export function createCustomerErasure({
  sql,
  logger,
  now,
  eraseAttachments = async () => undefined,
}: CustomerErasureDeps) {
  const listeners = new Set<(result: ErasureResult) => void>();
  return {
    async erase(
      scope: EngineScope,
      environment: Environment,
      event: EventOf<'customer.forgotten'>,
      byWebhook: boolean,
    ): Promise<ErasureResult | undefined> {
      if ((await seenEngineEvents(sql, [event.id])).has(event.id)) return undefined;
      const customer = {
        scope,
        environment,
        customerRef: event.data.customer_ref,
        engineConversationIds: event.data.conversation_ids,
      };
      // The bytes first, outside the transaction (a bucket may be slow); a file sent meanwhile loses its
      // row with its message below, and the attachment sweep deletes its bytes.
      await eraseAttachments((await customerConversations(sql, customer)).map((row) => row.id));
      const result = await sql.transaction(async (tx) => {
        if (!(await markEventSeen(tx, event.id, now(), byWebhook))) return undefined;
        return eraseCustomer(tx, customer);
      });
      if (!result) return undefined;
      logger.info(
        {
          event: event.id,
          environment,
          conversations: result.conversations,
          messages: result.messages,
          contacts: result.contacts,
        },
        'a forgotten customer was erased',
      );
      for (const listener of listeners) {
        try {
          listener(result);
        } catch (error) {
          logger.error({ err: error }, "closing a forgotten customer's sockets failed");
        }
      }
      return result;
    },
    /** Hears of every erasure this node makes (to close the customer's sockets, on every node through the adapter). */
    onErased(listener: (result: ErasureResult) => void): void {
      listeners.add(listener);
    },
  };
}

export type CustomerErasure = ReturnType<typeof createCustomerErasure>;
