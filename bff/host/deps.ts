import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { Server as HttpServer } from 'node:http';
import type Koa from 'koa';
import type Router from '@koa/router';
import type {
  Logger,
  RateLimiter,
  Redis,
  RollingLimiter,
  SecretBox,
  SendWebhook,
  SessionTokens,
  Sql,
  WebhookWorker,
} from '../../shared/server/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import type { MessageLimits } from '../widget/message-limits.ts';
import type { EngineClient } from '../engine-link/engine-client.ts';
import type { EngineOperator } from '../engine-link/engine-operator.ts';
import type { FeedTail } from '../engine-link/feed-tail.ts';
import type { Relay } from '../engine-link/relay.ts';
import type { ClientApiLimits } from '../client-api/limits.ts';
import type { HelpdeskLimits } from '../helpdesk/rate-limits.ts';
import type { AttachmentService } from '../attachments/attachment-service.ts';
import type { Attachments } from '../attachments/open-storage.ts';
import type { Housekeeping } from './housekeeping.ts';
import type { Metrics } from './metrics.ts';
import type { Email } from '../email/email.ts';
import type { EmailSettings } from '../email/email-settings.ts';

/** What `createBff` is built from: the store, the engine, the session keys and the settings of a host. */
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
  /** Open `/widget` sockets one client address may hold on a node (SOCKETS_PER_ADDRESS, 200); only the idle-connections bench lifts it. */
  widgetSocketsPerAddress?: number | undefined;
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
  /** Other numbers for the Platform and Application APIs' limits (HELPDESK_* variables, a test); HELPDESK_LIMITS by default. */
  helpdeskLimits?: Partial<HelpdeskLimits> | undefined;
  /** Verified sessions one API key mints a minute (API_KEY_SESSIONS_PER_MINUTE; a test lowers it). */
  apiKeySessionsPerMinute?: number | undefined;
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
  /** The BFF's address as people reach it (for sign-in links); by default the address and port the server was reached on, never a request's Host. */
  publicUrl?: string | undefined;
  /** STUN/TURN URLs for person calls (ICE_SERVERS); none on one machine or LAN. */
  iceServers?: string[] | undefined;
  /** The longest a person call may last once answered (CALL_MAX_S, an hour). */
  callMaxS?: number | undefined;
  /** How long a node's hold on its sides of calls lasts unrenewed (15 s; a test shortens it to see a node's death sooner). */
  callLeaseMs?: number | undefined;
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
  /** Conversations continued by e-mail (SMTP_URL, MAIL_REPLY_DOMAIN…); unset: no e-mail either way. */
  email?: EmailSettings | undefined;
}

/** What `createBff` returns: the Koa app, the parts tests drive, and the Socket.IO attach function. */
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
  /** Which engine account serves each inbox (a move to an engine account of its own resets it: engine-account-moves.ts). */
  engines: EngineAccounts;
  /** Digests out, replies in (send the due digests and find the SMTP listener's port in tests). */
  email: Email;
  openApi(): Record<string, unknown>;
  /** Attaches Socket.IO to the HTTP server that serves `app`. */
  attach(server: HttpServer): void;
  close(): Promise<void>;
}
