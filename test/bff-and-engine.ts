import { createServer, type Server } from 'node:http';
import { z } from 'zod';
import { randomToken } from '../shared/index.ts';
import { dataFolder, openSql, optionalVariable, Port, readEnv, type Sql } from '../shared/server/index.ts';
import {
  createEngine,
  llmSettings,
  LlmVariables,
  modelGoesWithLlmUrl,
  sttSettings,
  SttVariables,
  ttsSettings,
  TtsVariables,
  type LlmSettings,
  type SttSettings,
} from '../engine/index.ts';
import {
  answerWhileStarting,
  attachmentBucketComplete,
  BffEnv,
  bffSettings,
  createBff,
  EngineClient,
  EngineOperator,
  keyGoesWithEngineUrl,
  Metrics,
  openBffInfrastructure,
  secretsGoWithRedis,
  WIDGET_ASSETS_DIR,
  type Bff,
  type BffDeps,
  type BffInfrastructure,
  type BffSettings,
} from '../bff/index.ts';
import { closeServer, listen, urlOf } from './local-servers.ts';
import { openShopAccount } from './shop-fixtures.ts';
import { openShopHelpdesk } from './shop-helpdesk.ts';
import { shopPageRouter } from './shop-page.ts';
import { dropSchemas, DRIVERS, logger, uniqueSchemaPrefix, type Driver } from './test-run.ts';

/** The shop inbox's sandbox site key in every stack (named after the demo's variable that fixes its own). */
export const DEMO_SITE_KEY = `pk_test_${'S'.repeat(8)}${randomToken(16)}`;
/** The sandbox API key of the shop's engine account in every stack with an engine of its own. */
export const DEMO_API_KEY = `service_test_${randomToken(32)}`;

/** How often the stack's engine looks for webhooks to send (it also sends at once after each change). */
const WEBHOOK_POLL_MS = 1000;

/**
 * What a stack reads, as a deployment sets it: the BFF's variables (BffEnv: AI_API_URL and AI_API_KEY
 * put the BFF in front of an engine elsewhere, and then none is started), the brain of the stack's own
 * engine (LLM_*), and the stack's own, named as `npm start` names them.
 */
const StackEnv = BffEnv.extend({
  /** Where the stack's own engine listens (0: a free port). */
  ENGINE_PORT: Port,
  ...LlmVariables,
  /** The engine's transcription and speech APIs (issue 30): with both, customers can call the AI. */
  ...SttVariables,
  ...TtsVariables,
  /** A live site key of the shop's inbox, allowed from the BFF's own origin. */
  DEMO_LIVE_SITE_KEY: optionalVariable(
    z.string().regex(/^pk_live_[0-9A-Za-z]{16,64}$/, 'must be a live site key (pk_live_ and 16-64 letters or digits)'),
  ),
  /** The operator's platform app token; unset: one is made (`newPlatformToken`). */
  DEMO_PLATFORM_TOKEN: optionalVariable(z.string().regex(/^[0-9A-Za-z]{24,64}$/, 'must be 24 to 64 letters or digits')),
})
  .superRefine(keyGoesWithEngineUrl)
  .superRefine(secretsGoWithRedis)
  .superRefine(attachmentBucketComplete)
  .superRefine(modelGoesWithLlmUrl);

interface StackSettings extends BffSettings {
  enginePort: number;
  llm: LlmSettings | undefined;
  stt: SttSettings | undefined;
  tts: ReturnType<typeof ttsSettings>;
  liveSiteKey: string | undefined;
  platformToken: string | undefined;
}

function readStackSettings(env: Record<string, string>): StackSettings {
  const value = readEnv(StackEnv, env);
  return {
    ...bffSettings(value),
    enginePort: value.ENGINE_PORT,
    llm: llmSettings(value),
    stt: sttSettings(value),
    tts: ttsSettings(value),
    liveSiteKey: value.DEMO_LIVE_SITE_KEY,
    platformToken: value.DEMO_PLATFORM_TOKEN,
  };
}

/** How a BFF reaches its engine: only over HTTP, with the installation's keys and operator token. */
interface EngineLink {
  url: string;
  /** One key per environment served, the sandbox key first. */
  apiKeys: string[];
  operatorToken: string | undefined;
  /** The secrets the BFF checks `POST /v1/engine-webhooks` with (none: events come from the feed). */
  webhookSecrets: string[];
  /** Where the engine posts new accounts' events. */
  webhookUrl: string | undefined;
}

/** A BFF node of a stack: its address, the BFF itself and its store. */
export interface BffNode {
  url: string;
  siteKey: string;
  bff: Bff;
  /** The BFF's store (tests seed inboxes and keys, and look at what was stored, through it). */
  bffSql: Sql;
  stop(): Promise<void>;
}

/** A BFF and the engine it speaks to over HTTP, with the shop in both. */
export interface TestStack extends BffNode {
  engineUrl: string;
  /** The shop's inbox (the BFF's default inbox) and its identifier for the helpdesk Client API. */
  inboxId: string;
  inboxIdentifier: string;
  /** The helpdesk account that holds the shop's inbox. */
  accountId: number;
  /** The operator's platform app token, when the stack made it (DEMO_PLATFORM_TOKEN unset). */
  newPlatformToken: string | undefined;
  /** The shop agent's one-time link into the agent console (it works once, for 5 minutes). */
  agentSignInUrl: string;
  /** The engine key the BFF uses for sandbox customers. */
  apiKey: string;
  /** The engine key the BFF uses for live customers, when it has one. */
  liveApiKey: string | undefined;
  /** The engine's operator token, which the BFF makes each new account's engine account with (unset: it cannot). */
  operatorToken: string | undefined;
  /** The secrets the BFF checks the engine's webhooks with: ENGINE_WEBHOOK_SECRET, else one endpoint's per key (sandbox, then live). */
  engineWebhookSecrets: string[];
  /**
   * Another BFF node on the same store and Redis, speaking to the same engine with the same keys,
   * as a second machine behind the same site runs. The stack must be on PostgreSQL (a store two
   * nodes can share). Stop it before the stack.
   */
  startAnotherNode(bff?: Partial<BffDeps>): Promise<BffNode>;
  /**
   * A server restart, as a deploy makes one: the BFF stops (its work, its sockets, its server and
   * every connection), `whileDown` runs, and a new BFF built as the first starts on the same port and
   * store. `bff` is the new one from then on.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
}

export interface BffAndEngineOptions {
  /** The store: PGlite in memory (the default, DRIVERS[0]) or the machine's PostgreSQL (DRIVERS[1]). */
  driver?: Driver | undefined;
  /** Variables, as a deployment sets them (see StackEnv). */
  env?: Record<string, string>;
  /** Replaces parts of the BFF (limiters, clocks, poll intervals, its store). */
  bff?: Partial<BffDeps>;
}

/**
 * A BFF (createBff) and its engine (createEngine, in this process on an HTTP server of its own) on
 * free ports, built as a deployment builds them and in schemas of their own: the BFF's
 * infrastructure, the engine with the shop's account and keys, the operator token they share, the
 * engine's webhook endpoints for this BFF, and the shop in the helpdesk. Limits are the real ones.
 * `stop()` closes everything, drops the schemas and takes the stack's keys out of Redis.
 *
 * @example
 * const stack = await startBffAndEngine({ env: { REDIS_URL, SECRETS_KEYS } });
 * await request(`${stack.url}/v1/widget-sessions`, { token: stack.siteKey, body: {} });
 * await stack.stop();
 */
export async function startBffAndEngine(options: BffAndEngineOptions = {}): Promise<TestStack> {
  const { driver = DRIVERS[0]!, env = {}, bff: overrides = {} } = options;
  const store = driver.databaseUrl ? { DATABASE_URL: driver.databaseUrl } : {};
  const settings = readStackSettings({ PORT: '0', ENGINE_PORT: '0', DATA_DIR: 'memory://', ...store, ...env });
  const schemaPrefix = uniqueSchemaPrefix();
  const closers: (() => Promise<void>)[] = [() => dropSchemas(settings.databaseUrl, schemaPrefix)];
  try {
    const host = await openBffHost(settings, schemaPrefix, closers);
    closers.push(() => forgetRedisKeys(host.infrastructure));
    const engine = settings.aiApiUrl
      ? engineElsewhere(settings)
      : await startShopEngine(settings, host, schemaPrefix, closers);
    const ownOrigins = [host.url, host.url.replace('//127.0.0.1', '//localhost')];
    const helpdesk = await openShopHelpdesk(host.infrastructure.sql, {
      siteKey: DEMO_SITE_KEY,
      liveSiteKey: settings.liveSiteKey,
      liveOrigins: [...new Set(ownOrigins)],
      platformToken: settings.platformToken,
      consoleBaseUrl: settings.publicUrl ?? host.url,
    });
    const bff = await attachBff(host, bffDeps(settings, host, engine, helpdesk.inboxId, overrides), closers);
    return {
      url: host.url,
      siteKey: DEMO_SITE_KEY,
      bff,
      bffSql: host.infrastructure.sql,
      engineUrl: engine.url,
      ...helpdesk,
      apiKey: engine.apiKeys[0]!,
      liveApiKey: engine.apiKeys.find((key) => key.startsWith('service_live_')),
      operatorToken: engine.operatorToken,
      engineWebhookSecrets: engine.webhookSecrets,
      async startAnotherNode(nodeOverrides = {}) {
        if (!settings.databaseUrl) {
          throw new TypeError(
            'another BFF node shares the first one’s store: start the stack on PostgreSQL (DRIVERS[1])',
          );
        }
        const nodeClosers: (() => Promise<void>)[] = [];
        try {
          const node = await openBffHost(settings, schemaPrefix, nodeClosers);
          const deps = bffDeps(settings, node, engine, helpdesk.inboxId, nodeOverrides);
          const nodeBff = await attachBff(node, deps, nodeClosers);
          const stop = () => closeAll(nodeClosers);
          return { url: node.url, siteKey: DEMO_SITE_KEY, bff: nodeBff, bffSql: node.infrastructure.sql, stop };
        } catch (error) {
          await closeAll(nodeClosers);
          throw error;
        }
      },
      async restart(this: TestStack, whileDown?: () => Promise<void>) {
        await this.bff.close();
        await closeServer(host.server);
        await whileDown?.();
        const server = createServer(answerWhileStarting);
        await listen(server, Number(new URL(host.url).port), settings.host);
        closers.push(() => closeServer(server));
        const again = { ...host, server };
        this.bff = await attachBff(again, bffDeps(settings, again, engine, helpdesk.inboxId, overrides), closers);
      },
      stop: () => closeAll(closers),
    };
  } catch (error) {
    await closeAll(closers);
    throw error;
  }
}

/** Runs the closers, last added first; one that fails is logged and the rest still run. */
async function closeAll(closers: (() => Promise<void>)[]): Promise<void> {
  for (const close of closers.splice(0).reverse()) {
    await close().catch((error: unknown) => logger.warn({ err: error }, 'close failed'));
  }
}

/** A BFF's host before the BFF: its infrastructure, and its server answering 503 `starting` until the BFF is attached. */
interface BffHost {
  infrastructure: BffInfrastructure;
  server: Server;
  url: string;
}

async function openBffHost(
  settings: StackSettings,
  schemaPrefix: string,
  closers: (() => Promise<void>)[],
): Promise<BffHost> {
  const infrastructure = await openBffInfrastructure(settings, logger, { schemaPrefix });
  closers.push(() => infrastructure.close());
  // The server listens first: its address is where the engine pushes events.
  const server = createServer(answerWhileStarting);
  await listen(server, settings.port, settings.host);
  closers.push(() => closeServer(server));
  return { infrastructure, server, url: urlOf(server) };
}

async function attachBff(host: BffHost, deps: BffDeps, closers: (() => Promise<void>)[]): Promise<Bff> {
  const bff = await createBff(deps);
  host.server.off('request', answerWhileStarting);
  host.server.on('request', bff.app.callback());
  bff.attach(host.server);
  closers.push(() => bff.close());
  return bff;
}

/** The BFF's dependencies, as bff/host/main.ts builds them from its settings, with the test's `overrides` last. */
function bffDeps(
  settings: StackSettings,
  host: BffHost,
  engine: EngineLink,
  inboxId: string,
  overrides: Partial<BffDeps>,
): BffDeps {
  const { sql, tokens, secrets, redis, attachments } = host.infrastructure;
  // Engine calls are timed for /metrics, as in every host.
  const metrics = new Metrics();
  const { url: baseUrl, operatorToken } = engine;
  return {
    sql,
    logger: logger.child({ room: 'bff' }),
    engine: engine.apiKeys.map((apiKey) => new EngineClient({ baseUrl, apiKey, fetch: metrics.timedFetch })),
    operator: operatorToken
      ? new EngineOperator({ baseUrl, token: operatorToken, fetch: metrics.timedFetch })
      : undefined,
    engineWebhookUrl: engine.webhookUrl,
    engineWebhookSecret: engine.webhookSecrets,
    metrics,
    metricsToken: settings.metricsToken,
    tokens,
    secrets,
    redis,
    attachments,
    widgetAssetsDir: WIDGET_ASSETS_DIR,
    defaultInboxId: inboxId,
    extraRouters: [shopPageRouter(DEMO_SITE_KEY)],
    trustProxyHops: settings.trustProxyHops,
    publicUrl: settings.publicUrl,
    feedPollMs: settings.feedPollMs,
    deskWebhooks: { pollMs: settings.webhookPollMs, allowedPrivateOrigins: settings.webhookAllowedPrivateOrigins },
    ...overrides,
  };
}

/** An engine elsewhere (AI_API_URL), reached with AI_API_KEY, AI_OPERATOR_TOKEN and ENGINE_WEBHOOK_SECRET as given. */
function engineElsewhere(settings: StackSettings): EngineLink {
  return {
    url: settings.aiApiUrl!,
    apiKeys: settings.aiApiKeys!,
    operatorToken: settings.aiOperatorToken,
    webhookSecrets: settings.engineWebhookSecrets,
    webhookUrl: settings.engineWebhookUrl,
  };
}

/**
 * The engine of the stack, in this process on its own HTTP server: the shop's account with its keys
 * (the sandbox one DEMO_API_KEY), knowledge and actions; an operator token it shares with the BFF
 * (AI_OPERATOR_TOKEN, else a new one); and, unless ENGINE_WEBHOOK_SECRET gives the BFF secrets of its
 * own, one webhook endpoint per key that posts to the BFF, made through the engine's API.
 */
async function startShopEngine(
  settings: StackSettings,
  host: BffHost,
  schemaPrefix: string,
  closers: (() => Promise<void>)[],
): Promise<EngineLink> {
  const operatorToken = settings.aiOperatorToken ?? `op_${randomToken(40)}`;
  const dataDir = dataFolder(settings.dataDir, 'engine');
  const sql = await openSql({ databaseUrl: settings.databaseUrl, dataDir, schema: `${schemaPrefix}engine` });
  closers.push(() => sql.close());
  const { tokens, secrets } = host.infrastructure;
  const engine = await createEngine({
    sql,
    logger: logger.child({ room: 'engine' }),
    tokens,
    secrets,
    // The engine calls no private address but this BFF's own.
    webhooks: { allowedPrivateOrigins: [host.url] },
    llm: settings.llm,
    media: { stt: settings.stt },
    tts: settings.tts,
    operatorToken,
  });
  closers.push(() => engine.media.stop());
  closers.push(() => engine.monitors.stop());
  closers.push(() => engine.reports.stop());
  engine.webhooks.start(WEBHOOK_POLL_MS);
  closers.push(() => engine.webhooks.stop());
  const server = createServer(engine.app.callback());
  engine.attachVoiceStream(server);
  await listen(server, settings.enginePort, settings.host);
  closers.push(() => closeServer(server));
  const url = urlOf(server);
  const shop = await openShopAccount(sql, { sandboxKey: DEMO_API_KEY, actions: true });
  const apiKeys = [shop.apiKey, shop.liveApiKey];
  const webhookUrl = `${host.url}/v1/engine-webhooks`;
  const register = async (apiKey: string) => {
    const endpoint = await new EngineClient({ baseUrl: url, apiKey }).createWebhookEndpoint(webhookUrl, 'Parley BFF');
    return endpoint.secret;
  };
  const given = settings.engineWebhookSecrets;
  const webhookSecrets = given.length > 0 ? given : await Promise.all(apiKeys.map(register));
  return { url, apiKeys, operatorToken, webhookSecrets, webhookUrl: settings.engineWebhookUrl ?? webhookUrl };
}

/** Takes what the stack's BFF nodes put in Redis (keys, streams) out again; nothing to do without Redis or while it is away. */
async function forgetRedisKeys({ redis }: BffInfrastructure): Promise<void> {
  if (!redis?.client.isReady) return;
  for await (const key of redis.client.scanIterator({ MATCH: `${redis.prefix}*`, COUNT: 500 }))
    await redis.client.del(key);
}
