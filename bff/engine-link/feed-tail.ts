import type { EngineEvent } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import { EngineCallError } from './engine-client.ts';
import type { EngineAccounts, EngineFeed } from './engine-accounts.ts';
import type { EngineEventRecorder } from './engine-events.ts';
import { findConversationByEngineId } from '../store/conversations.ts';
import { notBroughtByWebhook, seenEngineEvents } from '../store/events-seen.ts';

/** How long an event from the engine's answer may take to come again by webhook before webhooks count as quiet. */
const WEBHOOK_GRACE_MS = 30_000;
/** At most this many answer events are watched at once; beyond, the oldest are dropped from the watch. */
const WATCHED_EVENTS = 1_000;

export interface FeedTailDeps {
  sql: Sql;
  engines: Pick<EngineAccounts, 'feeds' | 'scopeOfInbox'>;
  recorder: EngineEventRecorder;
  logger: Logger;
  /** How often the feed is read while webhooks are quiet (or not set up); 0 turns the tail off. */
  pollMs: number;
  /** Whether the engine pushes events here by webhook (a secret is set). */
  webhooks: boolean;
  webhookGraceMs?: number;
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
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = true;
  let current: Promise<void> | undefined;
  let quiet = !webhooks;
  // Events from the engine's answers, waiting to be seen again by webhook: id → when they count as missing.
  const watched = new Map<string, number>();
  // Events taken off the watch whose check is still under way (the verdict on webhooks not yet given).
  let deciding = 0;
  let watchTimer: NodeJS.Timeout | undefined;

  /** Reads one page of a feed; true when there is more to read at once. */
  async function readPage(feed: EngineFeed): Promise<boolean> {
    const { scope, environment } = feed;
    const cursor = await feed.readCursor();
    const page = await feed.client.events(cursor, 100);
    // Most events came already (in the engine's answer or by webhook): one query finds them, and they are skipped.
    const seen = await seenEngineEvents(
      sql,
      page.events.map((event) => event.id),
    );
    for (const event of page.events) {
      if (seen.has(event.id)) continue;
      if (!event.conversation_id) {
        await recorder.recordAccountEvent(scope, environment, event);
        continue;
      }
      const conversation = await findConversationByEngineId(sql, event.conversation_id);
      if (conversation?.environment === environment && (await engines.scopeOfInbox(conversation.inboxId)) === scope)
        await recorder.record(conversation, [event]);
    }
    if (page.next && page.next !== cursor) await feed.writeCursor(page.next);
    return page.has_more;
  }

  /**
   * Reads every feed until it has nothing more. A feed that fails does not hold up the others: the
   * first failure is thrown once all were tried (the tick tries again); an account's feed the
   * engine refuses for good (its engine account deleted by another node meanwhile) is left alone.
   */
  async function readAll(): Promise<void> {
    let failure: unknown;
    for (const feed of await engines.feeds()) {
      try {
        while (await readPage(feed));
      } catch (error) {
        if (feed.scope !== null && error instanceof EngineCallError && !error.retryable) {
          logger.warn(
            { err: error, accountId: feed.scope, environment: feed.environment },
            "the engine refused this account's feed",
          );
          continue;
        }
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }

  /** Reads until the feed has nothing more; then, while webhooks are quiet, again after `pollMs`. */
  async function tick(): Promise<void> {
    timer = undefined;
    let delay = pollMs;
    running = true;
    try {
      current = readAll();
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

  /** Reads the feed soon (now, or right after the read under way). */
  function wake(): void {
    if (running) {
      // A failed read schedules its own retry; either way, read again once it is over.
      void current?.catch(() => undefined).then(() => schedule(0));
      return;
    }
    clearTimeout(timer);
    timer = undefined;
    schedule(0);
  }

  async function checkWatched(): Promise<void> {
    watchTimer = undefined;
    const due = [...watched].filter(([, at]) => at <= Date.now()).map(([id]) => id);
    for (const id of due) watched.delete(id);
    deciding += due.length;
    try {
      const missing = await notBroughtByWebhook(sql, due);
      if (missing.length > 0 && !quiet) {
        logger.warn({ missing: missing.length }, 'engine webhooks are quiet; reading the feed until they come again');
        quiet = true;
        wake();
      } else if (missing.length === 0 && due.length > 0) {
        quiet = false;
      }
    } catch (error) {
      logger.warn({ err: error }, 'checking for webhooks failed');
    } finally {
      deciding -= due.length;
    }
    if (watched.size > 0) watchLater();
  }

  function watchLater(): void {
    if (watchTimer || stopped) return;
    const first = Math.min(...watched.values());
    watchTimer = setTimeout(() => void checkWatched(), Math.max(0, first - Date.now()) + 10);
    watchTimer.unref();
  }

  return {
    start(): void {
      if (pollMs <= 0) return;
      stopped = false;
      schedule(0);
    },
    /** The engine answered with these events: each should come again by webhook. */
    expectWebhooks(events: readonly EngineEvent[]): void {
      if (!webhooks || stopped) return;
      const dueAt = Date.now() + webhookGraceMs;
      for (const event of events) {
        if (event.type !== 'conversation.reply') continue;
        if (watched.size >= WATCHED_EVENTS) watched.delete(watched.keys().next().value!);
        watched.set(event.id, dueAt);
      }
      watchLater();
    },
    /** A webhook came: the engine's pushes work, so the feed rests. */
    webhookArrived(): void {
      quiet = false;
    },
    /** The engine was unreachable and answers again: what it did meanwhile may not have reached us. */
    wake,
    /** How many events from the engine's answers are waiting to come again by webhook, or being checked. */
    get watching(): number {
      return watched.size + deciding;
    },
    /** Whether the feed is being read on a timer (webhooks quiet or not set up). */
    get polling(): boolean {
      return quiet && !stopped && pollMs > 0;
    },
    /** Reads until the feed has nothing more (for tests and for catching up on demand). */
    async catchUp(): Promise<void> {
      await current?.catch(() => undefined);
      await readAll();
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(watchTimer);
      await current?.catch(() => undefined);
    },
  };
}

export type FeedTail = ReturnType<typeof createFeedTail>;
