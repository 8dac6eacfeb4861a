import type { CallContext } from './call-context.ts';

/** How long a call rings before it is missed. */
export const RING_MS = 60_000;

export interface CallLimits {
  /** How long a side's lease lasts: a node renews its sides' every third of it. */
  leaseMs: number;
  /** The longest a call may last once answered (CALL_MAX_S). */
  maxS: number;
}

/**
 * This node's round of the calls, every third of a lease: it renews the leases of the sides it
 * holds, then ends, once whichever node comes first, the calls that must end: a side's node
 * stopped (its lease lapsed: `node_gone`), nobody took it in time (`rang_out`), or it reached
 * CALL_MAX_S (`too_long`).
 */
export function startCallSweep(context: Pick<CallContext, 'registry' | 'end' | 'now' | 'logger'>, limits: CallLimits) {
  const { registry, end, now, logger } = context;
  const round = async () => {
    const at = now();
    await registry.renew(at);
    for (const { id, reason } of await registry.lapsed({ at, ringMs: RING_MS, maxMs: limits.maxS * 1000 }))
      await end(id, reason === 'rang_out' ? 'person' : 'network', reason);
  };
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= round()
      .catch((error: unknown) => logger.warn({ err: error }, 'a round of the calls failed'))
      .finally(() => (running = undefined));
  }, limits.leaseMs / 3);
  timer.unref();
  return {
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}
