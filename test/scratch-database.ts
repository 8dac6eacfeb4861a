import pg from 'pg';
import { randomToken } from '../shared/index.ts';
import { POSTGRES_URL } from './stack.ts';

/**
 * A PostgreSQL database of a test's own on the machine's server, for a CLI run as its own process:
 * the CLIs use fixed schema names (`engine`, `bff`), so each gets a database nobody else uses.
 * Cheaper than an embedded store in a folder, which only one process may open at a time and which
 * the test must then open again for every look.
 */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const name = `parley_scratch_${randomToken(10).toLowerCase()}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
