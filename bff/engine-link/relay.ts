import { randomToken, type EngineEvent } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { EngineAccounts } from './engine-accounts.ts';
import type { EngineEventRecorder } from './engine-events.ts';
import type { Publisher } from '../realtime/publisher.ts';
import { conversationsWithUpstreamWork } from '../store/outbox.ts';
import { conversationsWithSurveyToForward } from '../store/surveys.ts';
import type { OutboxForwardingDeps } from './outbox-forwarding.ts';
import { createOutboxRunner } from './outbox-runner.ts';
import { forwardSurvey } from './survey-forwarding.ts';

// Waits between attempts while the engine cannot be reached; the last one repeats.
const RETRY_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000];
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
  /** Where the customers' files are (voice notes go to the engine, issue 30). */
  attachmentStorage?: OutboxForwardingDeps['attachmentStorage'];
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
  attachmentStorage,
}: RelayDeps) {
  // This relay's name in the conversations' leases (one per process).
  const owner = `relay_${randomToken(12)}`;
  const forwarding: OutboxForwardingDeps = {
    sql,
    engines,
    recorder,
    publisher,
    logger,
    now,
    typingAfterMs,
    onAnswer,
    owner,
    attachmentStorage,
  };
  // Conversations with a survey answer the engine does not have yet; asked for only for these.
  const surveys = new Set<number>();

  /**
   * After the messages and the close: the customer's survey answer. Taken off first: an answer
   * changed meanwhile puts it back, and the kick it makes sends that too.
   */
  async function forwardSurveyAnswer(conversationId: number): Promise<void> {
    if (!surveys.delete(conversationId)) return;
    try {
      await forwardSurvey({ sql, engines, logger }, conversationId);
    } catch (error) {
      surveys.add(conversationId);
      throw error;
    }
  }

  const runner = createOutboxRunner({
    forwarding,
    logger,
    retryDelaysMs,
    afterDrain: forwardSurveyAnswer,
    onEngineBack,
  });

  return {
    kick: runner.kick,
    /** The customer answered the conversation's survey (or changed the answer): the engine is told, after the conversation's close. */
    surveyAnswered(conversationId: number): void {
      surveys.add(conversationId);
      runner.kick(conversationId);
    },
    /** Picks up every message, close and survey answer that was waiting when the process stopped. */
    async resume(): Promise<void> {
      for (const id of await conversationsWithSurveyToForward(sql)) surveys.add(id);
      for (const id of new Set([...(await conversationsWithUpstreamWork(sql)), ...surveys])) runner.kick(id);
    },
    settled: runner.settled,
    /** Conversations waiting for a retry, for tests and health checks. */
    get backlog(): number {
      return runner.backlog;
    },
    close: runner.close,
  };
}

export type Relay = ReturnType<typeof createRelay>;
