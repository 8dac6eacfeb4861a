import type { Logger, Sql } from '../../shared/server/index.ts';
import { forgetSeenEventsBefore } from '../store/events-seen.ts';

/**
 * How long the id of an engine event is remembered. An event can come again by webhook for about a
 * day (8 attempts, SPEC "Limits"), and an operator may resend a delivery by hand after that: a
 * week covers both, and a message an event made is kept apart by its own id after that anyway.
 */
export const SEEN_EVENTS_KEPT_MS = 7 * 24 * 60 * 60_000;
const EVERY_MS = 60 * 60_000;

export interface Housekeeping {
  /** One round now; gives what it removed. */
  runOnce(): Promise<{ seenEvents: number }>;
  stop(): void;
}

/** Trims what the BFF keeps only for a while: at start, then every hour (on every node; a round is one DELETE). */
export function startHousekeeping(
  { sql, logger, now }: { sql: Sql; logger: Logger; now: () => Date },
  everyMs = EVERY_MS,
): Housekeeping {
  const runOnce = async () => ({
    seenEvents: await forgetSeenEventsBefore(sql, new Date(now().getTime() - SEEN_EVENTS_KEPT_MS)),
  });
  const round = () =>
    void runOnce().then(
      (removed) => removed.seenEvents > 0 && logger.debug(removed, 'housekeeping removed what is past its time'),
      (error: unknown) => logger.warn({ err: error }, 'housekeeping failed; it tries again next round'),
    );
  const timer = everyMs > 0 ? setInterval(round, everyMs) : undefined;
  timer?.unref();
  if (timer) round();
  return { runOnce, stop: () => clearInterval(timer) };
}
