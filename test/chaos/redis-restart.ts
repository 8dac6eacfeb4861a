import { BurstProgress, burst, newCustomers, sleep } from './customers.ts';
import type { Cluster } from './cluster.ts';
import { tally, type FaultResult } from './tally.ts';

/**
 * Redis, shared by both BFF nodes (limits, Socket.IO's adapter), killed mid-burst and started
 * again, empty, two seconds later.
 */
export async function restartRedis(cluster: Cluster): Promise<FaultResult> {
  const customers = await newCustomers({ nodes: cluster.bffUrls, apiKey: cluster.apiKey, count: 30, label: 'redis' });
  const progress = new BurstProgress();
  const sending = burst(customers, { messages: 6, gapMs: 500, progress });
  await progress.reached(40);
  await cluster.redis.stop();
  await sleep(2_000);
  await cluster.redis.start();
  const restartedAt = Date.now();
  await sending;
  return tally('Redis restarted', customers, { settleMs: 60_000, restartedAt });
}
