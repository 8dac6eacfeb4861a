import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { closeRedis, createLogger, openRedis, openSql, parseSessionKeys, RedisRateLimiter, SessionTokens } from '../shared/server/index.ts';
import { createEngine } from './app.ts';

/**
 * `npm run engine`: the engine alone, as a self-hosted AI conversation API. Accounts and keys are
 * made with `npm run engine:account`.
 */
const Env = z.object({
  ENGINE_PORT: z.coerce.number().int().min(0).max(65_535).default(8081),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z.preprocess((value) => (value === '' ? undefined : value), z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  SESSION_KEYS: z.preprocess((value) => (value === '' ? undefined : value), z.string().optional()),
  /** With several engine processes: the per-key rate limits are counted in Redis. */
  REDIS_URL: z.preprocess((value) => (value === '' ? undefined : value), z.url({ protocol: /^rediss?$/ }).optional()),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** Comma list of exact origins that webhooks may reach although they are private (your own services). */
  WEBHOOK_ALLOWED_PRIVATE_ORIGINS: z.preprocess(
    (value) => (typeof value === 'string' && value !== '' ? value.split(',').map((origin) => origin.trim()) : []),
    z.array(z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin)),
  ),
});

const logger = createLogger('engine');
const parsed = Env.safeParse(process.env);
if (!parsed.success) {
  process.stderr.write(`The configuration is not valid:\n${parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n')}\n`);
  process.exit(1);
}
const config = parsed.data;
let tokens: SessionTokens | undefined;
try {
  tokens = config.SESSION_KEYS ? new SessionTokens(parseSessionKeys(config.SESSION_KEYS)) : undefined;
} catch (error) {
  process.stderr.write(`SESSION_KEYS: ${(error as Error).message}\n`);
  process.exit(1);
}
const sql = await openSql({ databaseUrl: config.DATABASE_URL, dataDir: join(resolve(config.DATA_DIR), 'engine'), schema: 'engine' });
const redis = config.REDIS_URL ? await openRedis(config.REDIS_URL, (error) => logger.warn({ err: error }, 'Redis connection problem')) : undefined;
const engine = await createEngine({
  sql,
  logger,
  tokens,
  webhooks: { allowedPrivateOrigins: config.WEBHOOK_ALLOWED_PRIVATE_ORIGINS },
  ...(redis ? { rateLimiter: new RedisRateLimiter(redis, 'parley:engine:') } : {}),
});
engine.webhooks.start(config.WEBHOOK_POLL_MS);
const server = createServer(engine.app.callback());
server.listen(config.ENGINE_PORT, config.HOST, () => {
  logger.info({ url: `http://${config.HOST}:${config.ENGINE_PORT}/v1`, store: sql.driver, widgetSessions: Boolean(tokens) }, 'engine listening');
});
const stop = () =>
  server.close(
    () =>
      void engine.webhooks
        .stop()
        .then(() => sql.close())
        .then(() => redis && closeRedis(redis))
        .then(() => process.exit(0)),
  );
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
