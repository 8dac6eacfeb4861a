import { BurstProgress, burst, newCustomers } from './customers.ts';
import type { Cluster } from './cluster.ts';
import { tally, type FaultResult } from './tally.ts';

/**
 * `kill -9` of one of two BFF nodes mid-burst, then the node started again. Its customers' sends
 * that were cut off are sent again (to the other node, as a load balancer would), and the
 * conversations whose outbox the dead node held are taken over once its lease runs out (10 s),
 * by the other node or by itself started again.
 */
export async function killBffNode(cluster: Cluster): Promise<FaultResult> {
  const customers = await newCustomers({ nodes: cluster.bffUrls, apiKey: cluster.apiKey, count: 40, label: 'node' });
  const progress = new BurstProgress();
  const sending = burst(customers, { messages: 8, gapMs: 600, progress });
  await progress.reached(100);
  await cluster.bffs[0].signal('SIGKILL');
  await cluster.bffs[0].start();
  const restartedAt = Date.now();
  await sending;
  return tally('kill -9 of a BFF node (two nodes, PostgreSQL + Redis)', customers, { settleMs: 120_000, restartedAt });
}
