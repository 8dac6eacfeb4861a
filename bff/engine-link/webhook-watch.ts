/**
 * Whether the engine's webhooks work (for feed-tail.ts): events the engine answered with are
 * watched for 30 seconds; one that has not come again by webhook, to any node, meanwhile makes
 * webhooks count as quiet, and the feed is read until they come again.
 */
import type { EngineEvent } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import { notBroughtByWebhook } from '../store/events-seen.ts';

/** At most this many answer events are watched at once; beyond, the oldest are dropped from the watch. */
const WATCHED_EVENTS = 1_000;

/** What the watch needs of the feed's timer: whether it runs, and a way to have it read while webhooks are quiet. */
export interface WatchedFeed {
  readonly stopped: boolean;
  readonly quiet: boolean;
  setQuiet(quiet: boolean): void;
  wake(): void;
}

export interface WebhookWatchDeps {
  sql: Sql;
  logger: Logger;
  feed: WatchedFeed;
  /** How long an event from the engine's answer may take to come again by webhook before webhooks count as quiet. */
  graceMs: number;
}

export function createWebhookWatch({ sql, logger, feed, graceMs }: WebhookWatchDeps) {
  // Events from the engine's answers, waiting to be seen again by webhook: id → when they count as missing.
  const watched = new Map<string, number>();
  // Events taken off the watch whose check is still under way (the verdict on webhooks not yet given).
  let deciding = 0;
  let watchTimer: NodeJS.Timeout | undefined;

  async function checkWatched(): Promise<void> {
    watchTimer = undefined;
    const due = [...watched].filter(([, at]) => at <= Date.now()).map(([id]) => id);
    for (const id of due) watched.delete(id);
    deciding += due.length;
    try {
      const missing = await notBroughtByWebhook(sql, due);
      if (missing.length > 0 && !feed.quiet) {
        logger.warn({ missing: missing.length }, 'engine webhooks are quiet; reading the feed until they come again');
        feed.setQuiet(true);
        feed.wake();
      } else if (missing.length === 0 && due.length > 0) {
        feed.setQuiet(false);
      }
    } catch (error) {
      logger.warn({ err: error }, 'checking for webhooks failed');
    } finally {
      deciding -= due.length;
    }
    if (watched.size > 0) watchLater();
  }

  function watchLater(): void {
    // Nothing watched (an answer with no reply in it, as a Resolve's): no timer, not one set to Infinity.
    if (watchTimer || feed.stopped || watched.size === 0) return;
    const first = Math.min(...watched.values());
    watchTimer = setTimeout(() => void checkWatched(), Math.max(0, first - Date.now()) + 10);
    watchTimer.unref();
  }

  return {
    /** The engine answered with these events: each should come again by webhook. */
    expect(events: readonly EngineEvent[]): void {
      if (feed.stopped) return;
      const dueAt = Date.now() + graceMs;
      for (const event of events) {
        if (event.type !== 'conversation.reply') continue;
        if (watched.size >= WATCHED_EVENTS) watched.delete(watched.keys().next().value!);
        watched.set(event.id, dueAt);
      }
      watchLater();
    },
    /** How many events from the engine's answers are waiting to come again by webhook, or being checked. */
    get watching(): number {
      return watched.size + deciding;
    },
    stop(): void {
      clearTimeout(watchTimer);
    },
  };
}
