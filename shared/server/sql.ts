import { readdir, readFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createMemoryPglite } from './pglite-cluster.ts';
import { keepNewFilesPrivate, makeDataDirPrivate, makePrivateFolder, makePrivateTree } from './private-files.ts';

/**
 * One small SQL interface over two drivers: embedded PostgreSQL (PGlite) for one machine and no
 * services, and real PostgreSQL (pg) when `DATABASE_URL` is set. The SQL and the migrations are
 * the same for both. Every service keeps its tables in its own schema, so several services (and
 * test runs) can share one database.
 */
export interface Queryable {
  /** Runs one statement with `$1`-style parameters and gives its rows. */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface Sql extends Queryable {
  readonly driver: 'pglite' | 'postgres';
  readonly schema: string;
  /** Runs `work` in one transaction; rolls back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface SqlOptions {
  /** A `postgres://` URL. When absent, PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite's folder; `memory://` keeps the database in memory. */
  dataDir?: string | undefined;
  /**
   * DATA_DIR, which holds PGlite's folder (`dataFolder(DATA_DIR, service)`): it and what is directly
   * in it are made the user's alone when the store opens (`makeDataDirPrivate`). Unset: only the folder.
   */
  dataRoot?: string | undefined;
  /** The schema that holds this service's tables, e.g. `engine`. */
  schema: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Opens the database named by `options` and makes `options.schema` the search path. */
export async function openSql(options: SqlOptions): Promise<Sql> {
  if (!SCHEMA_NAME.test(options.schema)) {
    throw new TypeError(`schema must match ${SCHEMA_NAME}, got ${JSON.stringify(options.schema)}`);
  }
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.schema)
    : openPglite(options.dataDir ?? 'memory://', options.schema, options.dataRoot);
}

async function openPglite(dataDir: string, schema: string, dataRoot: string | undefined): Promise<Sql> {
  const db = dataDir.startsWith('memory://') ? await createMemoryPglite() : await openPgliteFolder(dataDir, dataRoot);
  // PGlite is one connection, so the search path set here holds for every later query.
  await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema};`);
  const asQueryable = (target: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row>(text: string, params: readonly unknown[] = []) {
      return (await target.query<Row>(text, [...params])).rows;
    },
  });
  return {
    driver: 'pglite',
    schema,
    ...asQueryable(db),
    transaction: (work) => db.transaction((tx) => work(asQueryable(tx))),
    close: () => db.close(),
  };
}

/**
 * PGlite in a folder that only this user may enter, with files only this user may read (folders
 * 0700, files 0600: private-files.ts): the umask is tightened before PGlite makes anything, and
 * what it unpacks with modes of its own (its first cluster), or a store made before this rule
 * holds, is set right once it is open.
 */
async function openPgliteFolder(folder: string, dataRoot: string | undefined): Promise<PGlite> {
  keepNewFilesPrivate();
  if (dataRoot) makePrivateFolder(dataRoot);
  makePrivateFolder(folder);
  const db = await PGlite.create(folder);
  try {
    // After PGlite is open, by chmod: this holds in a worker thread too, where the umask cannot be set.
    if (dataRoot) await makeDataDirPrivate(dataRoot);
    await makePrivateTree(folder);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

async function openPostgres(url: string, schema: string): Promise<Sql> {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } catch (error) {
    // Two processes creating the same schema at once race on the catalog; the loser may go on.
    if (!isUniqueViolation(error)) throw error;
  } finally {
    await setup.end();
  }
  const pool = new pg.Pool({
    connectionString: url,
    options: `-c search_path=${schema}`,
    max: 10,
    stream: () => new CoalescingSocket(),
    // bigint columns (sequences, counters) as numbers, as PGlite gives them.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // When the server goes away (a restart, a failover) its connections die. The pool drops an idle
  // one and emits 'error', and a checked-out one emits it itself: unheard, that 'error' ends the
  // process (node-postgres "Error handling"). The statement that needed the connection fails on
  // its own, and the next one connects again. Found by the chaos suite (issue 14, PostgreSQL restarted).
  pool.on('error', ignoreConnectionError);
  const named = preparedNames();
  const asQueryable = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const name = params.length > 0 ? named(text) : undefined;
      return (await target.query(name ? { name, text, values: [...params] } : { text, values: [...params] }))
        .rows as Row[];
    },
  });
  return {
    driver: 'postgres',
    schema,
    ...asQueryable(pool),
    async transaction(work) {
      const client = await pool.connect();
      client.on('error', ignoreConnectionError);
      try {
        await client.query('BEGIN');
        const result = await work(asQueryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', ignoreConnectionError);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * A connection to PostgreSQL that sends what one turn of the event loop writes in one system call.
 * node-postgres writes each message of a statement (bind, describe, execute, sync) on its own, and
 * each became a write to the socket of its own: on this loopback, writes were a third of the BFF's
 * CPU (docs/PERFORMANCE.md). The socket is corked at the first write of a turn and uncorked before
 * the next I/O, so nothing waits longer than that turn.
 */
class CoalescingSocket extends Socket {
  #corked = false;

  override write(...args: unknown[]): boolean {
    if (!this.#corked) {
      this.#corked = true;
      this.cork();
      process.nextTick(() => {
        this.#corked = false;
        this.uncork();
      });
    }
    return (super.write as (...written: unknown[]) => boolean)(...args);
  }
}

/** Statement texts named (prepared) on PostgreSQL: far more than the services have, so dynamic SQL cannot grow the cache without end. */
const MAX_PREPARED = 2_000;

/**
 * Names for the statements sent with parameters, so that each connection parses and plans a
 * statement once and then only binds and executes it (node-postgres "Prepared statements"). The
 * services' statements are a fixed set of texts; past MAX_PREPARED (dynamic text), new texts go
 * unnamed. Statements without parameters (migrations, BEGIN) are never named.
 */
function preparedNames(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED) names.set(text, (name = `parley_${names.size}`));
    return name;
  };
}

/** A dead connection's error: the statement that used it has failed already (see openPostgres). */
function ignoreConnectionError(): void {}

/**
 * Applies the `NNN_name.sql` files of `folder` that this schema has not seen yet, in name order,
 * each in its own transaction. On PostgreSQL an advisory lock keeps two nodes from migrating at once.
 */
export async function migrate(sql: Sql, folder: string): Promise<string[]> {
  const files = (await readdir(folder)).filter((name) => /^\d{3}_[\w-]+\.sql$/.test(name)).sort();
  await sql.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied: string[] = [];
  for (const name of files) {
    const text = await readFile(join(folder, name), 'utf8');
    const statements = splitStatements(text);
    const ran = await sql.transaction(async (tx) => {
      if (sql.driver === 'postgres') {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${sql.schema}:migrate`]);
      }
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
      if (seen.length > 0) return false;
      for (const statement of statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      return true;
    });
    if (ran) applied.push(name);
  }
  return applied;
}

/** Splits a migration into statements at semicolons that end a line (no procedural bodies here). */
function splitStatements(text: string): string[] {
  return text
    .replace(/^\s*--.*$/gm, '')
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/** True for PostgreSQL's unique_violation (23505), from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
