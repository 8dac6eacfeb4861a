import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeRedis, migrate, openRedis, openSql, RedisRateLimiter, SessionTokens, type Logger, type Redis, type Sql } from '../shared/server/index.ts';
import { createEngine } from '../engine/index.ts';
import { BFF_MIGRATIONS, createBff, EngineClient, type Bff, type BffDeps } from '../bff/index.ts';
import type { DemoConfig } from './config.ts';
import { ensureClientApi, ensureDemoInbox, ensureDemoLiveKey, ensureEngineKey, ensureEngineWebhook, ensureSessionKeys } from './seed.ts';
import { storefrontRouter } from './storefront.ts';

export const WIDGET_ASSETS_DIR = fileURLToPath(new URL('../dist/widget/', import.meta.url));
/** How often the in-process engine looks for webhooks to send (it also sends at once after each change). */
const WEBHOOK_POLL_MS = 1000;

export interface RunningDemo {
  /** Where the storefront and the BFF answer. */
  url: string;
  engineUrl: string;
  siteKey: string;
  /** The demo inbox's identifier for the helpdesk Client API. */
  inboxIdentifier: string;
  /** The engine API key the BFF uses; `printable` only when it was made by this start. */
  apiKey: string;
  firstStart: boolean;
  bff: Bff;
  /** The BFF's store (tests and tools seed inboxes and keys through it). */
  bffSql: Sql;
  close(): Promise<void>;
}

const dataFolder = (dataDir: string, service: string) => (dataDir.startsWith('memory://') ? dataDir : join(dataDir, service));

export interface RunOptions {
  /** Put before the schema names (`engine`, `bff`), so that test runs can share one PostgreSQL database. */
  schemaPrefix?: string;
  /** Replaces parts of the BFF (limiters, clocks, poll interval) for tests. */
  bff?: Partial<BffDeps>;
}

/** Starts the engine (unless AI_API_URL points elsewhere), the BFF and the storefront. */
export async function runDemo(config: DemoConfig, logger: Logger, { schemaPrefix = '', bff: overrides = {} }: RunOptions = {}): Promise<RunningDemo> {
  const closers: (() => Promise<void>)[] = [];
  const open = async (service: string): Promise<Sql> => {
    const sql = await openSql({ databaseUrl: config.databaseUrl, dataDir: dataFolder(config.dataDir, service), schema: schemaPrefix + service });
    closers.unshift(() => sql.close());
    return sql;
  };
  try {
    const bffSql = await open('bff');
    await migrate(bffSql, BFF_MIGRATIONS);

    const tokens = new SessionTokens(await ensureSessionKeys(bffSql, config.sessionKeys));
    let redis: { client: Redis; prefix: string } | undefined;
    if (config.redisUrl) {
      // Said once per outage, not once per failed reconnect.
      let down = false;
      const onError = (error: Error) => {
        if (down) return;
        down = true;
        logger.warn({ err: error }, 'Redis connection problem; reconnecting');
      };
      const client = await openRedis(config.redisUrl, onError);
      client.on('ready', () => (down = false));
      closers.unshift(() => closeRedis(client));
      redis = { client, prefix: `parley:${schemaPrefix}` };
    }
    // The BFF's server listens first: its address is where the engine pushes events. It answers once the BFF is attached below.
    const server = createServer();
    await listen(server, config.port, config.host);
    closers.unshift(() => closeServer(server));
    const url = `http://${urlHost(config.host)}:${(server.address() as AddressInfo).port}`;

    let engineUrl = config.aiApiUrl;
    let apiKey = config.aiApiKey;
    let engineSeeded = false;
    let webhookSecret = config.engineWebhookSecret;
    if (!engineUrl) {
      const engineSql = await open('engine');
      // The engine calls no private address but this BFF's own.
      const engine = await createEngine({
        sql: engineSql,
        logger: logger.child({ room: 'engine' }),
        tokens,
        webhooks: { allowedPrivateOrigins: [url] },
        ...(redis ? { rateLimiter: new RedisRateLimiter(redis.client, `${redis.prefix}engine:`) } : {}),
      });
      const engineServer = createServer(engine.app.callback());
      await listen(engineServer, config.enginePort, config.host);
      closers.unshift(() => closeServer(engineServer));
      engine.webhooks.start(WEBHOOK_POLL_MS);
      closers.unshift(() => engine.webhooks.stop());
      engineUrl = `http://${urlHost(config.host)}:${(engineServer.address() as AddressInfo).port}`;
      const key = await ensureEngineKey(engineSql, bffSql, config.demoApiKey);
      apiKey = key.apiKey;
      engineSeeded = key.created;
      webhookSecret ??= await ensureEngineWebhook(engineUrl, apiKey, bffSql, `${url}/v1/engine-webhooks`);
    }

    const inbox = await ensureDemoInbox(bffSql, config.demoSiteKey);
    const inboxIdentifier = await ensureClientApi(bffSql, inbox.inboxId, config.demoInboxIdentifier);
    const bff = await createBff({
      sql: bffSql,
      logger: logger.child({ room: 'bff' }),
      engine: new EngineClient({ baseUrl: engineUrl, apiKey: apiKey! }),
      tokens,
      widgetAssetsDir: WIDGET_ASSETS_DIR,
      defaultInboxId: inbox.inboxId,
      extraRouters: [storefrontRouter(inbox.siteKey, config.demoLiveSiteKey)],
      trustProxyHops: config.trustProxyHops,
      engineWebhookSecret: webhookSecret,
      feedPollMs: config.feedPollMs,
      redis,
      ...overrides,
    });
    server.on('request', bff.app.callback());
    bff.attach(server);
    closers.unshift(() => bff.close());
    if (config.demoLiveSiteKey) {
      const ownOrigins = [url, url.replace(/\/\/(127\.0\.0\.1|\[::1\])/, '//localhost')];
      await ensureDemoLiveKey(bffSql, inbox.inboxId, config.demoLiveSiteKey, config.demoAllowedOrigins ?? [...new Set(ownOrigins)]);
    }

    return {
      url,
      engineUrl,
      siteKey: inbox.siteKey,
      inboxIdentifier,
      apiKey: apiKey!,
      firstStart: engineSeeded || inbox.created,
      bff,
      bffSql,
      close: async () => {
        for (const close of closers) await close().catch((error: unknown) => logger.warn({ err: error }, 'close failed'));
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}

const urlHost = (host: string) => (host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host);

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
