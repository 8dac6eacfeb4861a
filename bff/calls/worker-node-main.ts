import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger, readEnv } from '../../shared/server/index.ts';
import { BffEnv, bffSettings, createBff, EngineClient, openBffInfrastructure, WIDGET_ASSETS_DIR } from '../index.ts';
import type { WorkerNodeData } from './worker-node.ts';

// The body of a worker node (worker-node.ts): a BFF built as bff/host/main.ts builds one, on the
// store and Redis of the nodes it joins, listening on a free port of loopback.
const { env, schemaPrefix, inboxId, callLeaseMs } = workerData as WorkerNodeData;
const settings = bffSettings(readEnv(BffEnv, { PORT: '0', DATA_DIR: 'memory://', ...env }));
const logger = createLogger('worker-node', 'silent');
const infrastructure = await openBffInfrastructure(settings, logger, { schemaPrefix });
const bff = await createBff({
  sql: infrastructure.sql,
  logger,
  engine: (settings.aiApiKeys ?? []).map((apiKey) => new EngineClient({ baseUrl: settings.aiApiUrl!, apiKey })),
  tokens: infrastructure.tokens,
  secrets: infrastructure.secrets,
  redis: infrastructure.redis,
  attachments: infrastructure.attachments,
  widgetAssetsDir: WIDGET_ASSETS_DIR,
  defaultInboxId: inboxId,
  feedPollMs: 0,
  housekeepingMs: 0,
  callLeaseMs,
});
const server = createServer(bff.app.callback());
bff.attach(server);
server.listen(0, '127.0.0.1', () =>
  parentPort!.postMessage({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
);
