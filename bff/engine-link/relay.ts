import { randomToken, type EngineEvent } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import { EngineCallError } from './engine-client.ts';
import type { EngineAccounts } from './engine-accounts.ts';
import type { EngineEventRecorder } from './engine-events.ts';
import { givenCustomerRef } from '../widget/customer-refs.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import { attachEngineConversation, updateConversation, type ConversationRecord } from '../store/conversations.ts';
import type { LeaseRequest } from '../store/messages.ts';
import {
  claimOutbox,
  continueOutbox,
  conversationsWithUpstreamWork,
  releaseOutbox,
  setUpstream,
  type OutboxWork,
  type PendingMessage,
} from '../store/outbox.ts';
import { conversationsWithSurveyToForward } from '../store/surveys.ts';
import { forwardSurvey } from './survey-forwarding.ts';

// Waits between attempts while the engine cannot be reached; the last one repeats.
const RETRY_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000];
// A relay's hold on one conversation's outbox: longer than any engine call, renewed at each step.
const LEASE_MS = 60_000;
// The AI's typing indicator shows when its answer takes longer than this: a quicker answer comes
// with no indicator that would only flicker (and with one push fewer to every tab).
export const AI_TYPING_AFTER_MS = 300;

export interface RelayDeps {
  sql: Sql;
  engines: Pick<EngineAccounts, 'forInbox'>;
  recorder: EngineEventRecorder;
  publisher: Publisher;
  logger: Logger;
  now: () => Date;
  retryDelaysMs?: readonly number[];
  /** How long the engine may take to answer before the AI's typing indicator shows (AI_TYPING_AFTER_MS). */
  typingAfterMs?: number;
  /** The engine answered with these events (they should also come by webhook). */
  onAnswer?: (events: readonly EngineEvent[]) => void;
  /** The engine answers again after calls to it failed: what it did meanwhile may not have reached us. */
  onEngineBack?: () => void;
}

/**
 * The outbox: per conversation, one at a time and in order, forwards the customer's pending
 * messages to the engine (then a close the customer asked for, then the customer's survey
 * answer). Each call carries the customer's `message_id` and an `Idempotency-Key`, so a retry
 * can never double anything. While the engine cannot be reached, or asks us to slow down, the
 * work stays in the store and is tried again (honouring `Retry-After`); nothing is dropped, and
 * pending work is picked up again at start.
 */
export function createRelay({
  sql,
  engines,
  recorder,
  publisher,
  logger,
  now,
  retryDelaysMs = RETRY_DELAYS_MS,
  typingAfterMs = AI_TYPING_AFTER_MS,
  onAnswer,
  onEngineBack,
}: RelayDeps) {
  const running = new Map<number, Promise<void>>();
  const again = new Set<number>();
  // At most one waiting retry per conversation, however many of its messages wait.
  const timers = new Map<number, NodeJS.Timeout>();
  const failures = new Map<number, number>();
  // Conversations with a survey answer the engine does not have yet; asked for only for these.
  const surveys = new Set<number>();
  let closed = false;
  // This relay's name in the conversations' leases (one per process).
  const owner = `relay_${randomToken(12)}`;
  const leaseUntil = () => new Date(now().getTime() + LEASE_MS);

  async function engineConversation(conversation: ConversationRecord): Promise<string> {
    if (conversation.engineConversationId) return conversation.engineConversationId;
    const opened = await (
      await engines.forInbox(conversation.inboxId, conversation.environment)
    ).openConversation(givenCustomerRef(conversation.customerRef), `open-${conversation.uuid}`);
    return (conversation.engineConversationId = await attachEngineConversation(sql, conversation.id, opened.id));
  }

  /**
   * The AI's typing indicator while the engine works on one message: shown once the answer takes
   * longer than `typingAfterMs` (or at the first piece of a streamed reply), never after `end`.
   */
  function typingIndicator(conversation: ConversationRecord) {
    let shown = false;
    let ended = false;
    const show = () => {
      if (shown || ended) return;
      shown = true;
      publisher.publish(conversation, { type: 'typing', who: 'ai', typing: true });
    };
    const timer = conversation.handledBy === 'ai' ? setTimeout(show, typingAfterMs) : undefined;
    return {
      show,
      /** Ends it: gives the change that stops it (to send with the answer), none when it never showed. */
      end(): Change[] {
        clearTimeout(timer);
        if (ended) return [];
        ended = true;
        return shown ? [{ type: 'typing', who: 'ai', typing: false }] : [];
      },
    };
  }

  /** Gives what to do next when the answer's record ended the step too (renewed or let go the lease). */
  async function forwardMessage(
    conversation: ConversationRecord,
    pending: PendingMessage,
  ): Promise<{ next: OutboxWork | undefined } | undefined> {
    const engineId = await engineConversation(conversation);
    // The answer may hand the conversation over; an indicator shown meanwhile must still stop, in the answer's own batch.
    const typing = typingIndicator(conversation);
    let typingDone: Change[] = [];
    try {
      // The reply's pieces go to the customer's open tabs as the AI writes them (an LLM; the retrieval brain's reply comes whole).
      const onDelta =
        conversation.handledBy === 'ai'
          ? (text: string) => {
              typing.show();
              publisher.publish(conversation, { type: 'reply.delta', text });
            }
          : undefined;
      const engine = await engines.forInbox(conversation.inboxId, conversation.environment);
      const answer = await engine.sendMessage(
        engineId,
        {
          text: pending.text,
          message_id: pending.messageId,
          ...(conversation.locale ? { locale: conversation.locale } : {}),
        },
        `send-${conversation.uuid}-${pending.messageId}`,
        onDelta,
      );
      typingDone = typing.end();
      // The lease is renewed from now, after the engine's answer (which may have taken a while).
      const after = await recorder.record(conversation, answer.events, {
        forwardedMessageRowId: pending.id,
        then: typingDone,
        lease: { owner, until: leaseUntil() },
      });
      // Sent with the answer; should recording fail, `finally` still ends the indicator.
      typingDone = [];
      onAnswer?.(answer.events);
      return after;
    } catch (error) {
      if (!(error instanceof EngineCallError) || error.retryable) throw error;
      logger.warn(
        { conversation: conversation.uuid, messageRowId: pending.id, code: error.code },
        'the engine refused a message for good',
      );
      const failed: Change = { type: 'message.status', messageId: pending.id, status: 'failed' };
      await sql.transaction(async (tx) => {
        await setUpstream(tx, pending.id, 'rejected');
        await publisher.record(tx, conversation, [failed]);
      });
      publisher.publish(conversation, failed, ...typingDone.splice(0), ...typing.end());
      return undefined;
    } finally {
      publisher.publish(conversation, ...typingDone, ...typing.end());
    }
  }

  async function forwardClose(conversation: ConversationRecord): Promise<void> {
    if (!conversation.closeRequested || conversation.engineClosed) return;
    if (conversation.engineConversationId) {
      try {
        const change = await (
          await engines.forInbox(conversation.inboxId, conversation.environment)
        ).close(conversation.engineConversationId, `close-${conversation.uuid}`);
        await recorder.record(conversation, change.events);
        onAnswer?.(change.events);
      } catch (error) {
        // Already closed there (the AI closed it first): nothing left to tell.
        if (!(error instanceof EngineCallError) || error.code !== 'invalid_state') throw error;
      }
    }
    await updateConversation(sql, conversation.id, { engineClosed: true }, now());
  }

  /**
   * Forwards the pending messages in order, then a close the customer asked for. Each step takes
   * (or renews) the conversation's lease and reads its work in one statement: only the relay
   * holding the lease drains it, so with several nodes its messages still reach the engine one by
   * one, in order. After a message, the same statement lets the lease go when no work is left (work
   * stored meanwhile by another node, which could not take the lease, is seen there and done here).
   * Gives false when another relay holds the lease.
   */
  async function drain(conversationId: number, claimed?: OutboxWork): Promise<boolean> {
    for (;;) {
      // Taken already by the statement that kept the message, the first time round.
      let work = claimed ?? (await claimOutbox(sql, conversationId, owner, now(), leaseUntil()));
      claimed = undefined;
      if (!work) return false;
      let held = true;
      let workLeft = false;
      try {
        while (work?.pending) {
          const after = await forwardMessage(work.conversation, work.pending);
          work = after ? after.next : await continueOutbox(sql, conversationId, owner, leaseUntil());
          held = work !== undefined;
        }
        if (work) await forwardClose(work.conversation);
      } finally {
        // Work stored meanwhile by another node (which could not take the lease) is done here.
        if (held) workLeft = await releaseOutbox(sql, conversationId, owner);
      }
      if (failures.delete(conversationId)) onEngineBack?.();
      if (!workLeft) return true;
    }
  }

  function later(conversationId: number, delay: number): void {
    if (closed || timers.has(conversationId)) return;
    const timer = setTimeout(() => {
      timers.delete(conversationId);
      kick(conversationId);
    }, delay);
    timer.unref();
    timers.set(conversationId, timer);
  }

  function run(conversationId: number, claimed?: OutboxWork): void {
    const task = drain(conversationId, claimed)
      .then(async (drained) => {
        // Another node holds the lease and drains it; should that node die, its lease runs out and this one takes over.
        if (!drained) later(conversationId, LEASE_MS);
        // After the messages and the close: the customer's survey answer.
        // Taken off first: an answer changed meanwhile puts it back, and the kick it makes sends that too.
        else if (surveys.delete(conversationId)) {
          try {
            await forwardSurvey({ sql, engines, logger }, conversationId);
          } catch (error) {
            surveys.add(conversationId);
            throw error;
          }
        }
      })
      .catch((error: unknown) => {
        const attempt = (failures.get(conversationId) ?? 0) + 1;
        failures.set(conversationId, attempt);
        const delay =
          (error instanceof EngineCallError ? error.retryAfterMs : undefined) ??
          retryDelaysMs[Math.min(attempt, retryDelaysMs.length) - 1] ??
          30_000;
        logger.warn({ conversationId, attempt, delay, err: error }, 'forwarding to the engine failed; will retry');
        later(conversationId, delay);
      })
      .finally(() => {
        running.delete(conversationId);
        if (again.delete(conversationId)) kick(conversationId);
      });
    running.set(conversationId, task);
  }

  /**
   * Makes sure the conversation's outbox is being drained (now, or right after the current pass).
   * `claimed`: the caller's statement took this relay's lease (`leaseRequest`) and read the first work.
   */
  function kick(conversationId: number, claimed?: OutboxWork): void {
    if (closed) {
      // Stopping: a lease taken for it is let go, so that another node need not wait for it to run out.
      if (claimed) void releaseOutbox(sql, conversationId, owner).catch(() => undefined);
      return;
    }
    if (running.has(conversationId)) again.add(conversationId);
    else run(conversationId, claimed);
  }

  /** The customer answered the conversation's survey (or changed the answer): the engine is told, after the conversation's close. */
  function surveyAnswered(conversationId: number): void {
    surveys.add(conversationId);
    kick(conversationId);
  }

  return {
    kick,
    surveyAnswered,
    /** What a statement keeping a customer's message needs to take this relay's lease with it (then `kick` with what it read). */
    leaseRequest: (): LeaseRequest => ({ owner, now: now(), until: leaseUntil() }),
    /** Picks up every message, close and survey answer that was waiting when the process stopped. */
    async resume(): Promise<void> {
      for (const id of await conversationsWithSurveyToForward(sql)) surveys.add(id);
      for (const id of new Set([...(await conversationsWithUpstreamWork(sql)), ...surveys])) kick(id);
    },
    /** Resolves when no conversation is being drained right now (retries may still be scheduled). */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
    /** Conversations waiting for a retry, for tests and health checks. */
    get backlog(): number {
      return timers.size;
    },
    async close(): Promise<void> {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
