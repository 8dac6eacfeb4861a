/**
 * `node --import tsx test/open-data-dir.ts <DATA_DIR>`: what `npm start` keeps on disk, made under
 * umask 000 (the loosest a process can be started with): the BFF's store, session keys, secrets
 * key and a customer's file, and the engine's store with its tables, each written to enough to
 * start new WAL segments, then closed and opened again. `shared/server/private-files.test.ts`
 * then reads the mode of everything in the folder.
 */
import { createLogger, dataFolder, migrate, openSql } from '../shared/server/index.ts';
import { openBffInfrastructure, openBffStore } from '../bff/index.ts';
import { ENGINE_MIGRATIONS } from '../engine/index.ts';

// Before anything is opened: a process started so would make every file 0666 and folder 0777.
process.umask(0);
const dataDir = process.argv[2];
if (!dataDir) throw new Error('Give the DATA_DIR to make.');

const settings = {
  dataDir,
  databaseUrl: undefined,
  sessionKeys: undefined,
  redisUrl: undefined,
  secretKeys: undefined,
  attachments: { s3: undefined, maxBytes: 1024 * 1024 },
};
const bff = await openBffInfrastructure(settings, createLogger('open-data-dir', 'silent'));
await bff.attachments.storage.put('a-customer-photo-0001', Buffer.from('not really a photo'), 'image/png');
await fill(bff.sql);
await bff.close();

const engineFolder = dataFolder(dataDir, 'engine');
const engine = await openSql({ dataDir: engineFolder, schema: 'engine' });
await migrate(engine, ENGINE_MIGRATIONS);
await fill(engine);
await engine.close();

// Opened again, as every restart does (PGlite writes its relation cache file again).
const again = await openBffStore(settings);
await fill(again);
await again.close();

/** Enough rows that PostgreSQL starts new WAL segments and relation files, then a checkpoint. */
async function fill(sql: Awaited<ReturnType<typeof openSql>>): Promise<void> {
  await sql.query('CREATE TABLE IF NOT EXISTS filler (line text)');
  await sql.query("INSERT INTO filler SELECT repeat('x', 1000) FROM generate_series(1, 2000)");
  await sql.query('SELECT pg_switch_wal()');
  await sql.query('CHECKPOINT');
}
