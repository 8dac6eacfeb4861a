import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import {
  ApiRoutes,
  createSender,
  createSignal,
  createWebhookWorker,
  openSecretBox,
  resealStored,
  type SecretBox,
  errorBoundary,
  MemoryRateLimiter,
  migrate,
  type Logger,
  type RateLimiter,
  type SendWebhook,
  type SessionTokens,
  type Sql,
  type WebhookWorker,
} from '../shared/server/index.ts';
import { callerOf, requireApiKey, requireOperatorToken, type EngineState } from './auth.ts';
import { createEmbeddingsClient, type EmbeddingsSettings } from './brain/embeddings-client.ts';
import { KnowledgeCache } from './brain/knowledge-cache.ts';
import { LlmClient, type LlmSettings } from './brain/llm-client.ts';
import { createConversationService } from './conversations/index.ts';
import { idempotency } from './idempotency.ts';
import { engineOpenApi } from './openapi.ts';
import { countRequests, refuseOverLimit, type RequestState } from './rate-limit.ts';
import { addAccountRoutes } from './routes/account.ts';
import { addOperatorRoutes } from './routes/operator.ts';
import { addConversationRoutes } from './routes/conversations.ts';
import { addAssistRoutes } from './routes/assist.ts';
import { createAssist } from './conversations/assist.ts';
import { addPublicRoutes } from './routes/public.ts';
import { addCallRoutes } from './routes/calls.ts';
import { createCallServices } from './calls/call-services.ts';
import type { TtsSettings } from './calls/speaker.ts';
import { addWebhookRoutes } from './routes/webhooks.ts';
import { addAgentRoutes } from './routes/agent.ts';
import { addCustomerRoutes } from './routes/customers.ts';
import { purgeForgetNoticesHourly } from './customer-erasure.ts';
import { addKnowledgeRoutes } from './routes/knowledge.ts';
import { addActionRoutes } from './routes/actions.ts';
import { addSandboxFixtureRoutes } from './routes/sandbox-fixtures.ts';
import { ACTION_ANSWER_LIMIT, createLiveActions } from './actions/live-actions.ts';
import { createMediaWorker, type MediaWorker } from './media/worker.ts';
import { createReportWorker, type ReportWorker } from './reports/worker.ts';
import { addMediaRoutes, DEFAULT_MEDIA_STORAGE_LIMIT, uploadBodyLimit } from './routes/media.ts';
import { createTranscriber, type SttSettings } from './media/transcriber.ts';
import { createVoiceNoteAnswer } from './media/voice-note-answer.ts';
import { addReportRoutes } from './routes/reports.ts';
import { addSurveyRoutes } from './routes/survey.ts';
import { addInterviewRoutes } from './routes/interviews.ts';
import { addUsageRoutes } from './routes/usage.ts';
import { addMonitorRoutes } from './routes/monitors.ts';
import { createMonitorWorker, type MonitorWorker } from './monitors/worker.ts';
import { DEFAULT_MEDIA_LIMIT } from '../shared/server/index.ts';
import type { EngineEvent } from '../shared/index.ts';
import { feedEndpoints } from './webhooks/endpoints.ts';

export const ENGINE_MIGRATIONS = fileURLToPath(new URL('./store/migrations/', import.meta.url));

export interface EngineDeps {
  sql: Sql;
  logger: Logger;
  now?: () => Date;
  /** Signs widget session tokens for `POST /v1/widget-sessions`; the same key set as the BFF's. */
  tokens?: SessionTokens | undefined;
  /** Counts requests a minute per account and environment, and per client address without an API key. */
  rateLimiter?: RateLimiter;
  /** Proxies in front of the engine that append to X-Forwarded-For (TRUST_PROXY_HOPS): the client address is that many entries from the right. */
  trustProxyHops?: number;
  /** Seals the webhook signing secrets it stores (SECRETS_KEYS, or DATA_DIR/secrets.key); by default a key of this process only. */
  secrets?: SecretBox;
  /** An OpenAI-compatible model for the LLM brain (LLM_BASE_URL, LLM_MODEL, LLM_API_KEY); without it the retrieval brain answers. */
  llm?: LlmSettings | undefined;
  /** An OpenAI-compatible embeddings API (EMBEDDINGS_BASE_URL, EMBEDDINGS_MODEL, …): questions are then matched by meaning too. */
  embeddings?: EmbeddingsSettings | undefined;
  /**
   * Uploads (`POST /v1/media`): the largest file taken (MEDIA_MAX_BYTES), 10 MB by default; the most
   * one account keeps (MEDIA_STORAGE_MAX_BYTES), 1 GiB by default; the transcription API that hears
   * voice notes (STT_BASE_URL, …), none by default.
   */
  media?: { maxBytes?: number | undefined; storageMaxBytes?: number | undefined; stt?: SttSettings | undefined };
  /** The speech API (TTS_BASE_URL, …): with `media.stt` too, customers can call the AI; none by default. */
  tts?: TtsSettings | undefined;
  /** Calls to actions' URLs (live customers): how long one may take, 10 s by default (SPEC "Limits"). */
  actions?: { timeoutMs?: number | undefined };
  /**
   * The installation operator's token (ENGINE_OPERATOR_TOKEN, at least 32 characters): it opens
   * `/operator/v1/accounts`, where the BFF makes, suspends and deletes the engine account of each
   * helpdesk account. Unset: those routes refuse every request.
   */
  operatorToken?: string | undefined;
  webhooks?: {
    /** Exact origins that may be private anyway (the operator's own BFF); nothing else private is called. */
    allowedPrivateOrigins?: readonly string[];
    /** Replaces the HTTP sender (tests that must control the receiver's answers use a real server instead). */
    send?: SendWebhook;
  };
}

export interface Engine {
  app: Koa<RequestState>;
  sql: Sql;
  openApi(): Record<string, unknown>;
  /** Every method and path the app's routers really serve (for checking the document against them). */
  servedRoutes(): { method: string; path: string }[];
  /** Delivers webhooks: start it with an interval, or drain it in tests. */
  webhooks: WebhookWorker;
  /** Understands uploaded media after their upload (it runs by itself; stop it before closing the store). */
  media: MediaWorker;
  /** Runs the monitors on new messages (it runs by itself; stop it before closing the store). */
  monitors: MonitorWorker;
  /** Gathers reports asked for with `POST /v1/reports` (it runs by itself; stop it before closing the store). */
  reports: ReportWorker;
  /** Serves the AI call's WebSocket (`/v1/voice-sessions/stream`) on the server that listens with `app`. */
  attachVoiceStream(server: Server): void;
}

/** What every part of the engine is built on, with the defaults of EngineDeps applied. */
interface Basics {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  secrets: SecretBox;
  llm: LlmSettings | undefined;
  embeddings: EmbeddingsSettings | undefined;
}

/**
 * Migrates the store. Webhook and action secrets stored before sealing began, or under an older
 * key, are then sealed with the current one.
 */
async function prepareStore(sql: Sql, secrets: SecretBox): Promise<void> {
  await migrate(sql, ENGINE_MIGRATIONS);
  await resealStored(sql, secrets, [
    { table: 'webhook_endpoints', key: 'id', column: 'secret' },
    // Actions are keyed by account and name; names hold no '/'.
    { table: 'actions', key: "account_id || '/' || name", column: 'secret', where: 'secret IS NOT NULL' },
  ]);
}

/** The conversations, and the work done beside the requests: action URLs called, webhooks sent, media understood. */
function createServices(
  { sql, logger, now, secrets, llm, embeddings }: Basics,
  webhooks: NonNullable<EngineDeps['webhooks']>,
  actions: NonNullable<EngineDeps['actions']>,
  media: NonNullable<EngineDeps['media']>,
  tts: TtsSettings | undefined,
) {
  // After the commit: a live customer's request for an action with a URL is posted there now.
  const committed = createSignal<readonly EngineEvent[]>();
  // An action's result recorded: the webhook worker sends its events now.
  const resultRecorded = createSignal<void>();
  // One knowledge cache: the AI answers from it, and assist suggests from it.
  const knowledge = new KnowledgeCache({
    embeddings: embeddings ? createEmbeddingsClient(embeddings, { logger }) : undefined,
    logger,
  });
  const conversations = createConversationService({
    sql,
    knowledge,
    now,
    llm: llm ? new LlmClient(llm) : undefined,
    onCommitted: committed.emit,
  });
  const policy = { allowedPrivateOrigins: webhooks.allowedPrivateOrigins ?? [] };
  const send = webhooks.send ?? createSender(policy);
  const liveActions = createLiveActions({
    sql,
    logger,
    now,
    send: createSender(policy, {
      answerLimit: ACTION_ANSWER_LIMIT,
      ...(actions.timeoutMs ? { timeoutMs: actions.timeoutMs } : {}),
    }),
    policy,
    secrets,
    record: (caller, id, request) => conversations.actionResult(caller, id, request),
    recorded: () => resultRecorded.emit(),
  });
  committed.listen((events) => liveActions.requested(events));
  // Each pass also calls the action URLs a stopped process left uncalled.
  const feed = async (db: Sql, at: Date) => {
    await feedEndpoints(db, at);
    await liveActions.sweep();
  };
  const worker = createWebhookWorker({ sql, logger, now, send, feed, secrets });
  resultRecorded.listen(() => worker.nudge());

  // A model that reads images describes uploaded photos; its own client, so its failures open no circuit for the chat.
  const mediaWorker = createMediaWorker({
    sql,
    logger,
    now,
    vision: llm?.vision ? new LlmClient(llm) : undefined,
    transcriber: media.stt ? createTranscriber(media.stt) : undefined,
    answerVoiceNote: createVoiceNoteAnswer({ sql, now, logger, conversations }),
    onEvents: () => worker.nudge(),
  });
  // Reports asked for are gathered off the request path; report.ready goes out at once.
  const reportWorker = createReportWorker({ sql, logger, now, onEvents: () => worker.nudge() });
  // Monitors read each message after its commit, never in its request; their findings go out at once.
  const monitorWorker = createMonitorWorker({
    sql,
    logger,
    now,
    llm: llm ? new LlmClient(llm) : undefined,
    onEvents: () => worker.nudge(),
  });
  committed.listen(() => monitorWorker.nudge());
  const { calls, voiceStream } = createCallServices({
    ...{ sql, now, logger, conversations, stt: media.stt, tts },
    onEvents: () => worker.nudge(),
  });
  return { conversations, knowledge, policy, worker, mediaWorker, reportWorker, monitorWorker, calls, voiceStream };
}

type Services = ReturnType<typeof createServices>;

/** The routes: those an API key opens, the operator's, and the open ones (the document among them). */
function createRoutes(
  { sql, logger, now, secrets, llm }: Basics,
  { conversations, knowledge, policy, worker, mediaWorker, reportWorker, calls }: Services,
  {
    tokens,
    mediaMaxBytes,
    mediaStorageMaxBytes,
    operatorGuard,
  }: {
    tokens: SessionTokens | undefined;
    mediaMaxBytes: number;
    mediaStorageMaxBytes: number;
    operatorGuard: Koa.Middleware;
  },
) {
  const keyed = new ApiRoutes<EngineState>({
    middleware: [requireApiKey(), idempotency(sql, now, { multipartLimit: uploadBodyLimit(mediaMaxBytes) })],
  });
  addConversationRoutes(keyed, conversations, logger);
  // Its own model client: a person's assist failing opens no circuit for the customers' answers.
  addAssistRoutes(keyed, createAssist({ sql, knowledge, llm: llm ? new LlmClient(llm) : undefined, now }));
  addAccountRoutes(keyed, { sql, tokens, aiCalls: calls.aiCalls });
  addAgentRoutes(keyed, { sql, conversations, now, llm: Boolean(llm) });
  addCustomerRoutes(keyed, { sql, now });
  addWebhookRoutes(keyed, { sql, worker, policy, now, secrets });
  addKnowledgeRoutes(keyed, { sql, now });
  addActionRoutes(keyed, { sql, now, policy, secrets });
  addSandboxFixtureRoutes(keyed, { sql, now });
  addMediaRoutes(keyed, {
    sql,
    worker: mediaWorker,
    maxBytes: mediaMaxBytes,
    storageMaxBytes: mediaStorageMaxBytes,
    now,
  });
  addReportRoutes(keyed, { sql, now, worker: reportWorker });
  addUsageRoutes(keyed, { sql, now });
  addSurveyRoutes(keyed, { sql, now });
  addMonitorRoutes(keyed, { sql, now, llm: Boolean(llm) });
  addInterviewRoutes(keyed, { sql, now });
  addCallRoutes(keyed, calls);
  const operator = new ApiRoutes({ middleware: [operatorGuard] });
  addOperatorRoutes(operator, { sql, now, logger });
  const open = new ApiRoutes();
  let document: Record<string, unknown> | undefined;
  const openApi = () => (document ??= engineOpenApi([...keyed.specs, ...open.specs, ...operator.specs]));
  addPublicRoutes(open, { calls, document: openApi });
  return { routers: [open, keyed, operator], openApi };
}

type Routers = ReturnType<typeof createRoutes>['routers'];

/** The Koa app: requests counted, errors shaped, then the routers in order. */
function createApp(
  { sql, logger, now }: Basics,
  { rateLimiter, trustProxyHops }: { rateLimiter: RateLimiter; trustProxyHops: number },
  workers: readonly Pick<WebhookWorker, 'nudge'>[],
  routers: Routers,
): Koa<RequestState> {
  const app = new Koa<RequestState>();
  // Before the error boundary, so that its own answers carry X-RateLimit-* too; the refusal is given inside it.
  app.use(countRequests({ identify: (ctx) => callerOf(sql, ctx), limiter: rateLimiter, now, trustProxyHops }));
  app.use(errorBoundary(logger));
  app.use(refuseOverLimit());
  // A forgotten customer's reference leaves the customer.forgotten event after a week (checked hourly, beside requests).
  app.use(purgeForgetNoticesHourly(sql, now, logger));
  // A change may have recorded events and messages: the webhook worker (once started) sends them now, the monitors read them.
  app.use(async (ctx, next) => {
    await next();
    if (ctx.method === 'POST' && ctx.status < 300) for (const worker of workers) worker.nudge();
  });
  for (const routes of routers) {
    app.use(routes.router.routes() as Koa.Middleware<RequestState>);
    app.use(routes.router.allowedMethods({ throw: true }) as Koa.Middleware<RequestState>);
  }
  return app;
}

/** Every method and path `routers` serve. */
function servedRoutesOf(routers: Routers): { method: string; path: string }[] {
  return routers.flatMap((routes) =>
    routes.router.stack
      .filter((layer) => layer.methods.length > 0)
      .flatMap((layer) =>
        layer.methods
          .filter((method) => method !== 'HEAD')
          .map((method) => ({ method: method.toLowerCase(), path: String(layer.path) })),
      ),
  );
}

/**
 * Builds the engine's HTTP app on its store (migrating it first). The caller listens:
 * `http.createServer(engine.app.callback()).listen(port)`.
 *
 * Every request is counted first, against its account and environment or, without a valid API
 * key, its client address, and every answer says so (`X-RateLimit-*`); over the limit it goes no
 * further, so a 429 changes nothing. A keyed route then checks the key, the Idempotency-Key, and
 * runs its handler with validated input.
 */
export async function createEngine({
  sql,
  logger,
  now = () => new Date(),
  tokens,
  rateLimiter = new MemoryRateLimiter(),
  trustProxyHops = 0,
  webhooks = {},
  secrets = openSecretBox(undefined, 'memory://'),
  llm,
  embeddings,
  media = {},
  actions = {},
  tts,
  operatorToken,
}: EngineDeps): Promise<Engine> {
  // Checked when built, before anything starts: a token too short to be one stops the process now.
  const operatorGuard = requireOperatorToken(operatorToken);
  await prepareStore(sql, secrets);
  const basics: Basics = { sql, logger, now, secrets, llm, embeddings };
  const services = createServices(basics, webhooks, actions, media, tts);
  const mediaMaxBytes = media.maxBytes ?? DEFAULT_MEDIA_LIMIT;
  const mediaStorageMaxBytes = media.storageMaxBytes ?? DEFAULT_MEDIA_STORAGE_LIMIT;
  const { routers, openApi } = createRoutes(basics, services, {
    tokens,
    mediaMaxBytes,
    mediaStorageMaxBytes,
    operatorGuard,
  });
  const app = createApp(basics, { rateLimiter, trustProxyHops }, [services.worker, services.monitorWorker], routers);
  // Media left being understood when a process stopped are taken up again.
  services.mediaWorker.nudge();
  // So are reports asked for before it stopped.
  services.reportWorker.nudge();
  // And messages the monitors had not read yet.
  services.monitorWorker.nudge();
  return {
    app,
    sql,
    openApi,
    servedRoutes: () => servedRoutesOf(routers),
    webhooks: services.worker,
    media: services.mediaWorker,
    monitors: services.monitorWorker,
    reports: services.reportWorker,
    attachVoiceStream: (server) => services.voiceStream.attach(server),
  };
}
