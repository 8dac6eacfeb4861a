import type { Logger, Sql } from '../shared/server/index.ts';
import { EngineCallError, type EngineClient } from './engine-client.ts';
import type { EngineEventRecorder } from './engine-events.ts';
import { findConversationByEngineId, seenEngineEvents } from './store/conversations.ts';
import { readSetting, writeSetting } from './store/inboxes.ts';

const CURSOR = 'engine_feed_cursor';

/**
 * Reads the engine's event feed from the stored cursor: at start, after any gap, and every
 * `pollMs` while idle. Events of conversations this BFF knows are recorded (once, whichever path
 * brought them first); the cursor moves on only after a page is recorded, so a crash re-reads
 * rather than skips.
 */
export function createFeedTail({ sql, engine, recorder, logger, pollMs }: { sql: Sql; engine: EngineClient; recorder: EngineEventRecorder; logger: Logger; pollMs: number }) {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let current: Promise<boolean> | undefined;

  /** Reads one page; true when there is more to read at once. */
  async function readPage(): Promise<boolean> {
    const cursor = await readSetting(sql, CURSOR);
    const page = await engine.events(cursor, 100);
    // Most events came already (in the engine's answer or by webhook): one query finds them, and they are skipped.
    const seen = await seenEngineEvents(sql, page.events.map((event) => event.id));
    for (const event of page.events) {
      if (seen.has(event.id)) continue;
      const conversation = await findConversationByEngineId(sql, event.conversation_id);
      if (conversation) await recorder.record(conversation, [event]);
    }
    if (page.next && page.next !== cursor) await writeSetting(sql, CURSOR, page.next);
    return page.has_more;
  }

  function schedule(delay: number): void {
    if (stopped) return;
    timer = setTimeout(() => void tick(), delay);
    timer.unref();
  }

  async function tick(): Promise<void> {
    let delay = pollMs;
    try {
      current = readPage();
      if (await current) delay = 0;
    } catch (error) {
      delay = error instanceof EngineCallError && error.retryAfterMs ? error.retryAfterMs : Math.max(pollMs, 2_000);
      logger.warn({ err: error, delay }, 'reading the engine feed failed; will retry');
    } finally {
      current = undefined;
    }
    schedule(delay);
  }

  return {
    start(): void {
      stopped = false;
      schedule(0);
    },
    /** Reads until the feed has nothing more (for tests and for catching up on demand). */
    async catchUp(): Promise<void> {
      await current?.catch(() => undefined);
      while (await readPage());
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await current?.catch(() => undefined);
    },
  };
}

export type FeedTail = ReturnType<typeof createFeedTail>;
