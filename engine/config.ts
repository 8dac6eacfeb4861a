import { z } from 'zod';
import { DataDir, Host, LogLevel, OriginList, optionalVariable, Port, PostgresUrl, readEnv, RedisUrl, SecretKeySet, SessionKeySet } from '../shared/server/index.ts';

/** The standalone engine's settings (`npm run engine`), read from the environment. */
const Env = z.object({
  ENGINE_PORT: Port.default(8081),
  HOST: Host,
  DATA_DIR: DataDir,
  DATABASE_URL: optionalVariable(PostgresUrl),
  /** Without it the engine mints no widget session tokens. */
  SESSION_KEYS: optionalVariable(SessionKeySet),
  /** With several engine processes: the per-key rate limits are counted in Redis. */
  REDIS_URL: optionalVariable(RedisUrl),
  /** Seals the webhook signing secrets the engine stores; unset: a key in DATA_DIR/secrets.key. Several processes (REDIS_URL) must share one. */
  SECRETS_KEYS: optionalVariable(SecretKeySet),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** Comma list of exact origins that webhooks may reach although they are private (your own services). */
  WEBHOOK_ALLOWED_PRIVATE_ORIGINS: OriginList.default([]),
  LOG_LEVEL: optionalVariable(LogLevel),
}).superRefine((value, ctx) => {
  if (value.REDIS_URL && !value.SECRETS_KEYS) {
    ctx.addIssue({ code: 'custom', path: ['SECRETS_KEYS'], message: 'must be set when REDIS_URL is (every process must open the secrets another stored)' });
  }
});

export type EngineConfig = z.output<typeof Env>;

/** Reads the settings; anything wrong throws a ConfigError whose message names every bad variable. */
export function readEngineConfig(env: NodeJS.ProcessEnv): EngineConfig {
  return readEnv(Env, env);
}
