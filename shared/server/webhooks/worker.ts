import type { Logger } from '../logger.ts';
import type { SecretBox } from '../secret-box.ts';
import type { Sql } from '../sql.ts';
import { claimDue, pruneDeliveries, recordAttempt, type ClaimedDelivery } from './deliveries.ts';
import { ANSWER_TIMEOUT_MS, type SendWebhook } from './sender.ts';

const SEND_BATCH = 20;
/** Deliveries of one endpoint claimed at once: a slow receiver holds no more than these. */
const PER_ENDPOINT = 5;
const PRUNE_EVERY_MS = 3600_000;

export interface WebhookWorkerDeps {
  sql: Sql;
  logger: Logger;
  send: SendWebhook;
  now: () => Date;
  /**
   * Turns new events into deliveries before each pass sends (the engine reads its feed here). A
   * room that writes deliveries with its events (the helpdesk) has none.
   */
  feed?: ((sql: Sql, now: Date) => Promise<void>) | undefined;
  /** How long `send` may take for one attempt (the sender's own limit); the claims are sized from it. */
  answerTimeoutMs?: number;
  /** Opens the endpoints' signing secrets, stored sealed. */
  secrets?: Pick<SecretBox, 'open'> | undefined;
}

/**
 * Sending to endpoints: endpoints side by side, each one's deliveries one after another, every
 * attempt claimed with a lease and recorded.
 */
function createEndpointSending({
  sql,
  logger,
  send,
  now,
  answerTimeoutMs = ANSWER_TIMEOUT_MS,
  secrets,
}: WebhookWorkerDeps) {
  // A claim outlives every attempt it covers, sent one after another, twice over: only a process
  // that died lets it lapse, so no delivery is sent by two processes at once.
  const leaseMs = PER_ENDPOINT * (answerTimeoutMs + 1_000) * 2;
  /** Endpoints this process is sending to now, each one delivery after another. */
  const chains = new Map<string, Promise<void>>();

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const result = await send(
      secrets ? { ...delivery, secret: secrets.open(delivery.secret) } : delivery,
      now().getTime(),
    );
    await sql.transaction((tx) => recordAttempt(tx, delivery, result, now()));
    if (result.error)
      logger.info(
        { delivery: delivery.id, endpoint: delivery.endpointId, status: result.status, error: result.error },
        'a webhook attempt failed',
      );
  }

  return {
    /**
     * Sends what is due: endpoints side by side, each endpoint's deliveries one after another in
     * event order. A pass does not wait for them: a slow receiver delays its own deliveries only,
     * and the next pass claims the other endpoints' work while it is still being sent to.
     * `chainEnded` is called as each endpoint's deliveries are done.
     */
    async sendDue(chainEnded: () => void): Promise<void> {
      for (;;) {
        const due = await claimDue(sql, now(), leaseMs, SEND_BATCH, {
          perEndpoint: PER_ENDPOINT,
          skipEndpoints: [...chains.keys()],
        });
        const byEndpoint = new Map<string, ClaimedDelivery[]>();
        for (const delivery of due)
          byEndpoint.set(delivery.endpointId, [...(byEndpoint.get(delivery.endpointId) ?? []), delivery]);
        for (const [endpointId, deliveries] of byEndpoint) {
          const chain = (async () => {
            for (const delivery of deliveries) await attempt(delivery);
          })()
            .catch((error: unknown) =>
              logger.error({ err: error, endpoint: endpointId }, 'sending to a webhook endpoint failed'),
            )
            .finally(() => {
              chains.delete(endpointId);
              chainEnded();
            });
          chains.set(endpointId, chain);
        }
        if (due.length < SEND_BATCH) return;
      }
    },

    /** Attempts one delivery now (the ping), whatever else is due. */
    async sendNow(deliveryId: string): Promise<void> {
      const [claimed] = await claimDue(sql, now(), leaseMs, 1, { only: deliveryId });
      if (claimed) await attempt(claimed);
    },

    /** Whether deliveries are being sent now. */
    sending(): boolean {
      return chains.size > 0;
    },

    /** Resolves when the deliveries being sent now are done. */
    async sent(): Promise<void> {
      await Promise.all([...chains.values()]);
    },
  };
}

/**
 * Delivers webhooks. Each pass feeds the endpoints their new events (when the room has a feed),
 * then sends what is due. Everything it does is claimed in the database (SKIP LOCKED), so any
 * number of processes may run one: an event goes to an endpoint once per round of attempts, at
 * least once in all.
 */
export function createWebhookWorker(deps: WebhookWorkerDeps) {
  const { sql, logger, now, feed } = deps;
  const endpoints = createEndpointSending(deps);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let prunedAt = 0;
  let again = false;

  /** One pass: feed, send what is due, and now and then forget old deliveries. */
  async function pass(): Promise<void> {
    await feed?.(sql, now());
    // An endpoint's next deliveries may be due already when its chain ends.
    await endpoints.sendDue(() => {
      if (timer) nudge();
    });
    if (now().getTime() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now().getTime();
      await pruneDeliveries(sql, now());
    }
  }

  /** Runs a pass unless one is under way, in which case it waits for that one (and runs none). */
  function tick(): Promise<void> {
    running ??= pass()
      .catch((error: unknown) => logger.error({ err: error }, 'a webhook pass failed'))
      .finally(() => {
        running = undefined;
        if (again && timer) {
          again = false;
          void tick();
        }
      });
    return running;
  }

  /**
   * Something may have happened: once started, the worker makes a pass now rather than at the
   * next interval (or right after the pass under way), so webhooks follow events closely.
   */
  function nudge(): void {
    if (!timer) return;
    if (running) again = true;
    else void tick();
  }

  return {
    tick,

    /** Feeds and sends until nothing is due and nothing is being sent: for tests. */
    async drain(): Promise<void> {
      for (;;) {
        await running;
        await tick();
        if (!endpoints.sending()) return;
        await endpoints.sent();
      }
    },

    nudge,

    /** Attempts one delivery now (the ping), whatever else is due. */
    sendNow: endpoints.sendNow,

    start(intervalMs: number): void {
      if (timer) return;
      timer = setInterval(() => void tick(), intervalMs);
      timer.unref();
    },

    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running;
      await endpoints.sent();
    },
  };
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;
