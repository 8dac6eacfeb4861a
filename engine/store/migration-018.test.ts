import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openSql } from '../../shared/server/index.ts';
import { ENGINE_MIGRATIONS } from '../app.ts';

/** Migration 018 on a store that had knowledge and actions before: each is kept in both environments. */
describe('migration 018 on existing knowledge and actions', () => {
  let folder = '';
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('keeps each document live (same id) with a sandbox copy it names, and each action in both, its URL live only', async () => {
    folder = await mkdtemp(join(tmpdir(), 'parley-018-'));
    for (const name of await readdir(ENGINE_MIGRATIONS))
      if (/^0(0\d|1[0-7])_/.test(name)) await cp(join(ENGINE_MIGRATIONS, name), join(folder, name));
    const sql = await openSql({ dataDir: 'memory://', schema: 'engine' });
    await migrate(sql, folder);
    await sql.query("INSERT INTO accounts (id, name) VALUES ('acc_1', 'A')");
    await sql.query(
      "INSERT INTO knowledge_documents (id, account_id, title, body, approved, source) VALUES ('doc_aaaaaaaaaaaaaaaaaaaa', 'acc_1', 'T', 'B', true, 'x.md')",
    );
    await sql.query("INSERT INTO knowledge_versions (account_id, version) VALUES ('acc_1', 4)");
    await sql.query(
      "INSERT INTO actions (account_id, name, description, definition, url, secret) VALUES ('acc_1', 'a', 'd', '{}', 'https://x.example', 'sealed')",
    );
    await migrate(sql, ENGINE_MIGRATIONS);
    const documents = await sql.query<{ id: string; environment: string; promoted_from: string | null }>(
      'SELECT id, environment, approved, source, promoted_from FROM knowledge_documents ORDER BY environment',
    );
    expect(documents).toEqual([
      {
        id: 'doc_aaaaaaaaaaaaaaaaaaaa',
        environment: 'live',
        approved: true,
        source: 'x.md',
        promoted_from: documents[1]!.id,
      },
      {
        id: expect.stringMatching(/^doc_[0-9a-f]{32}$/),
        environment: 'sandbox',
        approved: true,
        source: 'x.md',
        promoted_from: null,
      },
    ]);
    expect(await sql.query('SELECT environment, version FROM knowledge_versions ORDER BY environment')).toEqual([
      { environment: 'live', version: 4 },
      { environment: 'sandbox', version: 4 },
    ]);
    expect(await sql.query('SELECT environment, name, url, secret FROM actions ORDER BY environment')).toEqual([
      { environment: 'live', name: 'a', url: 'https://x.example', secret: 'sealed' },
      { environment: 'sandbox', name: 'a', url: null, secret: null },
    ]);
    await sql.close();
    // Two migrations of a PGlite store from nothing: as long as a store start-up hook may take on a loaded machine.
  }, 120_000);
});
