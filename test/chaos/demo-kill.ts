import { join } from 'node:path';
import { randomToken } from '../../shared/index.ts';
import { freePort } from '../stack.ts';
import { BurstProgress, burst, newCustomers } from './customers.ts';
import { answersWith, serviceProcess, type ServiceProcess } from './service-process.ts';
import { tally, type FaultResult } from './tally.ts';

/**
 * The single-process demo (`npm start`: engine, BFF and storefront in one process, on PGlite in
 * DATA_DIR), as one machine runs Parley with no other service.
 */
export interface Demo {
  process: ServiceProcess;
  url: string;
  siteKey: string;
  apiKey: string;
}

export async function startDemo(folder: string): Promise<Demo> {
  const [port, enginePort] = await Promise.all([freePort(), freePort()]);
  const url = `http://127.0.0.1:${port}`;
  const siteKey = `pk_test_${randomToken(24)}`;
  const apiKey = `service_test_${randomToken(32)}`;
  const demo = serviceProcess({
    name: 'demo',
    script: 'demo/start.ts',
    folder,
    // Fixed ports: the engine inside pushes its webhooks to the BFF's address, which must be the same after a restart.
    env: {
      PORT: String(port),
      ENGINE_PORT: String(enginePort),
      DATA_DIR: join(folder, 'demo-data'),
      DEMO_SITE_KEY: siteKey,
      DEMO_API_KEY: apiKey,
      LOG_LEVEL: 'warn',
    },
    ready: () => answersWith(`${url}/openapi.json`),
  });
  await demo.start();
  return { process: demo, url, siteKey, apiKey };
}

/**
 * `kill -9` of the demo mid-burst, then `npm start` again on the same DATA_DIR: what PGlite had
 * written must still be there, and the outbox picked up where it stopped. The customers' sends
 * fail while it is down and are sent again once it answers.
 */
export async function killDemo(demo: Demo): Promise<FaultResult> {
  const customers = await newCustomers({ nodes: [demo.url], apiKey: demo.apiKey, count: 30, label: 'demo' });
  const progress = new BurstProgress();
  const sending = burst(customers, { messages: 8, gapMs: 600, progress });
  await progress.reached(80);
  await demo.process.signal('SIGKILL');
  await demo.process.start();
  const restartedAt = Date.now();
  await sending;
  return tally('kill -9 of the single-process demo (PGlite)', customers, { settleMs: 120_000, restartedAt });
}
