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
  // At most one waiting retry per conversation, however many of its messages wait.
  const timers = new Map<number, NodeJS.Timeout>();
  const failures = new Map<number, number>();
  let closed = false;

  const renewing = keepLeasesAlive(forwarding, () => [...running.keys()], logger, renewEveryMs);

  function later(conversationId: number, delay: number): void {
    if (closed || timers.has(conversationId)) return;
    const timer = setTimeout(() => {
      timers.delete(conversationId);
      kick(conversationId);
    }, delay);
    timer.unref();
    timers.set(conversationId, timer);
  }

  function run(conversationId: number): void {
    const task = drainOutbox(forwarding, conversationId, () => {
      if (failures.delete(conversationId)) onEngineBack?.();
    })
      .then(async (drained) => {
        // Another node holds the lease and drains it; should that node die, its lease runs out and this one takes over.
        if (!drained) later(conversationId, LEASE_MS);
        else await afterDrain(conversationId);
      })
      .catch((error: unknown) => {
        const attempt = (failures.get(conversationId) ?? 0) + 1;
        failures.set(conversationId, attempt);
        const delay = retryDelay(error, attempt, retryDelaysMs);
        logger.warn({ conversationId, attempt, delay, err: error }, 'forwarding to the engine failed; will retry');
        later(conversationId, delay);
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
      return timers.size;
    },
    async close(): Promise<void> {
      closed = true;
      clearInterval(renewing);
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}
