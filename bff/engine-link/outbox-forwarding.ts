/**
 * The steps of the relay's outbox (relay.ts): a customer's message forwarded to the engine with the
 * AI's typing indicator meanwhile, a close the customer asked for, and the pass that takes them in
 * order under the conversation's lease.
 */
import type { EngineEvent } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import { EngineCallError } from './engine-client.ts';
import type { EngineAccounts } from './engine-accounts.ts';
import type { EngineEventRecorder } from './engine-events.ts';
import { givenCustomerRef } from '../widget/customer-refs.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import { attachEngineConversation, updateConversation, type ConversationRecord } from '../store/conversations.ts';
import type { AttachmentStorage } from '../attachments/storage.ts';
import { forwardVoiceNotes, onlyVoiceNotes } from './voice-note-forwarding.ts';
import { claimOutbox, continueOutbox, releaseOutbox, setUpstream, type PendingMessage } from '../store/outbox.ts';

/**
 * A relay's hold on one conversation's outbox, renewed at each step and, while a step waits on the
 * engine, every LEASE_RENEW_MS (outbox-runner.ts): a node that dies lets its conversations go
 * within LEASE_MS, and another node (or itself, started again) takes them (issue 34: answers within
 * 15 s of a restart).
 */
export const LEASE_MS = 10_000;
/** How often a relay renews the leases of the conversations it is draining: three times a lease. */
export const LEASE_RENEW_MS = 3_000;

/** When a lease taken or renewed at `from` runs out. */
export const leaseUntil = (from: Date): Date => new Date(from.getTime() + LEASE_MS);

/** What the outbox's steps need: the store, the engine, where its answers go, and this relay's name in the leases. */
export interface OutboxForwardingDeps {
  sql: Sql;
  engines: Pick<EngineAccounts, 'forInbox'>;
  recorder: EngineEventRecorder;
  publisher: Publisher;
  logger: Logger;
  now: () => Date;
  /** How long the engine may take to answer before the AI's typing indicator shows. */
  typingAfterMs: number;
  /** The engine answered with these events (they should also come by webhook). */
  onAnswer: ((events: readonly EngineEvent[]) => void) | undefined;
  /** This relay's name in the conversations' leases (one per process). */
  owner: string;
  /** Where the customers' files are: their voice notes go to the engine's /v1/media (issue 30). */
  attachmentStorage?: AttachmentStorage | undefined;
}

async function engineConversation(
  { sql, engines }: OutboxForwardingDeps,
  conversation: ConversationRecord,
): Promise<string> {
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
function typingIndicator(publisher: Publisher, conversation: ConversationRecord, typingAfterMs: number) {
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

/** Forwards one pending message to the engine and records its answer (or that the engine refused it for good). */
async function forwardMessage(
  deps: OutboxForwardingDeps,
  conversation: ConversationRecord,
  pending: PendingMessage,
): Promise<void> {
  const { sql, engines, recorder, publisher, logger, onAnswer } = deps;
  const engineId = await engineConversation(deps, conversation);
  // The answer may hand the conversation over; an indicator shown meanwhile must still stop, in the answer's own batch.
  const typing = typingIndicator(publisher, conversation, deps.typingAfterMs);
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
    const place = { conversationUuid: conversation.uuid, engineConversationId: engineId };
    await forwardVoiceNotes(deps, engine, place, pending);
    if (onlyVoiceNotes(pending)) {
      // The answer comes later, to the transcript, by webhook or feed; the note itself is delivered.
      typingDone = typing.end();
      await recorder.record(conversation, [], { forwardedMessageRowId: pending.id, then: typingDone });
      typingDone = [];
      return;
    }
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
    await recorder.record(conversation, answer.events, { forwardedMessageRowId: pending.id, then: typingDone });
    // Sent with the answer; should recording fail, `finally` still ends the indicator.
    typingDone = [];
    onAnswer?.(answer.events);
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

async function forwardClose(
  { sql, engines, recorder, now, onAnswer }: OutboxForwardingDeps,
  conversation: ConversationRecord,
): Promise<void> {
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
 * Gives false when another relay holds the lease. `onPass` is called after each pass that went
 * through (the engine took what it was given).
 */
export async function drainOutbox(
  deps: OutboxForwardingDeps,
  conversationId: number,
  onPass: () => void,
): Promise<boolean> {
  const { sql, now, owner } = deps;
  for (;;) {
    let work = await claimOutbox(sql, conversationId, owner, now(), leaseUntil(now()));
    if (!work) return false;
    let held = true;
    let workLeft = false;
    try {
      while (work?.pending) {
        await forwardMessage(deps, work.conversation, work.pending);
        // The lease is renewed from now, after the engine's answer (which may have taken a while).
        work = await continueOutbox(sql, conversationId, owner, leaseUntil(now()));
        held = work !== undefined;
      }
      if (work) await forwardClose(deps, work.conversation);
    } finally {
      // Work stored meanwhile by another node (which could not take the lease) is done here.
      if (held) workLeft = await releaseOutbox(sql, conversationId, owner);
    }
    onPass();
    if (!workLeft) return true;
  }
}
