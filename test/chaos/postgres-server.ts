import { execFile } from 'node:child_process';
import { chown, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { until } from '../until.ts';

/**
 * A PostgreSQL server of the chaos suite's own, in a folder of its own on a free port, so that it
 * can be stopped and started without touching the machine's server (others run tests against it).
 * PostgreSQL will not run as root: as root, its programs run as the `postgres` user.
 */
const run = promisify(execFile);
const BIN = process.env['POSTGRES_BIN'] ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  /** Stops the server; `immediate` is a crash (recovery from the WAL at the next start), `fast` a clean stop. */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
}

/** `initdb` into `<folder>/postgres`, then starts the server on `port` (fsync off: only a crash of the machine could lose data). */
export async function startPostgres(folder: string, port: number): Promise<PostgresServer> {
  const dataDir = join(folder, 'postgres');
  await mkdir(dataDir, { recursive: true });
  if (asRoot) await chownToPostgres(folder, dataDir);
  await asPostgres('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const options = `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const server: PostgresServer = {
    url,
    async stop(mode) {
      await asPostgres('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
    },
    async start() {
      await asPostgres('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(folder, 'postgres.log'), '-w', 'start']);
      await until(() => answers(url), Boolean, 'PostgreSQL to take connections', 20_000);
    },
  };
  await server.start();
  return server;
}

async function asPostgres(program: string, args: string[]): Promise<void> {
  const path = join(BIN, program);
  await (asRoot ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args));
}

async function chownToPostgres(...paths: string[]): Promise<void> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  for (const path of paths) await chown(path, Number(stdout.trim()), Number(group.trim()));
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
