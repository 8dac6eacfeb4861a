import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, dropSchemas, uniqueSchemaPrefix } from '../../test/stack.ts';
import { isUniqueViolation, migrate, openSql, type Sql } from './sql.ts';

describe.each(DRIVERS)('the SQL store on $name', (driver) => {
  let folder: string;
  let sql: Sql;
  const prefix = uniqueSchemaPrefix();

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'parley-migrations-'));
    await writeFile(
      join(folder, '001_things.sql'),
      '-- a table\nCREATE TABLE things (id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, seen bigint NOT NULL DEFAULT 0);\nCREATE INDEX things_by_seen ON things (seen);\n',
    );
    await writeFile(join(folder, 'notes.txt'), 'not a migration');
    sql = await openSql({ databaseUrl: driver.databaseUrl, dataDir: 'memory://', schema: `${prefix}store` });
  });
  afterAll(async () => {
    await sql?.close();
    await rm(folder, { recursive: true, force: true });
    await dropSchemas(driver.databaseUrl, prefix);
  });

  it('applies each migration once, in order, and skips files that are not migrations', async () => {
    expect(await migrate(sql, folder)).toEqual(['001_things.sql']);
    expect(await migrate(sql, folder)).toEqual([]);
    await writeFile(join(folder, '002_more.sql'), 'ALTER TABLE things ADD COLUMN note text;');
    expect(await migrate(sql, folder)).toEqual(['002_more.sql']);
    const applied = await sql.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(applied.map((row) => row.name)).toEqual(['001_things.sql', '002_more.sql']);
  });

  it('gives bigint columns as numbers and timestamps as dates, like the other driver', async () => {
    const [row] = await sql.query<{ id: number; at: Date; data: unknown }>(
      "INSERT INTO things (name) VALUES ('a') RETURNING id, now() AS at, '{\"x\":1}'::jsonb AS data",
    );
    expect(typeof row!.id).toBe('number');
    expect(row!.at).toBeInstanceOf(Date);
    expect(row!.data).toEqual({ x: 1 });
  });

  it('rolls a transaction back when its work throws', async () => {
    await expect(
      sql.transaction(async (tx) => {
        await tx.query("INSERT INTO things (name) VALUES ('rolled-back')");
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await sql.query("SELECT 1 FROM things WHERE name = 'rolled-back'")).toEqual([]);
  });

  it('reports a unique violation the same way on both drivers', async () => {
    await sql.query("INSERT INTO things (name) VALUES ('unique')");
    const error = await sql.query("INSERT INTO things (name) VALUES ('unique')").catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('keeps each schema to itself', async () => {
    const other = await openSql({ databaseUrl: driver.databaseUrl, dataDir: 'memory://', schema: `${prefix}other` });
    try {
      await expect(other.query('SELECT * FROM things')).rejects.toThrow();
    } finally {
      await other.close();
    }
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(openSql({ schema: 'x; DROP TABLE things' })).rejects.toThrow(TypeError);
  });
});
