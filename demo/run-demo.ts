import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dataFolder, openSql, RedisRateLimiter, type Logger, type Sql } from '../shared/server/index.ts';
import { createEngine } from '../engine/index.ts';
import {
  answerWhileStarting,
  createBff,
  EngineClient,
  EngineOperator,
  Metrics,
  openBffInfrastructure,
  WIDGET_ASSETS_DIR,
  type Bff,
  type BffDeps,
} from '../bff/index.ts';
import type { DemoConfig } from './config.ts';
import {
  demoAgentSignInUrl,
  ensureClientApi,
  DEMO_AGENT,
  ensureDemoAgent,
  ensureDemoHelpdesk,
  ensureDemoInbox,
  ensureDemoLiveActions,
  ensureDemoLiveKey,
  ensureEngineKeys,
  ensureEngineWebhook,
  ensureOperatorToken,
} from './seed.ts';
import { startDemoMail } from './mail.ts';
import { storefrontRouter } from './storefront.ts';
import { dressDemoShop, setDemoAgentPassword } from './shop.ts';

export { WIDGET_ASSETS_DIR };
/** How often the in-process engine looks for webhooks to send (it also sends at once after each change). */
const WEBHOOK_POLL_MS = 1000;

export interface RunningDemo {
  /** Where the storefront and the BFF answer. */
  url: string;
  engineUrl: string;
  siteKey: string;
  /** The demo inbox's identifier for the helpdesk Client API. */
  inboxIdentifier: string;
  /** The helpdesk account that holds the demo inbox. */
  accountId: number;
  /** The operator's platform app token, when this start made it (print it once). */
  newPlatformToken: string | undefined;
  /** The demo agent's one-time link into the agent console, made by this start (it works once, for 5 minutes). */
  agentSignInUrl: string;
  /** The demo agent's e-mail and console password (DEMO_AGENT_PASSWORD, or a new one at each start). */
  agent: { email: string; password: string };
  /** The engine API key the BFF uses for sandbox customers (the first of its keys); printed only when this start made it. */
  apiKey: string;
  /** The engine API key the BFF uses for live customers (the Client API's contacts, live site keys), when it has one. */
  liveApiKey: string | undefined;
  /**
   * The engine's operator token the BFF makes each new account's engine account with: the demo's own
   * engine's (AI_OPERATOR_TOKEN, else made on the first start and kept sealed), or AI_OPERATOR_TOKEN
   * for an engine elsewhere (unset there: no account can be made).
   */
  operatorToken: string | undefined;
  firstStart: boolean;
  /** Where the demo keeps the e-mails it would have sent (SMTP_URL unset and a DATA_DIR on disk). */
  mailFolder: string | undefined;
  bff: Bff;
  /** The BFF's store (tests and tools seed inboxes and keys through it). */
  bffSql: Sql;
  close(): Promise<void>;
}

export interface RunOptions {
  /** Put before the schema names (`engine`, `bff`), so that test runs can share one PostgreSQL database. */
  schemaPrefix?: string;
  /** Replaces parts of the BFF (limiters, clocks, poll interval) for tests. */
  bff?: Partial<BffDeps>;
}

/** Starts the engine (unless AI_API_URL points elsewhere), the BFF and the storefront. */
export async function runDemo(
  config: DemoConfig,
  logger: Logger,
  { schemaPrefix = '', bff: overrides = {} }: RunOptions = {},
): Promise<RunningDemo> {
  const closers: (() => Promise<void>)[] = [];
  try {
    // The BFF's store, session keys and Redis, built as `npm run bff` builds them.
    const {
      sql: bffSql,
      tokens,
      secrets,
      redis,
      attachments,
      close: closeInfrastructure,
    } = await openBffInfrastructure(config, logger, { schemaPrefix });
    closers.unshift(closeInfrastructure);
    // The BFF's server listens first: its address is where the engine pushes events. Until the BFF
    // is attached below, it answers 503 `starting` with Retry-After (and /healthz 200).
    const server = createServer(answerWhileStarting);
    await listen(server, config.port, config.host);
    closers.unshift(() => closeServer(server));
    const url = `http://${urlHost(config.host)}:${(server.address() as AddressInfo).port}`;

    let engineUrl = config.aiApiUrl;
    let apiKeys = config.aiApiKeys;
    let engineSeeded = false;
    let webhookSecrets = config.engineWebhookSecrets;
    let operatorToken = config.aiOperatorToken;
    let engineWebhookUrl = config.engineWebhookUrl;
    // The demo's live actions call the store's own endpoint, signed with these secrets (made at each start).
    let liveActionSecrets: Map<string, string> | undefined;
    if (!engineUrl) {
      // The demo's own engine and its BFF share an operator token, made once: new accounts work with no configuration.
      operatorToken = await ensureOperatorToken(bffSql, secrets, config.aiOperatorToken);
      engineWebhookUrl ??= `${url}/v1/engine-webhooks`;
      const engineSql = await openSql({
        databaseUrl: config.databaseUrl,
        dataDir: dataFolder(config.dataDir, 'engine'),
        schema: `${schemaPrefix}engine`,
      });
      closers.unshift(() => engineSql.close());
      // The engine calls no private address but this BFF's own.
      const engine = await createEngine({
        sql: engineSql,
        logger: logger.child({ room: 'engine' }),
        tokens,
        secrets,
        webhooks: { allowedPrivateOrigins: [url] },
        llm: config.llm,
        embeddings: config.embeddings,
        media: { stt: config.stt },
        operatorToken,
        ...(redis ? { rateLimiter: new RedisRateLimiter(redis.client, `${redis.prefix}engine:`) } : {}),
      });
      const engineServer = createServer(engine.app.callback());
      await listen(engineServer, config.enginePort, config.host);
      closers.unshift(() => closeServer(engineServer));
      engine.webhooks.start(WEBHOOK_POLL_MS);
      closers.unshift(() => engine.webhooks.stop());
      closers.unshift(() => engine.media.stop());
      closers.unshift(() => engine.monitors.stop());
      closers.unshift(() => engine.reports.stop());
      engineUrl = `http://${urlHost(config.host)}:${(engineServer.address() as AddressInfo).port}`;
      const keys = await ensureEngineKeys(engineSql, bffSql, secrets, config.demoApiKey);
      apiKeys = keys.apiKeys;
      engineSeeded = keys.created;
      // One endpoint per environment, each with its own secret.
      if (webhookSecrets.length === 0) {
        for (const key of keys.apiKeys)
          webhookSecrets = [
            ...webhookSecrets,
            await ensureEngineWebhook(engineUrl, key, bffSql, secrets, `${url}/v1/engine-webhooks`),
          ];
      }
      const liveKey = keys.apiKeys[1];
      if (liveKey) liveActionSecrets = await ensureDemoLiveActions(engineUrl, liveKey, url);
    }

    const inbox = await ensureDemoInbox(bffSql, config.demoSiteKey);
    const inboxIdentifier = await ensureClientApi(bffSql, inbox.inboxId, config.demoInboxIdentifier);
    const helpdesk = await ensureDemoHelpdesk(bffSql, inbox.inboxId, config.demoPlatformToken);
    const agentId = await ensureDemoAgent(bffSql, helpdesk, inbox.inboxId);
    // Where people reach the console: PUBLIC_URL behind a proxy, as the Platform API's links.
    const agentSignInUrl = await demoAgentSignInUrl(bffSql, agentId, config.publicUrl ?? url);
    const agentPassword = await setDemoAgentPassword(bffSql, agentId, config.demoAgentPassword);
    const metrics = new Metrics();
    const mail = await startDemoMail(config);
    closers.unshift(() => mail.close());
    const bff = await createBff({
      sql: bffSql,
      logger: logger.child({ room: 'bff' }),
      engine: apiKeys!.map((apiKey) => new EngineClient({ baseUrl: engineUrl, apiKey, fetch: metrics.timedFetch })),
      operator: operatorToken
        ? new EngineOperator({ baseUrl: engineUrl, token: operatorToken, fetch: metrics.timedFetch })
        : undefined,
      engineWebhookUrl,
      metrics,
      metricsToken: config.metricsToken,
      helpdeskLimits: config.helpdeskLimits,
      tokens,
      widgetAssetsDir: WIDGET_ASSETS_DIR,
      defaultInboxId: inbox.inboxId,
      extraRouters: [storefrontRouter(inbox.siteKey, config.demoLiveSiteKey, liveActionSecrets)],
      trustProxyHops: config.trustProxyHops,
      publicUrl: config.publicUrl,
      engineWebhookSecret: webhookSecrets,
      feedPollMs: config.feedPollMs,
      deskWebhooks: { pollMs: config.webhookPollMs, allowedPrivateOrigins: config.webhookAllowedPrivateOrigins },
      secrets,
      redis,
      attachments,
      email: mail.settings,
      ...overrides,
    });
    server.off('request', answerWhileStarting);
    server.on('request', bff.app.callback());
    bff.attach(server);
    closers.unshift(() => bff.close());
    // A new demo looks as the README's screenshots: the shop's name, welcome, questions and e-mail.
    if (inbox.created) await dressDemoShop(bffSql, url, { accountId: helpdesk.accountId, agentId, inboxIdentifier });
    if (config.demoLiveSiteKey) {
      const ownOrigins = [url, url.replace(/\/\/(127\.0\.0\.1|\[::1\])/, '//localhost')];
      await ensureDemoLiveKey(
        bffSql,
        inbox.inboxId,
        config.demoLiveSiteKey,
        config.demoAllowedOrigins ?? [...new Set(ownOrigins)],
      );
    }

    return {
      url,
      engineUrl,
      siteKey: inbox.siteKey,
      inboxIdentifier,
      accountId: helpdesk.accountId,
      newPlatformToken: helpdesk.newPlatformToken,
      agentSignInUrl,
      agent: { email: DEMO_AGENT.email, password: agentPassword },
      apiKey: apiKeys![0]!,
      liveApiKey: apiKeys!.find((key) => key.startsWith('service_live_')),
      operatorToken,
      firstStart: engineSeeded || inbox.created,
      mailFolder: mail.folder,
      bff,
      bffSql,
      close: async () => {
        for (const close of closers)
          await close().catch((error: unknown) => logger.warn({ err: error }, 'close failed'));
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}

const urlHost = (host: string) =>
  host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
