import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createLogger, settingsOrExit } from '../../shared/server/index.ts';
import { createBff } from './app.ts';
import { readBffConfig } from './config.ts';
import { EngineCallError, EngineClient } from '../engine-link/engine-client.ts';
import { EngineOperator } from '../engine-link/engine-operator.ts';
import { openBffInfrastructure, WIDGET_ASSETS_DIR } from './infrastructure.ts';
import { Metrics } from './metrics.ts';
import { oldestInboxId } from '../store/inboxes.ts';

/**
 * `npm run bff`: the BFF alone, in front of an engine elsewhere (AI_API_URL + AI_API_KEY).
 * Inboxes and their site keys are made with `npm run bff:inbox`.
 */
const config = settingsOrExit(() => readBffConfig(process.env));
const logger = createLogger('bff', config.logLevel);
// Engine calls are timed for /metrics (on when METRICS_TOKEN is set).
const metrics = new Metrics();
const engines = config.aiApiKeys.map(
  (apiKey) => new EngineClient({ baseUrl: config.aiApiUrl, apiKey, fetch: metrics.timedFetch }),
);

// A key or URL the engine refuses is bad configuration, and so are keys of two accounts: stop now
// rather than fail every message. An engine that is merely down is not: messages wait in the outbox until it is back.
try {
  const accounts = new Set<string>();
  for (const engine of engines) {
    const me = await engine.me();
    accounts.add(me.account_id);
    logger.info(
      { engine: config.aiApiUrl, accountId: me.account_id, environment: me.environment },
      'engine key accepted',
    );
  }
  if (accounts.size > 1) {
    process.stderr.write(
      `The configuration is not valid:\n  AI_API_KEY: the keys are of different engine accounts (${[...accounts].join(', ')}); give the keys of one account\n`,
    );
    process.exit(1);
  }
} catch (error) {
  if (!(error instanceof EngineCallError) || error.retryable) {
    logger.warn(
      { err: error, engine: config.aiApiUrl },
      'the engine cannot be reached now; messages wait in the outbox until it can',
    );
  } else {
    const variable = error.status === 401 || error.status === 403 ? 'AI_API_KEY' : 'AI_API_URL';
    const reason = `the engine at ${config.aiApiUrl} answered ${error.status} to GET /v1/me (${error.message})`;
    process.stderr.write(`The configuration is not valid:\n  ${variable}: ${reason}\n`);
    process.exit(1);
  }
}

// Accounts made through the Platform API get an engine account of their own through the engine's operator routes.
const operator = config.aiOperatorToken
  ? new EngineOperator({ baseUrl: config.aiApiUrl, token: config.aiOperatorToken, fetch: metrics.timedFetch })
  : undefined;
if (!operator)
  logger.warn('AI_OPERATOR_TOKEN is not set: making an account through the Platform API answers 503 until it is');

if (!config.email?.smtpUrl) logger.info('SMTP_URL is not set: no e-mail is sent to customers who left the chat');
const infrastructure = await openBffInfrastructure(config, logger);
const defaultInboxId = await oldestInboxId(infrastructure.sql);
if (!defaultInboxId) logger.warn('there is no inbox yet: make one with npm run bff:inbox -- --name "My shop"');
if (!existsSync(join(WIDGET_ASSETS_DIR, 'widget.js'))) {
  logger.warn(
    { dir: WIDGET_ASSETS_DIR },
    'the widget is not built (npm run build); /widget.js answers 404 until it is',
  );
}

const bff = await createBff({
  sql: infrastructure.sql,
  logger,
  engine: engines,
  operator,
  engineWebhookUrl: config.engineWebhookUrl,
  tokens: infrastructure.tokens,
  widgetAssetsDir: WIDGET_ASSETS_DIR,
  defaultInboxId,
  trustProxyHops: config.trustProxyHops,
  publicUrl: config.publicUrl,
  engineWebhookSecret: config.engineWebhookSecrets,
  feedPollMs: config.feedPollMs,
  deskWebhooks: { pollMs: config.webhookPollMs, allowedPrivateOrigins: config.webhookAllowedPrivateOrigins },
  secrets: infrastructure.secrets,
  redis: infrastructure.redis,
  attachments: infrastructure.attachments,
  metrics,
  metricsToken: config.metricsToken,
  iceServers: config.iceServers,
  callMaxS: config.callMaxS,
  helpdeskLimits: config.helpdeskLimits,
  apiKeySessionsPerMinute: config.apiKeySessionsPerMinute,
  email: config.email,
});
const server = createServer(bff.app.callback());
bff.attach(server);
try {
  await listen(server, config.port, config.host);
} catch (error) {
  logger.fatal({ err: error, port: config.port, host: config.host }, 'the BFF could not listen');
  await bff.close();
  await infrastructure.close();
  process.exit(1);
}
const { port } = server.address() as AddressInfo;
const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
logger.info(
  { url, store: infrastructure.sql.driver, redis: Boolean(infrastructure.redis), defaultInboxId },
  'BFF listening',
);

/** Stops taking connections, lets the sockets, relay and feed finish, then closes Redis and the store. A second signal exits at once. */
let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) process.exit(1);
  stopping = true;
  logger.info({ signal }, 'stopping');
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await bff.close();
  // Requests still running get a few seconds to finish.
  const cutOff = setTimeout(() => server.closeAllConnections(), 5_000);
  await closed;
  clearTimeout(cutOff);
  await infrastructure.close();
  process.exit(0);
}
const onSignal = (signal: NodeJS.Signals) =>
  void stop(signal).catch((error: unknown) => {
    logger.error({ err: error }, 'the BFF did not stop cleanly');
    process.exit(1);
  });
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

function listen(target: Server, listenPort: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    target.once('error', reject);
    target.listen(listenPort, host, () => {
      target.off('error', reject);
      resolve();
    });
  });
}
