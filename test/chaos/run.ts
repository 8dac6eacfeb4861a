import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WIDGET_ASSETS_DIR } from '../../bff/infrastructure.ts';
import { killBffNode } from './bff-node-kill.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { engineDown } from './engine-down.ts';
import { restartPostgres } from './postgres-restart.ts';
import { restartRedis } from './redis-restart.ts';
import type { FaultResult } from './tally.ts';

/**
 * `npm run test:chaos` (issue 14): Parley's real processes under real faults, with customers
 * sending all the while; after each fault one line, `<fault>: lost N, duplicated N, out of order N`.
 * Exits 1 unless every count is 0.
 */
if (!existsSync(join(WIDGET_ASSETS_DIR, 'widget.js'))) {
  process.stderr.write('The widget is not built: run npm run build first (the Chromium fault loads it).\n');
  process.exit(1);
}

const started = Date.now();
const folder = await mkdtemp(join(tmpdir(), 'parley-chaos-'));
let cluster: Cluster | undefined;
const results: FaultResult[] = [];
let failure: unknown;

async function cleanUp(): Promise<void> {
  await cluster?.stop().catch((error: unknown) => process.stderr.write(`stopping the cluster failed: ${String(error)}\n`));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(1)));
}

function report(result: FaultResult): void {
  results.push(result);
  process.stdout.write(`  (${result.summary})\n${result.name}: lost ${result.lost}, duplicated ${result.duplicated}, out of order ${result.outOfOrder}\n`);
}

try {
  cluster = await startCluster(folder);
  process.stdout.write(`chaos: cluster up in ${Math.round((Date.now() - started) / 1000)} s (logs in ${folder})\n`);
  const only = process.env['CHAOS_ONLY'];
  const faults = { node: killBffNode, engine: engineDown, postgres: restartPostgres, redis: restartRedis };
  for (const [name, fault] of Object.entries(faults)) {
    if (only && !only.split(',').includes(name)) continue;
    report(await fault(cluster));
    // A process that died on its own during the fault is a failure even when nothing was lost.
    for (const service of [cluster.engine, ...cluster.bffs]) {
      if (!service.alive) throw new Error(`${service.name} died during the fault: ${await service.logTail()}`);
    }
  }
} catch (error) {
  failure = error;
  process.stderr.write(`chaos: the run stopped: ${error instanceof Error ? error.stack : String(error)}\n`);
} finally {
  await cleanUp();
}

const clean = !failure && results.every((result) => result.lost === 0 && result.duplicated === 0 && result.outOfOrder === 0 && !/refused|incomplete/.test(result.summary));
const messages = results.reduce((sum, result) => sum + Number(/^(\d+) messages/.exec(result.summary)?.[1] ?? 0), 0);
process.stdout.write(`chaos: ${messages} messages across ${results.length} faults in ${Math.round((Date.now() - started) / 1000)} s: ${clean ? 'nothing lost, duplicated or out of order' : 'FAILED'}\n`);
if (clean) await rm(folder, { recursive: true, force: true });
else process.stdout.write(`chaos: the processes' logs are in ${folder}\n`);
process.exit(clean ? 0 : 1);
