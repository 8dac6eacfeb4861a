import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WIDGET_ASSETS_DIR } from '../../bff/host/infrastructure.ts';
import { killBffNode } from './bff-node-kill.ts';
import { dropNetworkInChromium } from './browser-offline.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { killDemo, startDemo, type Demo } from './demo-kill.ts';
import { engineDown } from './engine-down.ts';
import { restartPostgres } from './postgres-restart.ts';
import { restartRedis } from './redis-restart.ts';
import type { ServiceProcess } from './service-process.ts';
import type { FaultResult } from './tally.ts';

/**
 * `npm run test:chaos` (issue 14): Parley's real processes under real faults, with customers
 * sending all the while; after each fault one line, `<fault>: lost N, duplicated N, out of order N`.
 * Exits 1 unless every count is 0 and every process lived through what was not done to it.
 *
 * Two lanes run side by side, each on processes of its own: the cluster (PostgreSQL, Redis, the
 * engine and two BFF nodes) takes a BFF node's kill, the engine's 30 s away, and restarts of
 * PostgreSQL and of Redis, one after another; the single-process demo on PGlite takes its own
 * kill, then serves Chromium, whose network is dropped. `CHAOS_ONLY=node,engine,postgres,redis,demo,browser`
 * runs some of them.
 */
if (!existsSync(join(WIDGET_ASSETS_DIR, 'widget.js'))) {
  process.stderr.write('The widget is not built: run npm run build first (the Chromium fault loads it).\n');
  process.exit(1);
}

const only = process.env['CHAOS_ONLY']?.split(',');
const wanted = (name: string) => !only || only.includes(name);
const started = Date.now();
const seconds = (since: number) => Math.round((Date.now() - since) / 1000);
const folder = await mkdtemp(join(tmpdir(), 'parley-chaos-'));
let cluster: Cluster | undefined;
let demo: Demo | undefined;
const results: FaultResult[] = [];

async function cleanUp(): Promise<void> {
  await Promise.all([
    cluster
      ?.stop()
      .catch((error: unknown) => process.stderr.write(`chaos: stopping the cluster failed: ${String(error)}\n`)),
    demo?.process.signal('SIGKILL'),
  ]);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(1)));
}

/** Runs one fault, prints its lines, and fails when a process it did not stop has died meanwhile. */
async function fault(run: () => Promise<FaultResult>, services: () => ServiceProcess[]): Promise<void> {
  const since = Date.now();
  const result = await run();
  results.push(result);
  process.stdout.write(`  (${result.summary}; ${seconds(since)} s)\n`);
  const recovery =
    result.recoveryMs === undefined
      ? ''
      : `, answered ${(result.recoveryMs / 1000).toFixed(1)} s after it served again`;
  process.stdout.write(
    `${result.name}: lost ${result.lost}, duplicated ${result.duplicated}, out of order ${result.outOfOrder}${recovery}\n`,
  );
  for (const service of services()) {
    if (!service.alive) throw new Error(`${service.name} died during "${result.name}": ${await service.logTail()}`);
  }
}

async function clusterLane(): Promise<void> {
  if (!['node', 'engine', 'postgres', 'redis'].some(wanted)) return;
  cluster = await startCluster(folder);
  const up = cluster;
  process.stdout.write(`chaos: engine and two BFF nodes on PostgreSQL + Redis up after ${seconds(started)} s\n`);
  const services = () => [up.engine, ...up.bffs];
  if (wanted('node')) await fault(() => killBffNode(up), services);
  if (wanted('engine')) await fault(() => engineDown(up), services);
  if (wanted('postgres')) await fault(() => restartPostgres(up), services);
  if (wanted('redis')) await fault(() => restartRedis(up), services);
}

async function demoLane(): Promise<void> {
  if (!wanted('demo') && !wanted('browser')) return;
  demo = await startDemo(folder);
  const up = demo;
  process.stdout.write(`chaos: the single-process demo on PGlite up after ${seconds(started)} s\n`);
  if (wanted('demo'))
    await fault(
      () => killDemo(up),
      () => [up.process],
    );
  if (wanted('browser'))
    await fault(
      () => dropNetworkInChromium(up),
      () => [up.process],
    );
}

let failure: unknown;
try {
  // Both lanes run to their end even when one fails, so that each cleans up after itself.
  const lanes = await Promise.allSettled([clusterLane(), demoLane()]);
  failure = lanes.find((lane) => lane.status === 'rejected')?.reason;
  for (const lane of lanes) {
    if (lane.status !== 'rejected') continue;
    process.stderr.write(
      `chaos: a lane stopped: ${lane.reason instanceof Error ? lane.reason.stack : String(lane.reason)}\n`,
    );
  }
} finally {
  await cleanUp();
}

const zeros = (result: FaultResult) => result.lost === 0 && result.duplicated === 0 && result.outOfOrder === 0;
// Issue 34: every message sent before a restart is answered within 15 s of the restart serving.
const RECOVERY_MS_MAX = 15_000;
const quick = (result: FaultResult) => (result.recoveryMs ?? 0) <= RECOVERY_MS_MAX;
const clean = !failure && results.every((result) => zeros(result) && !/refused|incomplete/.test(result.summary));
// Printed, not yet failing the run: the demo's restart does not meet it yet (docs/PERFORMANCE.md, round 8).
const slow = results.filter((result) => !quick(result)).map((result) => result.name);
if (slow.length > 0)
  process.stdout.write(`chaos: answered later than 15 s after the restart (issue 34's goal): ${slow.join('; ')}\n`);
const messages = results.reduce((sum, result) => sum + Number(/^(\d+) messages/.exec(result.summary)?.[1] ?? 0), 0);
const verdict = clean ? 'nothing lost, duplicated or out of order' : 'FAILED';
process.stdout.write(
  `chaos: ${messages} messages across ${results.length} faults in ${seconds(started)} s: ${verdict}\n`,
);
if (clean) await rm(folder, { recursive: true, force: true });
else process.stdout.write(`chaos: the processes' logs are in ${folder}\n`);
process.exit(clean ? 0 : 1);
