import type { EngineEvent } from '../../shared/index.ts';
import type { Logger } from '../../shared/server/index.ts';
import { EngineCallError } from './engine-client.ts';
import { readFeeds, type FeedReadingDeps } from './feed-reading.ts';
import { createWebhookWatch } from './webhook-watch.ts';

/** How long an event from the engine's answer may take to come again by webhook before webhooks count as quiet. */
const WEBHOOK_GRACE_MS = 30_000;

export interface FeedTailDeps extends FeedReadingDeps {
  /** How often the feed is read while webhooks are quiet (or not set up); 0 turns the tail off. */
  pollMs: number;
  /** Whether the engine pushes events here by webhook (a secret is set). */
  webhooks: boolean;
  webhookGraceMs?: number;
}

interface FeedPollDeps {
  read: () => Promise<void>;
  logger: Logger;
  pollMs: number;
  /** Whether webhooks count as quiet at start (none are set up). */
  quiet: boolean;
}

/**
 * The timer that reads the feeds: at start, when woken, after a failed read, and while webhooks
 * are `quiet` every `pollMs`.
 */
function createFeedPoll({ read, logger, pollMs, quiet: quietAtStart }: FeedPollDeps) {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = true;
  let current: Promise<void> | undefined;
  let quiet = quietAtStart;

  /** Reads until the feed has nothing more; then, while webhooks are quiet, again after `pollMs`. */
  async function tick(): Promise<void> {
    timer = undefined;
    let delay = pollMs;
    running = true;
    try {
      current = read();
      await current;
    } catch (error) {
      delay = error instanceof EngineCallError && error.retryAfterMs ? error.retryAfterMs : Math.max(pollMs, 2_000);
      logger.warn({ err: error, delay }, 'reading the engine feed failed; will retry');
      // A failed read is a gap still open: try again even when webhooks work.
      schedule(delay);
      return;
    } finally {
      running = false;
      current = undefined;
    }
    if (quiet) schedule(delay);
  }

  function schedule(delay: number): void {
    if (stopped || timer || pollMs <= 0) return;
    timer = setTimeout(() => void tick(), delay);
    timer.unref();
  }

  return {
    start(): void {
      if (pollMs <= 0) return;
      stopped = false;
      schedule(0);
    },
    /** Reads the feed soon (now, or right after the read under way). */
    wake(): void {
      if (running) {
        // A failed read schedules its own retry; either way, read again once it is over.
        void current?.catch(() => undefined).then(() => schedule(0));
        return;
      }
      clearTimeout(timer);
      timer = undefined;
      schedule(0);
    },
    get stopped(): boolean {
      return stopped;
    },
    get quiet(): boolean {
      return quiet;
    },
    setQuiet(value: boolean): void {
      quiet = value;
    },
    /** Lets the read under way end first. */
    async catchUp(): Promise<void> {
      await current?.catch(() => undefined);
      await read();
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await current?.catch(() => undefined);
    },
  };
}

/**
 * The engine's event feeds, one per engine account and environment (the installation's, and each
 * helpdesk account's own), each with its own cursor, read from the stored cursor only when it is
 * needed (DESIGN "after any downtime"): at start, after a gap (the engine was unreachable and is
 * back), and while webhooks are quiet. Webhooks count as quiet when none are set up, or when an
 * event the engine answered with has not come again by webhook, to any node, within 30 seconds;
 * they are working again when one arrives. Events of conversations this BFF knows are recorded
 * once, whichever path brought them first, and only into a conversation served by the engine
 * account whose feed it is (an event of one account never lands in another's conversation); the
 * cursor moves on only after a page is recorded, so a crash re-reads rather than skips.
 */
export function createFeedTail({
  sql,
  engines,
  recorder,
  logger,
  pollMs,
  webhooks,
  webhookGraceMs = WEBHOOK_GRACE_MS,
}: FeedTailDeps) {
  const poll = createFeedPoll({
    read: () => readFeeds({ sql, engines, recorder, logger }),
    logger,
    pollMs,
    quiet: !webhooks,
  });
  const watch = createWebhookWatch({ sql, logger, feed: poll, graceMs: webhookGraceMs });

  return {
    start: poll.start,
    /** The engine answered with these events: each should come again by webhook. */
    expectWebhooks(events: readonly EngineEvent[]): void {
      if (webhooks) watch.expect(events);
    },
    /** A webhook came: the engine's pushes work, so the feed rests. */
    webhookArrived(): void {
      poll.setQuiet(false);
    },
    /** The engine was unreachable and answers again: what it did meanwhile may not have reached us. */
    wake: poll.wake,
    /** How many events from the engine's answers are waiting to come again by webhook, or being checked. */
    get watching(): number {
      return watch.watching;
    },
    /** Whether the feed is being read on a timer (webhooks quiet or not set up). */
    get polling(): boolean {
      return poll.quiet && !poll.stopped && pollMs > 0;
    },
    /** Reads until the feed has nothing more (for tests and for catching up on demand). */
    catchUp: poll.catchUp,
    async stop(): Promise<void> {
      watch.stop();
      await poll.stop();
    },
  };
}

export type FeedTail = ReturnType<typeof createFeedTail>;
