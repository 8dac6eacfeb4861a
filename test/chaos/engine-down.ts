import { BurstProgress, burst, newCustomers, sleep } from './customers.ts';
import type { Cluster } from './cluster.ts';
import { tally, type FaultResult } from './tally.ts';

/** How long the engine stays down. */
const DOWN_MS = 30_000;

/**
 * The engine killed (`kill -9`) mid-burst and started again 30 s later on the same store. The BFF
 * keeps taking messages meanwhile (its outbox holds them); a call cut off by the kill is sent
 * again with the same `message_id` and Idempotency-Key, so the engine answers it once.
 */
export async function engineDown(cluster: Cluster): Promise<FaultResult> {
  // Made while the engine is up: the BFF checks the API key with it for every session.
  const customers = await newCustomers({ nodes: cluster.bffUrls, apiKey: cluster.apiKey, count: 20, label: 'engine' });
  const progress = new BurstProgress();
  const sending = burst(customers, { messages: 12, gapMs: 3_000, progress });
  await progress.reached(20);
  await cluster.engine.signal('SIGKILL');
  await sleep(DOWN_MS);
  await cluster.engine.start();
  const restartedAt = Date.now();
  await sending;
  return tally('engine down for 30 s', customers, { settleMs: 90_000, restartedAt });
}
