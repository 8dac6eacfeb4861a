import { z } from 'zod';
import { Origin } from '../../shared/index.ts';
import {
  blankIsUnset,
  DataDir,
  Host,
  HttpUrl,
  LogLevel,
  optionalVariable,
  OperatorToken,
  Port,
  PostgresUrl,
  PrivateExceptions,
  readEnv,
  RedisUrl,
  SecretKeySet,
  SessionKeySet,
  DEFAULT_MEDIA_LIMIT,
  type SecretKey,
  type SessionKey,
} from '../../shared/server/index.ts';
import type { AttachmentSettings } from '../attachments/open-storage.ts';
import { ATTACHMENTS_STORAGE_MAX_BYTES } from '../attachments/storage-cap.ts';
import { API_KEY_SESSIONS_PER_MINUTE } from '../widget/session-routes.ts';
import { HELPDESK_LIMITS, type HelpdeskLimits } from '../helpdesk/rate-limits.ts';
import { DEFAULT_ASK_AFTER_S, DEFAULT_DIGEST_DELAY_S, type EmailSettings } from '../email/email-settings.ts';

/** A key of the engine's (`service_test_…` / `service_live_…`), as SPEC's API keys look. */
const ApiKey = z
  .string()
  .regex(/^service_(test|live)_[0-9A-Za-z]{24,64}$/, 'must be API keys (service_test_… or service_live_…)');

/** A comma-separated setting, as its entries (blanks and empty entries dropped). */
const commaList = z.string().transform((text) =>
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean),
);

/**
 * The BFF's engine keys (`AI_API_KEY`): one, or one per environment separated by a comma, all of
 * one engine account. Sandbox customers go up with the `service_test_` key, live ones with the
 * `service_live_` key; an environment without a key is not served. The first key is the one whose
 * environment what was kept before belongs to.
 */
const ApiKeySet = commaList.pipe(
  z
    .array(ApiKey)
    .min(1)
    .refine(
      (keys) => new Set(keys.map((key) => key.slice(0, 13))).size === keys.length,
      'give at most one key per environment (one service_test_…, one service_live_…)',
    ),
);

/** The secrets of the engine's webhook endpoints for this BFF (one per environment), comma-separated. */
const WebhookSecretSet = commaList.pipe(
  z.array(z.string().min(16, 'each must be at least 16 characters')).max(2, 'at most one secret per environment'),
);

/** STUN/TURN URLs for person calls (issue 30), comma-separated: `stun:host:port`, `turn:host:port?transport=udp`. */
const IceServerSet = commaList.pipe(
  z.array(
    z
      .string()
      .max(300)
      .regex(/^(stuns?|turns?):[^\s,]+$/, 'each must be a stun:, stuns:, turn: or turns: URL'),
  ),
);

/**
 * The variables the BFF reads. The demo (`npm start`) reads the same ones and adds its own, so
 * they are declared here once; there the engine may be the demo's own (AI_API_URL unset).
 */
export const BffEnv = z.object({
  PORT: Port.default(8080),
  HOST: Host,
  /** The engine's base URL, without `/v1`. */
  AI_API_URL: optionalVariable(HttpUrl),
  AI_API_KEY: optionalVariable(ApiKeySet),
  /**
   * The engine's operator token (its ENGINE_OPERATOR_TOKEN): each account made through the Platform
   * API gets an engine account of its own with it. Unset: making an account answers 503
   * not_configured (the demo makes one for its own engine).
   */
  AI_OPERATOR_TOKEN: optionalVariable(OperatorToken),
  /** Where the engine reaches this BFF's /v1/engine-webhooks; new accounts' engine webhooks post to it with /{account} appended. Unset: their events come from the feed. */
  ENGINE_WEBHOOK_URL: optionalVariable(HttpUrl),
  DATA_DIR: DataDir,
  DATABASE_URL: optionalVariable(PostgresUrl),
  REDIS_URL: optionalVariable(RedisUrl),
  SESSION_KEYS: optionalVariable(SessionKeySet),
  /** Seals the secrets the BFF stores; unset: a key of this node in DATA_DIR/secrets.key. Several nodes (REDIS_URL) must share one. */
  SECRETS_KEYS: optionalVariable(SecretKeySet),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Where people reach this BFF (for one-time sign-in links), e.g. https://chat.example.com. */
  PUBLIC_URL: optionalVariable(Origin),
  ENGINE_WEBHOOK_SECRET: optionalVariable(WebhookSecretSet),
  FEED_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  /** How often the helpdesk's webhook worker looks for due deliveries (it also sends right after each change). */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** The operator's own services that helpdesk webhooks and agent bots may reach although private (origins, or origins with a path: then only at or under it). */
  WEBHOOK_ALLOWED_PRIVATE_ORIGINS: PrivateExceptions.default([]),
  LOG_LEVEL: optionalVariable(LogLevel),
  /** STUN/TURN servers for person calls; unset: none (enough on one machine or LAN). */
  ICE_SERVERS: optionalVariable(IceServerSet),
  /** The longest a person call may last once answered, in seconds; then it ends for both sides (`too_long`). */
  CALL_MAX_S: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** The Platform and Application APIs' limits a minute (bff/helpdesk/rate-limits.ts). */
  HELPDESK_REQUESTS_PER_TOKEN: z.coerce.number().int().min(1).max(1_000_000).default(HELPDESK_LIMITS.requestsPerToken),
  HELPDESK_REQUESTS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(HELPDESK_LIMITS.requestsPerAddress),
  HELPDESK_WRONG_TOKENS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(HELPDESK_LIMITS.wrongTokensPerAddress),
  /** Verified sessions one API key mints a minute, from every address together (6,000). */
  API_KEY_SESSIONS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(API_KEY_SESSIONS_PER_MINUTE),
  /** Turns GET /metrics on: Prometheus scrapes it with this bearer token. Unset: /metrics answers 404. */
  METRICS_TOKEN: optionalVariable(
    z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  ),
  /** An S3-compatible bucket for attachments (its URL, objects below it); unset: files under DATA_DIR/attachments. */
  ATTACHMENTS_S3_URL: optionalVariable(HttpUrl),
  ATTACHMENTS_S3_REGION: optionalVariable(
    z.string().regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as us-east-1 or eu-west-1'),
  ).default('us-east-1'),
  ATTACHMENTS_S3_ACCESS_KEY_ID: optionalVariable(
    z.string().regex(/^[\x21-\x7e]{3,128}$/, 'must be an access key id (printable, no spaces)'),
  ),
  ATTACHMENTS_S3_SECRET_ACCESS_KEY: optionalVariable(
    z.string().regex(/^[\x21-\x7e]{8,256}$/, 'must be a secret access key (printable, no spaces)'),
  ),
  /** The largest file a customer may attach (10 MB). */
  ATTACHMENTS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024, 'must be at least 1024')
    .max(100 * 1024 * 1024, 'must be at most 104857600 (100 MB)')
    .default(DEFAULT_MEDIA_LIMIT),
  /** The most bytes of files one helpdesk account keeps, the inboxes of no account together (1 GiB). */
  ATTACHMENTS_STORAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024, 'must be at least 1048576 (1 MB)')
    .default(ATTACHMENTS_STORAGE_MAX_BYTES),
  /** Where e-mail digests are sent (smtp://user:pass@host:587, smtps://…); unset: no e-mail is sent. */
  SMTP_URL: optionalVariable(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })),
  /** The digests' From, e.g. "Shop support <support@shop.example>". */
  MAIL_FROM: optionalVariable(
    z.string().min(3).max(320).regex(/@/, 'must be an address, e.g. Shop <support@shop.example>'),
  ),
  /** The domain of the reply+<token>@… addresses (its MX reaches INBOUND_SMTP_PORT or a provider's inbound webhook). */
  MAIL_REPLY_DOMAIN: optionalVariable(
    z
      .string()
      .regex(/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)*[a-z0-9-]{1,63}$/i, 'must be a domain name, e.g. reply.shop.example'),
  ),
  /** How long answers are gathered into one e-mail. */
  EMAIL_DIGEST_DELAY_S: z.coerce.number().int().min(0).max(86_400).default(DEFAULT_DIGEST_DELAY_S),
  /** How long a customer waits for a person after a handover before the widget offers the reply by e-mail. */
  EMAIL_ASK_AFTER_S: z.coerce.number().int().min(0).max(86_400).default(DEFAULT_ASK_AFTER_S),
  /** The port of the BFF's own SMTP listener for replies; unset: none. */
  INBOUND_SMTP_PORT: optionalVariable(Port),
  /** The secret POST /inbound/email checks X-Parley-Signature with; unset: the route answers 404. */
  INBOUND_EMAIL_SECRET: optionalVariable(z.string().min(16, 'must be at least 16 characters')),
});

/** E-mail sent needs its From; replies taken need the domain their addresses are at. */
export function emailComplete(
  value: {
    SMTP_URL?: string | undefined;
    MAIL_FROM?: string | undefined;
    MAIL_REPLY_DOMAIN?: string | undefined;
    INBOUND_SMTP_PORT?: number | undefined;
    INBOUND_EMAIL_SECRET?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (value.SMTP_URL && !value.MAIL_FROM)
    ctx.addIssue({
      code: 'custom',
      path: ['MAIL_FROM'],
      message: 'must be set when SMTP_URL is (the From of the e-mails)',
    });
  for (const name of ['INBOUND_SMTP_PORT', 'INBOUND_EMAIL_SECRET'] as const) {
    if (value[name] !== undefined && !value.MAIL_REPLY_DOMAIN)
      ctx.addIssue({
        code: 'custom',
        path: ['MAIL_REPLY_DOMAIN'],
        message: `must be set when ${name} is (replies come to reply+<token>@MAIL_REPLY_DOMAIN)`,
      });
  }
}

/** Several nodes (REDIS_URL) open each other's stored secrets: they need one key set, not a key file each. */
export function secretsGoWithRedis(
  value: { REDIS_URL?: string | undefined; SECRETS_KEYS?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (value.REDIS_URL && !value.SECRETS_KEYS) {
    ctx.addIssue({
      code: 'custom',
      path: ['SECRETS_KEYS'],
      message: 'must be set when REDIS_URL is (every node must open the secrets another node stored)',
    });
  }
}

/** A bucket needs its keys, and keys mean nothing without a bucket. */
export function attachmentBucketComplete(
  value: {
    ATTACHMENTS_S3_URL?: string | undefined;
    ATTACHMENTS_S3_ACCESS_KEY_ID?: string | undefined;
    ATTACHMENTS_S3_SECRET_ACCESS_KEY?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  for (const name of ['ATTACHMENTS_S3_ACCESS_KEY_ID', 'ATTACHMENTS_S3_SECRET_ACCESS_KEY'] as const) {
    if (value.ATTACHMENTS_S3_URL && !value[name])
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'must be set when ATTACHMENTS_S3_URL is (the key the BFF writes the bucket with)',
      });
    if (!value.ATTACHMENTS_S3_URL && value[name])
      ctx.addIssue({
        code: 'custom',
        path: ['ATTACHMENTS_S3_URL'],
        message: `must be set when ${name} is (the bucket's URL, e.g. https://my-bucket.s3.eu-west-1.amazonaws.com)`,
      });
  }
}

/** AI_API_URL names an engine elsewhere; the BFF can only speak to it with a key. */
export function keyGoesWithEngineUrl(
  value: { AI_API_URL?: string | undefined; AI_API_KEY?: readonly string[] | undefined },
  ctx: z.RefinementCtx,
): void {
  if (value.AI_API_URL && !value.AI_API_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['AI_API_KEY'],
      message: 'must be set when AI_API_URL is (the key this BFF uses with that engine)',
    });
  }
}

/** The BFF's settings, where the engine may still be unknown (the demo starts its own). */
export interface BffSettings {
  port: number;
  host: string;
  /** Set when the engine runs elsewhere. */
  aiApiUrl: string | undefined;
  /** One key per environment served; the first is the one what was kept before belongs to. */
  aiApiKeys: string[] | undefined;
  /** The engine's operator token: without it no account can be made (the demo makes one for its own engine). */
  aiOperatorToken: string | undefined;
  /** Where the engine posts new accounts' events (`/{account}` is appended). */
  engineWebhookUrl: string | undefined;
  /** An absolute folder, or `memory://`. */
  dataDir: string;
  databaseUrl: string | undefined;
  /** Redis shared by several nodes: rate limits and Socket.IO rooms. Unset: both in this process. */
  redisUrl: string | undefined;
  /** Unset: a key set made on first start and kept in the BFF's store. */
  sessionKeys: SessionKey[] | undefined;
  /** Unset: a key of this node in DATA_DIR/secrets.key. */
  secretKeys: SecretKey[] | undefined;
  trustProxyHops: number;
  /** Unset: the address each request came to. */
  publicUrl: string | undefined;
  engineWebhookSecrets: string[];
  feedPollMs: number;
  webhookPollMs: number;
  webhookAllowedPrivateOrigins: string[];
  logLevel: z.output<typeof LogLevel> | undefined;
  metricsToken: string | undefined;
  /** STUN/TURN URLs for person calls; empty: none. */
  iceServers: string[];
  /** The longest a person call may last once answered (CALL_MAX_S). */
  callMaxS: number;
  helpdeskLimits: HelpdeskLimits;
  /** Verified sessions one API key mints a minute (API_KEY_SESSIONS_PER_MINUTE). */
  apiKeySessionsPerMinute: number;
  /** Where attachments' bytes go (a bucket, or DATA_DIR) and the largest one taken. */
  attachments: AttachmentSettings;
  /** Conversations continued by e-mail; unset when neither SMTP_URL nor MAIL_REPLY_DOMAIN is. */
  email: EmailSettings | undefined;
}

/** The BFF's part of checked variables, by the names the code uses. */
export function bffSettings(value: z.output<typeof BffEnv>): BffSettings {
  return {
    port: value.PORT,
    host: value.HOST,
    aiApiUrl: value.AI_API_URL,
    aiApiKeys: value.AI_API_KEY,
    aiOperatorToken: value.AI_OPERATOR_TOKEN,
    engineWebhookUrl: value.ENGINE_WEBHOOK_URL,
    dataDir: value.DATA_DIR,
    databaseUrl: value.DATABASE_URL,
    redisUrl: value.REDIS_URL,
    sessionKeys: value.SESSION_KEYS,
    secretKeys: value.SECRETS_KEYS,
    trustProxyHops: value.TRUST_PROXY_HOPS,
    publicUrl: value.PUBLIC_URL,
    engineWebhookSecrets: value.ENGINE_WEBHOOK_SECRET ?? [],
    feedPollMs: value.FEED_POLL_MS,
    webhookPollMs: value.WEBHOOK_POLL_MS,
    webhookAllowedPrivateOrigins: value.WEBHOOK_ALLOWED_PRIVATE_ORIGINS,
    logLevel: value.LOG_LEVEL,
    metricsToken: value.METRICS_TOKEN,
    iceServers: value.ICE_SERVERS ?? [],
    callMaxS: value.CALL_MAX_S,
    helpdeskLimits: {
      requestsPerToken: value.HELPDESK_REQUESTS_PER_TOKEN,
      requestsPerAddress: value.HELPDESK_REQUESTS_PER_ADDRESS,
      wrongTokensPerAddress: value.HELPDESK_WRONG_TOKENS_PER_ADDRESS,
    },
    apiKeySessionsPerMinute: value.API_KEY_SESSIONS_PER_MINUTE,
    attachments: {
      maxBytes: value.ATTACHMENTS_MAX_BYTES,
      storageMaxBytes: value.ATTACHMENTS_STORAGE_MAX_BYTES,
      s3:
        value.ATTACHMENTS_S3_URL && value.ATTACHMENTS_S3_ACCESS_KEY_ID && value.ATTACHMENTS_S3_SECRET_ACCESS_KEY
          ? {
              bucketUrl: value.ATTACHMENTS_S3_URL,
              region: value.ATTACHMENTS_S3_REGION,
              accessKeyId: value.ATTACHMENTS_S3_ACCESS_KEY_ID,
              secretAccessKey: value.ATTACHMENTS_S3_SECRET_ACCESS_KEY,
            }
          : undefined,
    },
    email:
      value.SMTP_URL || value.MAIL_REPLY_DOMAIN
        ? {
            smtpUrl: value.SMTP_URL,
            from: value.MAIL_FROM ?? '',
            replyDomain: value.MAIL_REPLY_DOMAIN,
            digestDelayS: value.EMAIL_DIGEST_DELAY_S,
            askAfterS: value.EMAIL_ASK_AFTER_S,
            inboundSmtpPort: value.INBOUND_SMTP_PORT,
            inboundSmtpHost: value.HOST,
            inboundSecret: value.INBOUND_EMAIL_SECRET,
          }
        : undefined,
  };
}

/** The settings of a BFF alone (`npm run bff`): it has no engine of its own, so both engine variables are required. */
export interface BffConfig extends BffSettings {
  aiApiUrl: string;
  aiApiKeys: string[];
}

/** A variable the BFF alone cannot do without; unset and empty both say what it is for. */
const required = <S extends z.ZodType<unknown, string>>(schema: S, meaning: string) =>
  z.preprocess(blankIsUnset, z.string({ error: `is required: ${meaning}` }).pipe(schema));

const StandaloneEnv = BffEnv.extend({
  AI_API_URL: required(HttpUrl, "the engine's base URL, without /v1 (e.g. http://127.0.0.1:8081)"),
  AI_API_KEY: required(
    ApiKeySet,
    'the API keys this BFF uses with the engine: a service_live_… key, a service_test_… key, or both separated by a comma',
  ),
})
  .superRefine(secretsGoWithRedis)
  .superRefine(attachmentBucketComplete)
  .superRefine(emailComplete);

/** Reads the BFF's settings; anything wrong throws a ConfigError whose message names every bad variable. */
export function readBffConfig(env: NodeJS.ProcessEnv): BffConfig {
  const value = readEnv(StandaloneEnv, env);
  return { ...bffSettings(value), aiApiUrl: value.AI_API_URL, aiApiKeys: value.AI_API_KEY };
}

/** What a tool that only opens the BFF's store reads (`npm run bff:inbox`). */
const StoreEnv = BffEnv.pick({ DATA_DIR: true, DATABASE_URL: true });

export function readBffStoreConfig(env: NodeJS.ProcessEnv): Pick<BffSettings, 'dataDir' | 'databaseUrl'> {
  const value = readEnv(StoreEnv, env);
  return { dataDir: value.DATA_DIR, databaseUrl: value.DATABASE_URL };
}
