import pg from 'pg';
import { randomToken } from '../shared/index.ts';
import { createLogger } from '../shared/server/index.ts';

/**
 * What the tests of one run share: the stores they run on (real PGlite in memory, or the machine's
 * real PostgreSQL), each test in schemas of its own so that runs never see each other, and a log.
 */
export const POSTGRES_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Driver {
  name: 'PGlite' | 'PostgreSQL';
  databaseUrl: string | undefined;
}

export const DRIVERS: Driver[] = [
  { name: 'PGlite', databaseUrl: undefined },
  { name: 'PostgreSQL', databaseUrl: POSTGRES_URL },
];

export const logger = createLogger('test');

/** Put before a test's schema names (`engine`, `bff`) and its Redis keys. */
export const uniqueSchemaPrefix = () => `t${randomToken(8).toLowerCase()}_`;

/** Drops the schemas a test made in PostgreSQL. */
export async function dropSchemas(databaseUrl: string | undefined, prefix: string): Promise<void> {
  if (!databaseUrl) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(
      'SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)',
      [prefix],
    );
    for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  } finally {
    await client.end();
  }
}
