import { fileURLToPath } from 'node:url';
import {
  closeRedis,
  dataFolder,
  migrate,
  openSecretBox,
  openSql,
  SessionTokens,
  type Logger,
  type SecretBox,
  type Sql,
} from '../../shared/server/index.ts';
import { BFF_MIGRATIONS } from './store-preparation.ts';
import type { BffSettings } from './config.ts';
import { openAttachments, type Attachments } from '../attachments/open-storage.ts';
import { openBffRedis, type BffRedis } from './redis-connection.ts';
import { ensureSessionKeys } from '../widget/session-keys.ts';

/** The built widget (`npm run build` writes it): what createBff serves as `/widget.js` and `/widget/…`. */
export const WIDGET_ASSETS_DIR = fileURLToPath(new URL('../../dist/widget/', import.meta.url));

export interface BffStoreOptions {
  /** Put before the schema name `bff`, so that test runs can share one PostgreSQL database. */
  schemaPrefix?: string;
}

/** Opens the BFF's store (PostgreSQL at DATABASE_URL, else PGlite in `<DATA_DIR>/bff`) and brings its tables up to date. */
export async function openBffStore(
  settings: Pick<BffSettings, 'databaseUrl' | 'dataDir'>,
  { schemaPrefix = '' }: BffStoreOptions = {},
): Promise<Sql> {
  const sql = await openSql({
    databaseUrl: settings.databaseUrl,
    dataDir: dataFolder(settings.dataDir, 'bff'),
    dataRoot: settings.dataDir,
    schema: `${schemaPrefix}bff`,
  });
  try {
    await migrate(sql, BFF_MIGRATIONS);
  } catch (error) {
    await sql.close();
    throw error;
  }
  return sql;
}

/** What every host of a BFF builds before createBff: its store, its session keys and, for several nodes, Redis. */
export interface BffInfrastructure {
  sql: Sql;
  tokens: SessionTokens;
  /** Seals what the BFF stores that is secret (SECRETS_KEYS, or DATA_DIR/secrets.key). */
  secrets: SecretBox;
  redis: BffRedis | undefined;
  /** Where attachments' bytes are kept (a bucket, DATA_DIR/attachments or memory), and the largest taken. */
  attachments: Attachments;
  /** Closes Redis, then the store. */
  close(): Promise<void>;
}

/**
 * Opens the BFF's store, takes its session keys (SESSION_KEYS, else the set kept in the store,
 * made on first start) and connects to Redis when REDIS_URL is set. `npm run bff` and the demo
 * build the BFF's dependencies with this; both then call createBff.
 */
export async function openBffInfrastructure(
  settings: Pick<BffSettings, 'databaseUrl' | 'dataDir' | 'sessionKeys' | 'redisUrl' | 'secretKeys' | 'attachments'>,
  logger: Logger,
  { schemaPrefix = '' }: BffStoreOptions = {},
): Promise<BffInfrastructure> {
  const sql = await openBffStore(settings, { schemaPrefix });
  try {
    const secrets = openSecretBox(settings.secretKeys, settings.dataDir);
    const tokens = new SessionTokens(await ensureSessionKeys(sql, settings.sessionKeys, secrets));
    const redis = settings.redisUrl
      ? await openBffRedis(settings.redisUrl, logger, `parley:${schemaPrefix}`)
      : undefined;
    return {
      sql,
      tokens,
      secrets,
      redis,
      attachments: openAttachments(settings, logger),
      async close() {
        if (redis) await closeRedis(redis.client);
        await sql.close();
      },
    };
  } catch (error) {
    await sql.close();
    throw error;
  }
}
