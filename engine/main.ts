import { createServer } from 'node:http';
import {
  closeRedis,
  createLogger,
  dataFolder,
  openRedis,
  openSecretBox,
  openSql,
  RedisRateLimiter,
  SessionTokens,
  settingsOrExit,
} from '../shared/server/index.ts';
import { createEngine } from './app.ts';
import { embeddingsSettings, llmSettings, readEngineConfig } from './config.ts';
import { sttSettings } from './media/stt-config.ts';
import { ttsSettings } from './calls/tts-config.ts';

/**
 * `npm run engine`: the engine alone, as a self-hosted AI conversation API. Accounts and keys are
 * made with `npm run engine:account`.
 */
const config = settingsOrExit(() => readEngineConfig(process.env));
const logger = createLogger('engine', config.LOG_LEVEL);
const tokens = config.SESSION_KEYS ? new SessionTokens(config.SESSION_KEYS) : undefined;
const sql = await openSql({
  databaseUrl: config.DATABASE_URL,
  dataDir: dataFolder(config.DATA_DIR, 'engine'),
  dataRoot: config.DATA_DIR,
  schema: 'engine',
});
const redis = config.REDIS_URL
  ? await openRedis(config.REDIS_URL, (error) => logger.warn({ err: error }, 'Redis connection problem'))
  : undefined;
const engine = await createEngine({
  sql,
  logger,
  tokens,
  secrets: openSecretBox(config.SECRETS_KEYS, config.DATA_DIR),
  webhooks: { allowedPrivateOrigins: config.WEBHOOK_ALLOWED_PRIVATE_ORIGINS },
  llm: llmSettings(config),
  embeddings: embeddingsSettings(config),
  media: {
    maxBytes: config.MEDIA_MAX_BYTES,
    storageMaxBytes: config.MEDIA_STORAGE_MAX_BYTES,
    stt: sttSettings(config),
  },
  tts: ttsSettings(config),
  trustProxyHops: config.TRUST_PROXY_HOPS,
  operatorToken: config.ENGINE_OPERATOR_TOKEN,
  ...(redis ? { rateLimiter: new RedisRateLimiter(redis, 'parley:engine:') } : {}),
});
engine.webhooks.start(config.WEBHOOK_POLL_MS);
const server = createServer(engine.app.callback());
engine.attachVoiceStream(server);
server.listen(config.ENGINE_PORT, config.HOST, () => {
  logger.info(
    {
      url: `http://${config.HOST}:${config.ENGINE_PORT}/v1`,
      store: sql.driver,
      widgetSessions: Boolean(tokens),
      brain: config.LLM_MODEL ? `llm (${config.LLM_MODEL})` : 'retrieval',
    },
    'engine listening',
  );
});
const stop = () =>
  server.close(
    () =>
      void engine.webhooks
        .stop()
        .then(() => engine.media.stop())
        .then(() => engine.monitors.stop())
        .then(() => engine.reports.stop())
        .then(() => sql.close())
        .then(() => redis && closeRedis(redis))
        .then(() => process.exit(0)),
  );
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
