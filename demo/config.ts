import { resolve } from 'node:path';
import { z } from 'zod';
import { parseSessionKeys, type SessionKey } from '../shared/server/index.ts';

const port = z.coerce.number().int().min(0).max(65_535);
const blankIsUnset = (value: unknown) => (value === '' ? undefined : value);

const Env = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  ENGINE_PORT: port.default(8081),
  AI_API_URL: z.preprocess(blankIsUnset, z.url({ protocol: /^https?$/ }).optional()),
  AI_API_KEY: z.preprocess(blankIsUnset, z.string().regex(/^service_(test|live)_[0-9A-Za-z]{24,64}$/, 'must be an API key (service_test_… or service_live_…)').optional()),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z.preprocess(blankIsUnset, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  REDIS_URL: z.preprocess(blankIsUnset, z.url({ protocol: /^rediss?$/ }).optional()),
  SESSION_KEYS: z.preprocess(blankIsUnset, z.string().optional()),
  DEMO_SITE_KEY: z.preprocess(blankIsUnset, z.string().regex(/^pk_test_[0-9A-Za-z]{16,64}$/, 'must be a sandbox site key (pk_test_ and 16-64 letters or digits)').optional()),
  DEMO_API_KEY: z.preprocess(blankIsUnset, z.string().regex(/^service_test_[0-9A-Za-z]{24,64}$/, 'must be a sandbox API key (service_test_ and 24-64 letters or digits)').optional()),
  DEMO_LIVE_SITE_KEY: z.preprocess(blankIsUnset, z.string().regex(/^pk_live_[0-9A-Za-z]{16,64}$/, 'must be a live site key (pk_live_ and 16-64 letters or digits)').optional()),
  DEMO_ALLOWED_ORIGINS: z.preprocess(blankIsUnset, z.string().optional()),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  ENGINE_WEBHOOK_SECRET: z.preprocess(blankIsUnset, z.string().min(16, 'must be at least 16 characters').optional()),
  FEED_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  DEMO_INBOX_IDENTIFIER: z.preprocess(blankIsUnset, z.string().regex(/^[\w-]{16,100}$/, 'must be 16 to 100 letters, digits, _ or -').optional()),
});

/** An origin as browsers send it: scheme, host and port, nothing else. */
function parseOrigin(text: string): string {
  const url = new URL(text);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash || url.username) throw new Error(text);
  return url.origin;
}

export interface DemoConfig {
  port: number;
  host: string;
  enginePort: number;
  /** Set when the engine runs elsewhere; then no engine is started here. */
  aiApiUrl: string | undefined;
  aiApiKey: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Redis shared by several nodes: rate limits and Socket.IO rooms. Unset: both in this process. */
  redisUrl: string | undefined;
  sessionKeys: SessionKey[] | undefined;
  demoSiteKey: string | undefined;
  demoApiKey: string | undefined;
  demoLiveSiteKey: string | undefined;
  /** Where the live demo key works; undefined means the demo's own origin. */
  demoAllowedOrigins: string[] | undefined;
  trustProxyHops: number;
  engineWebhookSecret: string | undefined;
  feedPollMs: number;
  demoInboxIdentifier: string | undefined;
}

/** Reads the configuration from the environment; anything wrong stops start-up with a clear message. */
export function readDemoConfig(env: NodeJS.ProcessEnv): DemoConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`The configuration is not valid:\n${lines.join('\n')}`);
  }
  const value = parsed.data;
  if (value.AI_API_URL && !value.AI_API_KEY) throw new ConfigError('AI_API_URL is set, so AI_API_KEY must be set too (the key this BFF uses with that engine).');
  let sessionKeys: SessionKey[] | undefined;
  try {
    sessionKeys = value.SESSION_KEYS ? parseSessionKeys(value.SESSION_KEYS) : undefined;
  } catch (error) {
    throw new ConfigError(`SESSION_KEYS: ${(error as Error).message}`);
  }
  let demoAllowedOrigins: string[] | undefined;
  if (value.DEMO_ALLOWED_ORIGINS) {
    const entries = value.DEMO_ALLOWED_ORIGINS.split(',').map((entry) => entry.trim()).filter(Boolean);
    try {
      demoAllowedOrigins = entries.map(parseOrigin);
    } catch (error) {
      throw new ConfigError(`DEMO_ALLOWED_ORIGINS: ${(error as Error).message} is not an origin (scheme://host[:port], no path).`);
    }
  }
  return {
    port: value.PORT,
    host: value.HOST,
    enginePort: value.ENGINE_PORT,
    aiApiUrl: value.AI_API_URL,
    aiApiKey: value.AI_API_KEY,
    dataDir: value.DATA_DIR.startsWith('memory://') ? value.DATA_DIR : resolve(value.DATA_DIR),
    databaseUrl: value.DATABASE_URL,
    redisUrl: value.REDIS_URL,
    sessionKeys,
    demoSiteKey: value.DEMO_SITE_KEY,
    demoApiKey: value.DEMO_API_KEY,
    demoLiveSiteKey: value.DEMO_LIVE_SITE_KEY,
    demoAllowedOrigins,
    trustProxyHops: value.TRUST_PROXY_HOPS,
    engineWebhookSecret: value.ENGINE_WEBHOOK_SECRET,
    feedPollMs: value.FEED_POLL_MS,
    demoInboxIdentifier: value.DEMO_INBOX_IDENTIFIER,
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
