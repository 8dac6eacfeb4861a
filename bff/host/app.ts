import type { Server as HttpServer } from 'node:http';
import type { Server as SocketServer } from 'socket.io';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import type Router from '@koa/router';
import { z } from 'zod';
import { DESK_NAMESPACE, ParleyError, WIDGET_NAMESPACE } from '../../shared/index.ts';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import {
  ApiRoutes,
  createSender,
  createWebhookWorker,
  DEFAULT_MEDIA_LIMIT,
  openSecretBox,
  resealStored,
  type SealedColumn,
  errorBoundary,
  forStreamsAdapter,
  MemoryRateLimiter,
  MemoryRollingLimiter,
  migrate,
  RedisRateLimiter,
  RedisRollingLimiter,
  type Logger,
  type RateLimiter,
  type Redis,
  type RollingLimiter,
  type SecretBox,
  type SendWebhook,
  type SessionTokens,
  type Sql,
  type WebhookWorker,
} from '../../shared/server/index.ts';
import { createConversationService, type ConversationService } from '../widget/conversation-service.ts';
import type { MessageLimits } from '../widget/message-limits.ts';
import { crossOrigin } from '../widget/cors.ts';
import type { EngineClient } from '../engine-link/engine-client.ts';
import { EngineKeys } from '../engine-link/engine-keys.ts';
import { EngineAccounts } from '../engine-link/engine-accounts.ts';
import { createEngineAccountProvisioning } from '../engine-link/engine-account-provisioning.ts';
import { createEngineAccountKeys } from '../engine-link/engine-account-keys.ts';
import type { EngineOperator } from '../engine-link/engine-operator.ts';
import { placeUnplacedState } from '../store/environments.ts';
import { createEngineEventRecorder } from '../engine-link/engine-events.ts';
import { createCustomerErasure } from '../engine-link/customer-erasure.ts';
import { createFeedTail, type FeedTail } from '../engine-link/feed-tail.ts';
import { startHousekeeping, type Housekeeping } from './housekeeping.ts';
import { bffOpenApi, helpdeskOpenApi, isDeskRoute } from './openapi.ts';
import { applicationAuth, platformAuth, validationIs422, type ApplicationState, type PlatformState } from '../helpdesk/auth.ts';
import { addApplicationRoutes } from '../helpdesk/application-routes.ts';
import { addInboxRoutes } from '../helpdesk/inbox-routes.ts';
import { addApiKeyRoutes } from '../helpdesk/api-key-routes.ts';
import { createApiKeyService } from '../helpdesk/api-key-service.ts';
import { addCannedResponseRoutes } from '../helpdesk/canned-response-routes.ts';
import { addDeskConversationRoutes } from '../helpdesk/desk-conversation-routes.ts';
import { createDeskConversationService } from '../helpdesk/desk-conversation-service.ts';
import { deskWebhooks } from '../helpdesk/desk-webhooks.ts';
import { addDeskSocket, deskRoomsOf } from '../helpdesk/desk-socket.ts';
import { addWebhookRoutes } from '../helpdesk/webhook-routes.ts';
import { createInboxService } from '../helpdesk/inbox-service.ts';
import { createHelpdeskService } from '../helpdesk/helpdesk-service.ts';
import { addPlatformRoutes } from '../helpdesk/platform-routes.ts';
import { addSessionSignInRoutes } from '../helpdesk/session-routes.ts';
import { Publisher } from '../realtime/publisher.ts';
import { createRelay, type Relay } from '../engine-link/relay.ts';
import { createSocketServer } from '../realtime/socket-server.ts';
import { createClientService } from '../client-api/client-service.ts';
import { addClientSocket } from '../client-api/realtime.ts';
import { addClientApiRoutes, type DeskState } from '../client-api/routes.ts';
import type { ClientApiLimits } from '../client-api/limits.ts';
import { addEngineWebhookRoutes } from '../engine-link/webhook-routes.ts';
import { addSurveyPageRoutes } from '../widget/survey-page.ts';
import { addHostedChatRoutes } from '../widget/hosted-chat-page.ts';
import { addHealthRoutes } from './health-routes.ts';
import { addMetricsRoutes } from './metrics-routes.ts';
import { Metrics } from './metrics.ts';
import { countPending, pendingDeliveries } from '../store/backlog.ts';
import { CLIENT_NAMESPACE, clientInboxRoom, contactRoom } from '../client-api/realtime.ts';
import { addConsoleRoutes } from '../helpdesk/console-page.ts';
import { addWidgetRoutes } from '../widget/conversation-routes.ts';
import { addWidgetHelpRoutes } from '../widget/help-routes.ts';
import { createHelpArticles } from '../widget/help-articles.ts';
import { addWidgetAttachmentRoutes } from '../attachments/widget-routes.ts';
import { addDeskAttachmentRoutes } from '../attachments/desk-routes.ts';
import { createAttachmentService, type AttachmentService } from '../attachments/attachment-service.ts';
import { createAttachmentDisposal } from '../attachments/disposal.ts';
import type { Attachments } from '../attachments/open-storage.ts';
import { MemoryAttachmentStorage } from '../attachments/storage.ts';
import { startAttachmentSweep } from '../attachments/sweep.ts';
import { addWidgetAssetRoutes } from '../widget/asset-routes.ts';
import { addSessionRoutes } from '../widget/session-routes.ts';
import { addWidgetSocket, customerRoom, widgetInboxRoom } from '../widget/socket.ts';
import { sessionAuth, widgetRateLimit, type WidgetState } from '../widget/session-auth.ts';
import { WidgetSessions } from '../widget/sessions.ts';

export const BFF_MIGRATIONS = fileURLToPath(new URL('../store/migrations/', import.meta.url));

/** Where the BFF keeps sealed secrets: sealed again under the current key at start (`resealStored`). */
export const BFF_SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'settings', key: 'name', column: 'value', where: "name IN ('session_keys', 'engine_api_key', 'engine_api_key_live', 'engine_webhook', 'engine_webhook_live', 'engine_operator_token')" },
  { table: 'webhook_endpoints', key: 'id', column: 'secret' },
  { table: 'agent_bots', key: 'id', column: 'webhook_secret' },
  { table: 'engine_accounts', key: 'account_id', column: 'api_keys' },
  { table: 'engine_accounts', key: 'account_id', column: 'webhooks', where: 'webhooks IS NOT NULL' },
];

/** At most 20 site-key requests per client address in any rolling 60 minutes (SPEC "Limits"). */
export const SITE_KEY_LIMIT = { requests: 20, windowMs: 60 * 60_000 } as const;
/** What one customer may do on the widget routes per minute (polling excluded). */
export const WIDGET_REQUESTS_PER_MINUTE = 120;

export interface BffDeps {
  sql: Sql;
  logger: Logger;
  /**
   * The installation's keys to its engine (AI_API_KEY), at most one per environment, all of one
   * engine account: they serve inboxes of no account and accounts made before each account had an
   * engine account of its own; a conversation goes up with its own environment's key. The first is
   * the key the BFF had when it held only one: what it kept then belongs to that key's environment.
   */
  engine: EngineClient | readonly EngineClient[];
  /**
   * The engine's operator routes (AI_OPERATOR_TOKEN): each helpdesk account made through the
   * Platform API gets an engine account of its own there. Without it, making an account answers 503
   * `not_configured`.
   */
  operator?: EngineOperator | undefined;
  /**
   * Where the engine reaches this BFF's `/v1/engine-webhooks` (ENGINE_WEBHOOK_URL): each new
   * account's engine endpoints post to it with `/{account}` appended. Unset: their events come
   * from the feed.
   */
  engineWebhookUrl?: string | undefined;
  tokens: SessionTokens;
  /** The folder with the built widget (`widget.js`, `app.js`, chunks). */
  widgetAssetsDir: string;
  /** The folder with the built agent console (`console.js`); by default `console/` beside the widget's folder. */
  consoleAssetsDir?: string | undefined;
  now?: () => Date;
  /** The inbox of sessions whose token names none (tokens minted by the engine or with an API key). */
  defaultInboxId?: string | undefined;
  /** How many proxies in front append to X-Forwarded-For (0: the peer is the client). */
  trustProxyHops?: number;
  /** The secrets the engine signs its webhooks to this BFF with (one per endpoint, so one per environment); without one, webhooks are refused. */
  engineWebhookSecret?: string | readonly string[] | undefined;
  /**
   * How often the engine's feed is read while webhooks are quiet or not set up (it is also read at
   * start and after the engine was unreachable); 0 turns the tail off (tests drive it by hand).
   */
  feedPollMs?: number;
  /** How long an event of the engine's answer may take to come again by webhook before webhooks count as quiet (30 s). */
  webhookGraceMs?: number;
  siteKeyLimiter?: RollingLimiter;
  widgetLimiter?: RateLimiter;
  /** Other numbers for the Client API's limits (a test lifts one); CLIENT_API_LIMITS by default. */
  clientApiLimits?: Partial<ClientApiLimits> | undefined;
  /** Other numbers for the limits of new messages a minute per customer, per address and per inbox (a test lifts one); MESSAGE_LIMITS by default. */
  messageLimits?: Partial<MessageLimits> | undefined;
  relayRetryDelaysMs?: readonly number[];
  /** How long the engine may take before the AI's typing indicator shows (300 ms; 0 shows it at every message). */
  aiTypingAfterMs?: number;
  /** Where the BFF counts what operators watch; give the same one to the EngineClients' `fetch` (timedFetch) to time engine calls. */
  metrics?: Metrics | undefined;
  /** Turns GET /metrics on for this bearer token (METRICS_TOKEN). */
  metricsToken?: string | undefined;
  /** How often housekeeping runs (an hour; 0: only when a test asks). */
  housekeepingMs?: number;
  /** The BFF's address as people reach it (for sign-in links); by default the address a request came to. */
  publicUrl?: string | undefined;
  /** Routes a host adds after the BFF's own (the demo's pages). */
  extraRouters?: Router[];
  /**
   * Redis shared by several BFF nodes: the rate limits and Socket.IO's rooms go there (keys and
   * streams under `prefix`). Without it, both stay in this process.
   */
  redis?: { client: Redis; prefix: string } | undefined;
  /** Seals the secrets the BFF stores (webhook signing secrets); by default a key of this process only. */
  secrets?: SecretBox | undefined;
  /** Where customers' files are kept and the largest taken (openBffInfrastructure opens it); by default memory and 10 MB. */
  attachments?: Attachments | undefined;
  /** The helpdesk's webhooks (`X-Desk-*`): how often the worker looks for due deliveries (0: only when nudged or drained, for tests), and the operator's own private origins they may reach. */
  deskWebhooks?: { pollMs?: number; allowedPrivateOrigins?: readonly string[]; send?: SendWebhook } | undefined;
}

export interface Bff {
  app: Koa;
  conversations: ConversationService;
  relay: Relay;
  feed: FeedTail;
  /** Sends the helpdesk's webhooks (drain it in tests). */
  webhooks: WebhookWorker;
  /** Trims what is kept only for a while (seen engine events). */
  housekeeping: Housekeeping;
  /** Customers' files: send, read, erase (with a customer's data), sweep. */
  attachments: AttachmentService;
  metrics: Metrics;
  openApi(): Record<string, unknown>;
  /** Attaches Socket.IO to the HTTP server that serves `app`. */
  attach(server: HttpServer): void;
  close(): Promise<void>;
}

/**
 * Builds the BFF on its store (migrating it first), resumes forwarding any waiting work, and
 * starts reading the engine's feed.
 */
export async function createBff(deps: BffDeps): Promise<Bff> {
  const { sql, logger, tokens, widgetAssetsDir, defaultInboxId, now = () => new Date(), extraRouters = [] } = deps;
  const installation = new EngineKeys(deps.engine);
  await migrate(sql, BFF_MIGRATIONS);
  await placeUnplacedState(sql, installation.first.environment);
  const secrets = deps.secrets ?? openSecretBox(undefined, 'memory://');
  const resealed = await resealStored(sql, secrets, BFF_SEALED_COLUMNS);
  if (resealed > 0) logger.info({ resealed }, 'secrets stored before sealing, or under an older key, are sealed with the current key');
  // Which engine key each conversation goes with: its account's own engine account's, or the installation's.
  const engines = new EngineAccounts({ sql, secrets, installation });
  const webhookSecrets = [deps.engineWebhookSecret ?? []].flat();
  // The installation's engine account, asked once (again after a failure): only its keys mint sessions for the default inbox here.
  let ownAccount: Promise<string> | undefined;
  const ownAccountId = () =>
    (ownAccount ??= installation.first.me().then(
      (me) => me.account_id,
      (error: unknown) => {
        ownAccount = undefined;
        throw error;
      },
    ));
  // Sessions minted with the installation's API key belong to the default inbox: it must be one the installation's keys serve.
  const sessionInboxId = defaultInboxId && (await engines.scopeOfInbox(defaultInboxId).catch(() => null)) !== null ? undefined : defaultInboxId;
  if (defaultInboxId && !sessionInboxId) logger.warn({ defaultInboxId }, "the default inbox has an engine account of its own: sessions minted with the installation's API key are refused");
  const sessions = new WidgetSessions(sql, tokens, sessionInboxId, ownAccountId, now);
  const { redis } = deps;
  // While Redis is away the limits let requests through; said in the log at most every 10 s.
  let warnedAt = 0;
  const redisTrouble = (error: Error) => {
    if (Date.now() - warnedAt < 10_000) return;
    warnedAt = Date.now();
    logger.warn({ err: error }, 'Redis did not answer; rate limits are letting requests through until it does');
  };
  const widgetLimiter = deps.widgetLimiter ?? (redis ? new RedisRateLimiter(redis.client, `${redis.prefix}widget:`, redisTrouble) : new MemoryRateLimiter());
  const siteKeyLimiter =
    deps.siteKeyLimiter ??
    (redis
      ? new RedisRollingLimiter(redis.client, `${redis.prefix}site-key:`, SITE_KEY_LIMIT.requests, SITE_KEY_LIMIT.windowMs, redisTrouble)
      : new MemoryRollingLimiter(SITE_KEY_LIMIT.requests, SITE_KEY_LIMIT.windowMs));
  const metrics = deps.metrics ?? new Metrics();
  const floodLimiter = redis ? new RedisRateLimiter(redis.client, `${redis.prefix}flood:`, redisTrouble) : new MemoryRateLimiter();
  const consumeCommand = async (session: { inboxId: string; customerRef: string }) => {
    const decision = await widgetLimiter.consume(`${session.inboxId}:${session.customerRef}`, WIDGET_REQUESTS_PER_MINUTE, now());
    if (decision.allowed) return;
    metrics.refusals.inc({ surface: 'socket' });
    throw new ParleyError('rate_limited', `This customer may make ${decision.limit} requests a minute.`);
  };
  // Built in dependency order: each part gets what it needs, and nothing is set afterwards.
  const publisher = new Publisher(logger);
  const webhookPolicy = { allowedPrivateOrigins: deps.deskWebhooks?.allowedPrivateOrigins ?? [] };
  const webhooks = createWebhookWorker({ sql, logger, now, send: deps.deskWebhooks?.send ?? createSender(webhookPolicy, { prefix: 'X-Desk' }), secrets });
  const deskHooks = deskWebhooks({ sql, now, wake: () => webhooks.nudge(), publicUrl: deps.publicUrl });
  publisher.subscribeDurable(deskHooks.record);
  publisher.subscribe(deskHooks.nudge);
  publisher.subscribe(({ changes }) => {
    for (const change of changes) {
      if (change.type === 'message.created' && change.message.author !== 'system') metrics.messages.inc({ direction: change.message.author === 'customer' ? 'in' : 'out' });
    }
  });
  // A forgotten customer's files are deleted by the disposal, which needs only the store and the storage.
  const attachmentStore = deps.attachments ?? { storage: new MemoryAttachmentStorage(), maxBytes: DEFAULT_MEDIA_LIMIT };
  const disposal = createAttachmentDisposal({ sql, storage: attachmentStore.storage, logger, now });
  const erasure = createCustomerErasure({ sql, logger, now, eraseAttachments: disposal.erase });
  const recorder = createEngineEventRecorder({ sql, publisher, now, erasure });
  const feed = createFeedTail({
    sql,
    engines,
    recorder,
    logger,
    pollMs: deps.feedPollMs ?? 2_000,
    webhooks: webhookSecrets.length > 0,
    ...(deps.webhookGraceMs ? { webhookGraceMs: deps.webhookGraceMs } : {}),
  });
  const relay = createRelay({
    sql,
    engines,
    recorder,
    publisher,
    logger,
    now,
    onAnswer: (events) => feed.expectWebhooks(events),
    onEngineBack: () => feed.wake(),
    ...(deps.relayRetryDelaysMs ? { retryDelaysMs: deps.relayRetryDelaysMs } : {}),
    ...(deps.aiTypingAfterMs !== undefined ? { typingAfterMs: deps.aiTypingAfterMs } : {}),
  });
  const conversations = createConversationService({ sql, engines, relay, publisher, now, messageLimiter: floodLimiter, messageLimits: deps.messageLimits });
  const attachments = createAttachmentService({ sql, ...attachmentStore, conversations, limiter: floodLimiter, logger, now, disposal });

  const open = new ApiRoutes();
  addSessionRoutes(open, {
    sql,
    sessions,
    engines,
    ownAccountId,
    siteKeyLimiter,
    trustProxyHops: deps.trustProxyHops ?? 0,
    now,
  });
  addEngineWebhookRoutes(open, { sql, recorder, engines, secrets: webhookSecrets, now, onWebhook: () => feed.webhookArrived() });
  addWidgetAssetRoutes(open, widgetAssetsDir);
  addHealthRoutes(open, { sql, engines: installation, redis });
  addMetricsRoutes(open, metrics, deps.metricsToken);
  addHostedChatRoutes(open, sql);
  addConsoleRoutes(open, deps.consoleAssetsDir ?? join(widgetAssetsDir, '../console'));
  const client = createClientService({ sql, conversations, attachments, publisher, floodLimiter, now, publicUrl: deps.publicUrl });
  const desk = new ApiRoutes<DeskState>();
  addClientApiRoutes(desk, client, { trustProxyHops: deps.trustProxyHops ?? 0, limits: deps.clientApiLimits });
  addSurveyPageRoutes(desk, client);
  const widget = new ApiRoutes<WidgetState>({ middleware: [sessionAuth(sessions, sql), widgetRateLimit(widgetLimiter, WIDGET_REQUESTS_PER_MINUTE, now)] });
  addWidgetRoutes(widget, conversations, deskHooks, deps.trustProxyHops ?? 0);
  addWidgetAttachmentRoutes(widget, attachments, conversations, deps.trustProxyHops ?? 0);
  addWidgetHelpRoutes(widget, createHelpArticles({ engines, now }));
  // Everyone connected to an account the operator suspends or deletes is disconnected (attach() listens, on every node through the adapter).
  const accountClosed = new Set<(accountId: number, inboxIds: string[]) => void>();
  const engineAccounts = createEngineAccountProvisioning({ sql, secrets, accounts: engines, operator: deps.operator, webhookUrl: deps.engineWebhookUrl, logger, now });
  const helpdesk = createHelpdeskService({
    sql,
    now,
    policy: webhookPolicy,
    secrets,
    engineAccounts,
    onAccountClosed: (accountId, inboxIds) => {
      for (const listener of accountClosed) listener(accountId, inboxIds);
    },
  });
  const trustProxyHops = deps.trustProxyHops ?? 0;
  const platform = new ApiRoutes<PlatformState>({ middleware: [validationIs422, platformAuth(sql, trustProxyHops)] });
  addPlatformRoutes(platform, helpdesk, (origin) => deps.publicUrl ?? origin);
  const application = new ApiRoutes<ApplicationState>({ middleware: [validationIs422, applicationAuth(sql, now, trustProxyHops)] });
  addApplicationRoutes(application, helpdesk, sql);
  addInboxRoutes(application, createInboxService({ sql, now }), sql);
  const engineAccountKeys = createEngineAccountKeys({ sql, operator: deps.operator, logger, now });
  addApiKeyRoutes(application, createApiKeyService({ sql, keys: engineAccountKeys, now }), sql);
  addCannedResponseRoutes(application, { sql, now });
  addWebhookRoutes(application, { sql, worker: webhooks, policy: webhookPolicy, now, secrets });
  const deskConversations = createDeskConversationService({ sql, engines, recorder, conversations, publisher, now, publicUrl: deps.publicUrl });
  addDeskConversationRoutes(application, deskConversations, sql);
  addDeskAttachmentRoutes(application, { desk: deskConversations, attachments, sql });
  const signIn = new ApiRoutes({ middleware: [validationIs422] });
  addSessionSignInRoutes(signIn, { sql, helpdesk, limiter: floodLimiter, trustProxyHops, now });

  const specs = () => [...open.specs, ...widget.specs, ...desk.specs, ...signIn.specs, ...platform.specs, ...application.specs];
  let document: Record<string, unknown> | undefined;
  const openApi = () => (document ??= bffOpenApi(specs()));
  let helpdeskDocument: Record<string, unknown> | undefined;
  const documentSchema = z.record(z.string(), z.unknown());
  open
    .add({ method: 'get', path: '/openapi.json', tag: 'Documents', summary: 'This document', responses: { 200: { description: 'The OpenAPI 3.1 description of the BFF.', schema: documentSchema } } }, (ctx) => {
      ctx.body = openApi();
    })
    .add(
      { method: 'get', path: '/helpdesk/openapi.json', tag: 'Documents', summary: "The helpdesk's document", responses: { 200: { description: 'The OpenAPI 3.1.0 description of the helpdesk (version 1.1.0).', schema: documentSchema } } },
      (ctx) => {
        ctx.body = helpdeskDocument ??= helpdeskOpenApi(specs());
      },
    );

  const app = new Koa();
  // Behind the proxies TRUST_PROXY_HOPS names, the scheme is theirs (X-Forwarded-Proto): HSTS is
  // sent when they took the request over https. Client addresses are read by clientAddress alone.
  app.proxy = trustProxyHops > 0;
  // Outermost, so that it sees every answer as it leaves, errors included.
  app.use(async (ctx, next) => {
    try {
      await next();
    } finally {
      metrics.responses.inc({ status: `${String(ctx.status).charAt(0)}xx` });
      if (ctx.status === 429) metrics.refusals.inc({ surface: 'http' });
    }
  });
  app.use(errorBoundary(logger, isDeskRoute));
  app.use(crossOrigin());
  const routers: Router<any>[] = [open.router, widget.router, desk.router, signIn.router, platform.router, application.router, ...extraRouters];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true }));
  }
  await relay.resume();
  feed.start();
  const webhookPollMs = deps.deskWebhooks?.pollMs ?? 1000;
  if (webhookPollMs > 0) webhooks.start(webhookPollMs);
  const housekeeping = startHousekeeping({ sql, logger, now }, deps.housekeepingMs);
  const attachmentSweep = startAttachmentSweep(attachments, logger, deps.housekeepingMs);
  let io: SocketServer | undefined;
  metrics.gauge(async () => [
    { name: 'parley_relay_queue_depth', help: 'Customer messages stored and waiting to reach the engine.', values: [{ value: await countPending(sql) }] },
    { name: 'parley_webhook_backlog', help: "Helpdesk webhook deliveries not yet delivered.", values: [{ value: await pendingDeliveries(sql) }] },
    {
      name: 'parley_sockets',
      help: 'Socket.IO connections to this node, by namespace.',
      values: [WIDGET_NAMESPACE, CLIENT_NAMESPACE, DESK_NAMESPACE].map((namespace) => ({ labels: { namespace }, value: io?.of(namespace).sockets.size ?? 0 })),
    },
  ]);

  return {
    app,
    conversations,
    relay,
    feed,
    webhooks,
    housekeeping,
    attachments,
    metrics,
    openApi,
    attach(server) {
      io = createSocketServer(server, redis ? createAdapter(forStreamsAdapter(redis.client), { streamName: `${redis.prefix}socket.io` }) : undefined);
      addWidgetSocket(io, { sql, sessions, conversations, publisher, logger, consumeCommand, trustProxyHops });
      addClientSocket(io, { sql, publisher, logger, publicUrl: deps.publicUrl });
      // A forgotten customer's widget tabs and Client API sockets close, on every node (through the adapter).
      erasure.onErased((erased) => {
        for (const { inboxId, customerRef } of erased.customers) io!.of(WIDGET_NAMESPACE).in(customerRoom(inboxId, customerRef)).disconnectSockets(true);
        for (const contactId of erased.contactIds) io!.of(CLIENT_NAMESPACE).in(contactRoom(contactId)).disconnectSockets(true);
      });
      addDeskSocket(io, { sql, desk: deskConversations, publisher, logger, now });
      accountClosed.add((accountId, inboxIds) => {
        // `in([])` would name every socket: an account without inboxes has no widget or contact to close.
        if (inboxIds.length > 0) {
          io!.of(WIDGET_NAMESPACE).in(inboxIds.map(widgetInboxRoom)).disconnectSockets(true);
          io!.of(CLIENT_NAMESPACE).in(inboxIds.map(clientInboxRoom)).disconnectSockets(true);
        }
        io!.of(DESK_NAMESPACE).in(deskRoomsOf(accountId, inboxIds)).disconnectSockets(true);
      });
    },
    async close() {
      housekeeping.stop();
      attachmentSweep.stop();
      await feed.stop();
      await relay.close();
      await webhooks.stop();
      await io?.close();
    },
  };
}
