import type { Sql } from '../shared/server/index.ts';

/** A table of a service's schema and each of its rows as text. */
export interface TableRows {
  table: string;
  rows: string[];
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Every row of every table in the service's schema (as the catalogue lists them now, so a table
 * added tomorrow is read too), each row as PostgreSQL writes it as text, with every bytea column
 * also decoded (bytes that hold text; other bytes, such as a zero, escaped as \\ooo). A table that cannot be read that way fails the call.
 */
export async function everyRow(sql: Sql): Promise<TableRows[]> {
  const tables = await sql.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name",
    [sql.schema],
  );
  const read: TableRows[] = [];
  for (const { table_name: table } of tables) {
    const binary = await sql.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND data_type = 'bytea' ORDER BY ordinal_position",
      [sql.schema, table],
    );
    const decoded = binary
      .map(({ column_name: column }, index) => `, encode(t.${quoted(column)}, 'escape') AS b${index}`)
      .join('');
    const rows = await sql.query<Record<string, string | null>>(
      `SELECT t::text AS row${decoded} FROM ${quoted(sql.schema)}.${quoted(table)} t`,
    );
    read.push({
      table,
      rows: rows.map((row) =>
        Object.values(row)
          .filter((value) => value !== null)
          .join('\n'),
      ),
    });
  }
  return read;
}

/** Where any of `needles` (case-insensitive) appears: `table: needle` for each table and needle found, sorted. */
export async function mentions(sql: Sql, needles: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const { table, rows } of await everyRow(sql)) {
    for (const row of rows) {
      const lower = row.toLowerCase();
      for (const needle of needles) if (lower.includes(needle.toLowerCase())) found.add(`${table}: ${needle}`);
    }
  }
  return [...found].sort();
}
