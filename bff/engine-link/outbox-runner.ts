/**
 * When the relay (relay.ts) drains a conversation's outbox: one pass at a time per conversation,
 * another right after when asked meanwhile, and after a failure again later, with back-off that
 * honours the engine's `Retry-After`.
 */
import type { Logger } from '../../shared/server/index.ts';
import { EngineCallError } from './engine-client.ts';
import { renewOutboxLeases } from '../store/outbox.ts';
import { drainOutbox, LEASE_MS, LEASE_RENEW_MS, leaseUntil, type OutboxForwardingDeps } from './outbox-forwarding.ts';

export interface OutboxRunnerDeps {
  forwarding: OutboxForwardingDeps;
  logger: Logger;
  /** Waits between attempts while the engine cannot be reached; the last one repeats. */
  retryDelaysMs: readonly number[];
  /** What follows a drained outbox (the customer's survey answer); a failure is retried as the outbox's. */
  afterDrain: (conversationId: number) => Promise<void>;
  /** The engine answers again after calls to it failed: what it did meanwhile may not have reached us. */
  onEngineBack: (() => void) | undefined;
  /** How often the leases of the conversations being drained are renewed (LEASE_RENEW_MS). */
  renewEveryMs?: number;
}

/** How long to wait before the `attempt`th retry: what the engine asked for, else the next of `delays`. */
function retryDelay(error: unknown, attempt: number, delays: readonly number[]): number {
  return (
    (error instanceof EngineCallError ? error.retryAfterMs : undefined) ??
    delays[Math.min(attempt, delays.length) - 1] ??
    30_000
  );
}

/**
 * While a step waits on the engine (an LLM may take longer than a lease), the leases of the
 * conversations being drained (`draining()`) are renewed every `everyMs`.
 */
function keepLeasesAlive(
  { sql, owner, now }: OutboxForwardingDeps,
  draining: () => number[],
  logger: Logger,
  everyMs: number,
): NodeJS.Timeout {
  const timer = setInterval(() => {
    const ids = draining();
    if (ids.length === 0) return;
    renewOutboxLeases(sql, ids, owner, leaseUntil(now())).catch((error: unknown) =>
      logger.warn({ err: error }, 'renewing the outbox leases failed; they run out unless the next try works'),
    );
  }, everyMs);
  timer.unref();
  return timer;
}

/**
 * The conversations waiting to try again, at most one timer each however many of their messages
 * wait: each is handed to `due` when its delay ends, or at once on `now()` (the engine answers
 * again after failures, so nobody waits out a back-off of up to 30 s: issue 34).
 */
function createRetries(due: (conversationId: number) => void) {
  const timers = new Map<number, NodeJS.Timeout>();
  return {
    later(conversationId: number, delay: number): void {
      if (timers.has(conversationId)) return;
      const timer = setTimeout(() => {
        timers.delete(conversationId);
        due(conversationId);
      }, delay);
      timer.unref();
      timers.set(conversationId, timer);
    },
    now(): void {
      for (const [conversationId, timer] of timers) {
        clearTimeout(timer);
        timers.delete(conversationId);
        due(conversationId);
      }
    },
    get size(): number {
      return timers.size;
    },
    clear(): void {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

export function createOutboxRunner({
  forwarding,
  logger,
  retryDelaysMs,
  afterDrain,
  onEngineBack,
  renewEveryMs = LEASE_RENEW_MS,
}: OutboxRunnerDeps) {
  const running = new Map<number, Promise<void>>();
  const again = new Set<number>();
  const retries = createRetries((conversationId) => kick(conversationId));
  const failures = new Map<number, number>();
  let closed = false;

  const renewing = keepLeasesAlive(forwarding, () => [...running.keys()], logger, renewEveryMs);

  function run(conversationId: number): void {
    const task = drainOutbox(forwarding, conversationId, () => {
      if (failures.delete(conversationId)) {
        onEngineBack?.();
        // The engine answers again: the conversations waiting out their back-off try now.
        retries.now();
      }
    })
      .then(async (drained) => {
        // Another node holds the lease and drains it; should that node die, its lease runs out and this one takes over.
        if (!drained && !closed) retries.later(conversationId, LEASE_MS);
        else await afterDrain(conversationId);
      })
      .catch((error: unknown) => {
        const attempt = (failures.get(conversationId) ?? 0) + 1;
        failures.set(conversationId, attempt);
        const delay = retryDelay(error, attempt, retryDelaysMs);
        logger.warn({ conversationId, attempt, delay, err: error }, 'forwarding to the engine failed; will retry');
        if (!closed) retries.later(conversationId, delay);
      })
      .finally(() => {
        running.delete(conversationId);
        if (again.delete(conversationId)) kick(conversationId);
      });
    running.set(conversationId, task);
  }

  /** Makes sure the conversation's outbox is being drained (now, or right after the current pass). */
  function kick(conversationId: number): void {
    if (closed) return;
    if (running.has(conversationId)) again.add(conversationId);
    else run(conversationId);
  }

  return {
    kick,
    /** Resolves when no conversation is being drained right now (retries may still be scheduled). */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
    /** Conversations waiting for a retry. */
    get backlog(): number {
      return retries.size;
    },
    async close(): Promise<void> {
      closed = true;
      clearInterval(renewing);
      retries.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}
