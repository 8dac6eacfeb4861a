import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSql, type Sql } from './sql.ts';
import { parseSecretKeys, resealStored, SecretBox } from './secret-box.ts';

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64url');

/**
 * Issue 12, secrets at rest: values stored before sealing began, and values sealed under a key
 * being rotated out, are sealed again under the current key at start, on a real (embedded) store.
 */
describe('sealing stored secrets again at start (resealStored)', () => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await openSql({ dataDir: 'memory://', schema: 'reseal' });
    await sql.query('CREATE TABLE secrets_kept (id integer PRIMARY KEY, secret text NOT NULL)');
    await sql.query('CREATE TABLE settings_kept (name text PRIMARY KEY, value text NOT NULL)');
  });
  afterAll(() => sql?.close());

  it('seals plain values and values under an older key with the current key, leaves the rest, and changes nothing when run again', async () => {
    const old = new SecretBox(parseSecretKeys(`old:${key(1)}`));
    const rotated = new SecretBox(parseSecretKeys(`new:${key(2)}, old:${key(1)}`));
    const current = rotated.seal('whsec_current_one');
    await sql.query('INSERT INTO secrets_kept (id, secret) VALUES (1, $1), (2, $2), (3, $3)', [
      'whsec_plain_before_sealing',
      old.seal('whsec_under_old_key'),
      current,
    ]);
    await sql.query(
      "INSERT INTO settings_kept (name, value) VALUES ('engine_api_key', 'service_test_plainplainplainplain'), ('greeting', 'Hello there')",
    );
    const columns = [
      { table: 'secrets_kept', key: 'id', column: 'secret' },
      { table: 'settings_kept', key: 'name', column: 'value', where: "name IN ('engine_api_key')" },
    ];

    expect(await resealStored(sql, rotated, columns)).toBe(3);
    const secrets = await sql.query<{ id: number; secret: string }>('SELECT id, secret FROM secrets_kept ORDER BY id');
    expect(secrets.every((row) => rotated.isCurrent(row.secret))).toBe(true);
    expect(secrets.map((row) => rotated.open(row.secret))).toEqual([
      'whsec_plain_before_sealing',
      'whsec_under_old_key',
      'whsec_current_one',
    ]);
    expect(secrets[2]!.secret).toBe(current);
    // Only without the old key now: the rotation is over.
    const newOnly = new SecretBox(parseSecretKeys(`new:${key(2)}`));
    expect(newOnly.open(secrets[1]!.secret)).toBe('whsec_under_old_key');

    const settings = await sql.query<{ name: string; value: string }>(
      'SELECT name, value FROM settings_kept ORDER BY name',
    );
    expect(settings[0]!.value).toMatch(/^sealed:v1:new:/);
    expect(rotated.open(settings[0]!.value)).toBe('service_test_plainplainplainplain');
    // A setting that is no secret is left as it was.
    expect(settings[1]).toEqual({ name: 'greeting', value: 'Hello there' });

    expect(await resealStored(sql, rotated, columns)).toBe(0);
  });
});
