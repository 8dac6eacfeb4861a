import type { EventDraft } from '../store/events.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { LlmClient } from '../brain/llm-client.ts';
import { appendEvents } from '../store/events.ts';
import { addLlmUsage } from '../store/llm.ts';
import { claimMedia, nextLeaseEnd, settleMedia, type ClaimedMedia, type MediaOutcome } from '../store/media.ts';
import { understandMedia } from './understand.ts';
import { isVoiceNote } from './listen.ts';
import type { Transcriber } from './transcriber.ts';
import type { AnswerVoiceNote } from './voice-note-answer.ts';

/** A claim on one medium: longer than a model's call with its tries again (20 s timeout, three tries). */
const LEASE_MS = 120_000;
/** A medium whose understanding broke off this often (its process died each time) fails. */
const MAX_ATTEMPTS = 3;

export interface MediaWorkerDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  /** A model that reads images (LLM_VISION); without it images are understood by their facts alone. */
  vision?: LlmClient | undefined;
  /** A transcription API (STT_BASE_URL); without it voice notes fail as not_configured. */
  transcriber?: Transcriber | undefined;
  /** The AI answers a voice note of a conversation once it is heard (or says it cannot listen). */
  answerVoiceNote?: AnswerVoiceNote | undefined;
  /** Events were recorded (the webhook worker sends them now). */
  onEvents?: () => void;
}

export type MediaWorker = ReturnType<typeof createMediaWorker>;

/** What understanding one medium needs (the worker's own dependencies, without its log). */
type UnderstandDeps = Omit<MediaWorkerDeps, 'logger'>;

/** The event that tells how a medium's understanding ended. */
function outcomeEvent({ record }: ClaimedMedia, outcome: MediaOutcome): EventDraft {
  const common = {
    media_id: record.id,
    ...(record.conversation_id ? { conversation_id: record.conversation_id } : {}),
    type: record.type,
    size: record.size,
  };
  return outcome.status === 'understood'
    ? {
        type: 'media.understood',
        conversationId: record.conversation_id,
        data: {
          ...common,
          ...(record.width !== null ? { width: record.width } : {}),
          ...(record.height !== null ? { height: record.height } : {}),
          ...(outcome.pages !== undefined ? { pages: outcome.pages } : {}),
          ...(record.duration_s !== null ? { duration_s: record.duration_s } : {}),
          ...(outcome.text ? { text: outcome.text } : {}),
          ...(outcome.text && outcome.transcribed ? { transcript: outcome.text } : {}),
        },
      }
    : {
        type: 'media.failed',
        conversationId: record.conversation_id,
        data: { ...common, reason: outcome.reason, ...(outcome.code ? { code: outcome.code } : {}) },
      };
}

/** Records the outcome, the model's usage and the event in one transaction, only while the claim is still ours. */
async function settle(
  { sql, now, onEvents, answerVoiceNote }: UnderstandDeps,
  claimed: ClaimedMedia,
  outcome: MediaOutcome,
  usage: { promptTokens: number; completionTokens: number } | undefined,
): Promise<void> {
  const { owner } = claimed;
  const draft = outcomeEvent(claimed, outcome);
  const recorded = await sql.transaction(async (tx) => {
    const at = now();
    if (!(await settleMedia(tx, claimed, outcome, at))) return false;
    if (usage && usage.promptTokens + usage.completionTokens > 0) await addLlmUsage(tx, owner, usage, at);
    await appendEvents(tx, owner, [draft], at);
    return true;
  });
  if (!recorded) return;
  onEvents?.();
  const { record } = claimed;
  if (answerVoiceNote && record.conversation_id && isVoiceNote(record)) {
    // After the medium's own event: the feed tells the note was heard before the AI answers it.
    await answerVoiceNote({ owner, conversationId: record.conversation_id, mediaId: record.id, outcome });
    onEvents?.();
  }
}

/** Understands one claimed medium, or fails it once its understanding broke off too often. */
async function understandOne(deps: UnderstandDeps, claimed: ClaimedMedia): Promise<void> {
  if (claimed.attempts > MAX_ATTEMPTS) {
    await settle(
      deps,
      claimed,
      { status: 'failed', reason: `Understanding it broke off ${MAX_ATTEMPTS} times.` },
      undefined,
    );
    return;
  }
  const { outcome, usage } = await understandMedia(claimed.record, claimed.bytes, {
    vision: deps.vision,
    transcriber: deps.transcriber,
  });
  await settle(deps, claimed, outcome, usage);
}

/**
 * Understands uploaded media after the upload has answered, never in the request: each medium is
 * claimed in the database with a lease (SKIP LOCKED, so any number of engine processes share the
 * work), understood outside any transaction (a model may take seconds), then its outcome and its
 * event (`media.understood` or `media.failed`) are written in one transaction, only while the claim
 * is still this process's. A pass runs after each upload (`nudge`) and at start; media left
 * `processing` by a process that died are taken again once their lease runs out.
 */
export function createMediaWorker(deps: MediaWorkerDeps) {
  const { sql, logger, now } = deps;
  let running: Promise<void> | undefined;
  let again = false;
  let recheck: NodeJS.Timeout | undefined;
  let stopped = false;

  async function pass(): Promise<void> {
    for (;;) {
      if (stopped) return;
      const at = now();
      const claimed = await claimMedia(sql, at, new Date(at.getTime() + LEASE_MS));
      if (!claimed) break;
      try {
        await understandOne(deps, claimed);
      } catch (error) {
        // Left to its lease: it is taken again when the lease runs out (at most MAX_ATTEMPTS times).
        logger.error({ err: error, media: claimed.record.id }, 'understanding a medium failed');
      }
    }
    // Media another process holds: should it die, take them over when their lease runs out.
    const leaseEnd = await nextLeaseEnd(sql, now());
    if (leaseEnd && !recheck && !stopped) {
      recheck = setTimeout(
        () => {
          recheck = undefined;
          nudge();
        },
        Math.max(0, leaseEnd.getTime() - now().getTime()) + 1_000,
      );
      recheck.unref();
    }
  }

  function nudge(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => logger.error({ err: error }, 'a pass over uploaded media failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          nudge();
        }
      });
  }

  return {
    /** Understands what is waiting, now or right after the pass under way. */
    nudge,
    /** Resolves when no pass is under way or asked for (tests wait on the events instead where they can). */
    async settled(): Promise<void> {
      while (running) await running;
    },
    /** Takes no more work; resolves when the pass under way has ended. */
    async stop(): Promise<void> {
      stopped = true;
      if (recheck) clearTimeout(recheck);
      recheck = undefined;
      while (running) await running;
    },
  };
}
