import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { migrate, openSql } from '../../shared/server/index.ts';
import {
  addKnowledgeDocument,
  createAccount,
  ENGINE_MIGRATIONS,
  issueApiKey,
  setAccountRateLimit,
} from '../../engine/index.ts';
import { openBffStore } from '../../bff/host/infrastructure.ts';
import { addSiteKey, createInbox } from '../../bff/store/inboxes.ts';
import { shopKnowledge } from '../shop-fixtures.ts';
import { freePort } from '../stack.ts';
import { startPostgres, type PostgresServer } from './postgres-server.ts';
import { startRedis, type RedisServer } from './redis-server.ts';
import { answersWith, serviceProcess, type ServiceProcess } from './service-process.ts';

/**
 * Parley as it runs on several machines (README "Configuration", DESIGN "Many machines"), every
 * part its own process: PostgreSQL and Redis of the suite's own, the engine (`npm run engine`) and
 * two BFF nodes (`npm run bff`) in front of it, sharing the store and Redis. The engine's account,
 * its knowledge base and the BFF's inbox are seeded into the store before the processes start, as
 * `npm run engine:account` and `npm run bff:inbox` would.
 */
export interface Cluster {
  postgres: PostgresServer;
  redis: RedisServer;
  engine: ServiceProcess;
  bffs: [ServiceProcess, ServiceProcess];
  /** The two nodes' base URLs, in the order of `bffs`. */
  bffUrls: [string, string];
  /** The engine's sandbox key, which the BFF nodes use and which makes verified customers' sessions. */
  apiKey: string;
  stop(): Promise<void>;
}

const keyPair = (kid: string) => `${kid}:${randomBytes(32).toString('base64url')}`;

export async function startCluster(folder: string): Promise<Cluster> {
  const [postgresPort, redisPort, enginePort, portA, portB] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const [postgres, redis] = await Promise.all([startPostgres(folder, postgresPort), startRedis(folder, redisPort)]);
  const started: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((service) => service.signal('SIGKILL')));
    await redis.stop();
    await postgres.stop('immediate').catch(() => undefined);
  };
  try {
    return await startServices({ folder, postgres, redis, enginePort, portA, portB, started, stop });
  } catch (error) {
    // PostgreSQL runs as a daemon of its own: it must not outlive a failed start.
    await stop();
    throw error;
  }
}

async function startServices({
  folder,
  postgres,
  redis,
  enginePort,
  portA,
  portB,
  started,
  stop,
}: {
  folder: string;
  postgres: PostgresServer;
  redis: RedisServer;
  enginePort: number;
  portA: number;
  portB: number;
  started: ServiceProcess[];
  stop: () => Promise<void>;
}): Promise<Cluster> {
  const apiKey = await seedEngine(postgres.url);
  await seedBff(postgres.url);

  const engineUrl = `http://127.0.0.1:${enginePort}`;
  const engine = serviceProcess({
    name: 'engine',
    script: 'engine/main.ts',
    folder,
    env: {
      ENGINE_PORT: String(enginePort),
      DATABASE_URL: postgres.url,
      DATA_DIR: join(folder, 'engine-data'),
      SECRETS_KEYS: keyPair('e1'),
      LOG_LEVEL: 'warn',
    },
    ready: () => answersWith(`${engineUrl}/v1/me`, { headers: { authorization: `Bearer ${apiKey}` } }),
  });
  const shared = {
    AI_API_URL: engineUrl,
    AI_API_KEY: apiKey,
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    DATA_DIR: 'memory://',
    SESSION_KEYS: keyPair('k1'),
    SECRETS_KEYS: keyPair('s1'),
    FEED_POLL_MS: '1000',
    LOG_LEVEL: 'warn',
  };
  const bff = (name: string, port: number) =>
    serviceProcess({
      name,
      script: 'bff/host/main.ts',
      folder,
      env: { ...shared, PORT: String(port) },
      ready: () => answersWith(`http://127.0.0.1:${port}/openapi.json`),
    });
  const bffs: [ServiceProcess, ServiceProcess] = [bff('bff-a', portA), bff('bff-b', portB)];
  started.push(engine, ...bffs);
  await engine.start();
  await Promise.all(bffs.map((node) => node.start()));
  return {
    postgres,
    redis,
    engine,
    bffs,
    bffUrls: [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`],
    apiKey,
    stop,
  };
}

/** The engine's account with its sandbox key, a limit no burst reaches, and the shop's knowledge base. */
async function seedEngine(databaseUrl: string): Promise<string> {
  const sql = await openSql({ databaseUrl, schema: 'engine' });
  try {
    await migrate(sql, ENGINE_MIGRATIONS);
    const accountId = await createAccount(sql, 'Chaos shop');
    const { key } = await issueApiKey(sql, accountId, 'sandbox');
    await setAccountRateLimit(sql, accountId, 'sandbox', 100_000);
    for (const document of await shopKnowledge())
      await addKnowledgeDocument(sql, accountId, { ...document, approved: true });
    return key;
  } finally {
    await sql.close();
  }
}

/** The inbox the nodes serve (the oldest, so verified customers land in it). */
async function seedBff(databaseUrl: string): Promise<void> {
  const sql = await openBffStore({ databaseUrl, dataDir: 'memory://' });
  try {
    const inbox = await createInbox(sql, { name: 'Chaos shop' });
    await addSiteKey(sql, inbox.id, 'sandbox');
  } finally {
    await sql.close();
  }
}
