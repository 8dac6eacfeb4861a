import { BurstProgress, burst, newCustomers, sleep } from './customers.ts';
import type { Cluster } from './cluster.ts';
import { tally, type FaultResult } from './tally.ts';

/**
 * PostgreSQL, shared by the engine and both BFF nodes, stopped as by a crash (`pg_ctl stop -m
 * immediate`: every connection cut, recovery from the WAL at the next start) mid-burst, and
 * started again two seconds later. Sends that fail meanwhile are sent again.
 */
export async function restartPostgres(cluster: Cluster): Promise<FaultResult> {
  const customers = await newCustomers({
    nodes: cluster.bffUrls,
    apiKey: cluster.apiKey,
    count: 30,
    label: 'postgres',
  });
  const progress = new BurstProgress();
  const sending = burst(customers, { messages: 6, gapMs: 500, progress });
  await progress.reached(40);
  await cluster.postgres.stop('immediate');
  await sleep(2_000);
  await cluster.postgres.start();
  const restartedAt = Date.now();
  await sending;
  return tally('PostgreSQL restarted', customers, { settleMs: 90_000, restartedAt });
}
