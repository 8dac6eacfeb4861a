import { z } from 'zod';

/** The standalone engine's settings (`npm run engine`), read from the environment. */
const blankIsUnset = (value: unknown) => (value === '' ? undefined : value);

/** An origin as browsers send it: scheme, host and port, no path. */
const Origin = z
  .url({ protocol: /^https?$/ })
  .refine((text) => {
    // Runs after a failed URL check too; that failure has been reported already.
    if (!URL.canParse(text)) return true;
    const url = new URL(text);
    return url.pathname === '/' && !url.search && !url.hash && !url.username;
  }, 'must be an origin (scheme://host[:port], no path)')
  .transform((text) => (URL.canParse(text) ? new URL(text).origin : text));

const Env = z.object({
  ENGINE_PORT: z.coerce.number().int().min(0).max(65_535).default(8081),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z.preprocess(blankIsUnset, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  SESSION_KEYS: z.preprocess(blankIsUnset, z.string().optional()),
  /** With several engine processes: the per-key rate limits are counted in Redis. */
  REDIS_URL: z.preprocess(blankIsUnset, z.url({ protocol: /^rediss?$/ }).optional()),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** Comma list of exact origins that webhooks may reach although they are private (your own services). */
  WEBHOOK_ALLOWED_PRIVATE_ORIGINS: z.preprocess(
    (value) => (typeof value === 'string' && value !== '' ? value.split(',').map((origin) => origin.trim()).filter(Boolean) : []),
    z.array(Origin),
  ),
});

export type EngineConfig = z.output<typeof Env>;

/** Reads the settings; anything wrong throws an Error whose message names every bad variable. */
export function readEngineConfig(env: NodeJS.ProcessEnv): EngineConfig {
  const parsed = Env.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new Error(`The configuration is not valid:\n${parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n')}`);
}
