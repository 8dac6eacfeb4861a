import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openSql, type Sql } from '../shared/server/index.ts';
import { runNodeScript } from '../test/node-script.ts';
import { createScratchDatabase, type ScratchDatabase } from '../test/scratch-database.ts';
import { createAccount, ENGINE_MIGRATIONS } from './index.ts';

/**
 * `npm run engine:knowledge`, run as its own process, on a PostgreSQL database of this test's own
 * (test/scratch-database.ts). The embedded store in a folder is the same code for every CLI and is
 * tested with `npm run bff:inbox`.
 */
describe('npm run engine:knowledge', () => {
  let database: ScratchDatabase;
  let sql: Sql;
  let dataDir: string;
  let articles: string;
  let accountId: string;

  const documents = () =>
    sql.query<{
      id: string;
      title: string;
      body: string;
      url: string | null;
      locale: string;
      approved: boolean;
      source: string;
    }>(
      'SELECT id, title, body, url, locale, approved, source FROM knowledge_documents WHERE account_id = $1 ORDER BY source',
      [accountId],
    );
  const runCli = (...args: string[]) =>
    runNodeScript('engine/knowledge-cli.ts', args, { DATABASE_URL: database.url, DATA_DIR: dataDir });

  beforeAll(async () => {
    database = await createScratchDatabase();
    sql = await openSql({ databaseUrl: database.url, schema: 'engine' });
    dataDir = await mkdtemp(join(tmpdir(), 'parley-engine-knowledge-'));
    articles = join(dataDir, 'articles');
    await mkdir(articles);
    await migrate(sql, ENGINE_MIGRATIONS);
    accountId = await createAccount(sql, 'Imported shop');
  });
  afterAll(async () => {
    await sql?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('imports every markdown file of the folder unapproved, in English: the title from front matter, the first heading or the file name, the url from front matter', async () => {
    await writeFile(
      join(articles, 'engraving.md'),
      '---\nurl: https://shop.example/help/engraving\n---\n# Engraving\n\n## Engraving a watch\nUp to 20 characters for 15 euros.\n',
    );
    await writeFile(join(articles, 'gift-cards.md'), '---\ntitle: "Gift cards"\n---\nGift cards never expire.\n');
    await writeFile(join(articles, 'repairs.md'), 'We repair watches within two weeks.\r\n');
    await writeFile(join(articles, 'notes.txt'), 'Not markdown: left alone.');

    const { code, stdout, stderr } = await runCli('--account', accountId, '--dir', articles, '--env', 'live');
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^added +live +doc_\w+ engraving\.md "Engraving" \(not approved\)$/m);
    expect(stdout).toMatch(/3 added, 0 updated, 0 unchanged in acc_\w+ \(live\)\. 3 not approved/);
    expect(await documents()).toEqual([
      {
        id: expect.stringMatching(/^doc_/),
        source: 'engraving.md',
        title: 'Engraving',
        body: '# Engraving\n\n## Engraving a watch\nUp to 20 characters for 15 euros.',
        url: 'https://shop.example/help/engraving',
        locale: 'en',
        approved: false,
      },
      {
        id: expect.stringMatching(/^doc_/),
        source: 'gift-cards.md',
        title: 'Gift cards',
        body: 'Gift cards never expire.',
        url: null,
        locale: 'en',
        approved: false,
      },
      {
        id: expect.stringMatching(/^doc_/),
        source: 'repairs.md',
        title: 'repairs',
        body: 'We repair watches within two weeks.',
        url: null,
        locale: 'en',
        approved: false,
      },
    ]);
  }, 60_000);

  it('updates the documents of files imported before instead of adding more; a changed file loses its approval, and --approve approves them all', async () => {
    const before = await documents();
    await sql.query("UPDATE knowledge_documents SET approved = true WHERE source = 'gift-cards.md'");
    await writeFile(join(articles, 'repairs.md'), '# Repairs\n\nWe repair watches within ten days.\n');

    const again = await runCli('--account', accountId, '--dir', articles, '--env', 'live');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/0 added, 1 updated, 2 unchanged/);
    const after = await documents();
    expect(after.map((document) => document.id)).toEqual(before.map((document) => document.id));
    expect(after.find((document) => document.source === 'repairs.md')).toMatchObject({
      title: 'Repairs',
      body: '# Repairs\n\nWe repair watches within ten days.',
      approved: false,
    });
    // An unchanged file keeps its document's approval.
    expect(after.find((document) => document.source === 'gift-cards.md')).toMatchObject({ approved: true });

    const approved = await runCli('--account', accountId, '--dir', articles, '--env', 'live', '--approve');
    expect(approved.code, approved.stderr).toBe(0);
    expect((await documents()).every((document) => document.approved)).toBe(true);
    expect(approved.stdout).not.toMatch(/not approved/);
  }, 60_000);

  it("imports the folder's own files in --locale and each language's subfolder in its language, and ignores other subfolders", async () => {
    const shop = join(dataDir, 'languages');
    await mkdir(join(shop, 'de'), { recursive: true });
    await mkdir(join(shop, 'pt-BR'));
    await mkdir(join(shop, 'xx-bogus'));
    await writeFile(join(shop, 'returns.md'), '# Returns\n\nThirty days.\n');
    await writeFile(join(shop, 'de', 'returns.md'), '# Rücksendungen\n\nDreißig Tage.\n');
    await writeFile(join(shop, 'pt-BR', 'returns.md'), '# Devoluções\n\nTrinta dias.\n');
    await writeFile(join(shop, 'xx-bogus', 'returns.md'), '# Never imported\n\nIgnored.\n');
    const other = await createAccount(sql, 'Shop in languages');
    const imported = () =>
      sql.query<{ source: string; title: string; locale: string }>(
        'SELECT source, title, locale FROM knowledge_documents WHERE account_id = $1 ORDER BY position',
        [other],
      );

    const first = await runCli('--account', other, '--dir', shop, '--env', 'live');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/^Ignored the folder xx-bogus\/: its name is not a language tag/m);
    expect(first.stdout).toMatch(/^added +live +doc_\w+ de\/returns\.md "Rücksendungen" \(not approved\)$/m);
    expect(first.stdout).toMatch(/3 added, 0 updated, 0 unchanged/);
    // The folder's own files first, then the languages in the order of their names.
    expect(await imported()).toEqual([
      { source: 'returns.md', title: 'Returns', locale: 'en' },
      { source: 'de/returns.md', title: 'Rücksendungen', locale: 'de' },
      { source: 'pt-BR/returns.md', title: 'Devoluções', locale: 'pt-BR' },
    ]);

    // --locale is the language of the folder's own files: a change of it is a change of their documents.
    await sql.query('UPDATE knowledge_documents SET approved = true WHERE account_id = $1', [other]);
    const again = await runCli('--account', other, '--dir', shop, '--env', 'live', '--locale', 'fr');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/0 added, 1 updated, 2 unchanged/);
    expect((await imported()).map(({ source, locale }) => [source, locale])).toEqual([
      ['returns.md', 'fr'],
      ['de/returns.md', 'de'],
      ['pt-BR/returns.md', 'pt-BR'],
    ]);
    const approval = await sql.query<{ source: string; approved: boolean }>(
      'SELECT source, approved FROM knowledge_documents WHERE account_id = $1 ORDER BY position',
      [other],
    );
    expect(approval.map(({ approved }) => approved)).toEqual([false, true, true]);

    // One bad file in a language's folder: nothing of any folder is imported.
    await writeFile(join(shop, 'returns.md'), '# Returns\n\nForty days.\n');
    await writeFile(join(shop, 'de', 'empty.md'), '   \n');
    const refused = await runCli('--account', other, '--dir', shop, '--env', 'live');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ {2}de\/empty\.md: body: /m);
    expect((await imported()).map(({ source, locale }) => [source, locale])).toEqual([
      ['returns.md', 'fr'],
      ['de/returns.md', 'de'],
      ['pt-BR/returns.md', 'pt-BR'],
    ]);
  }, 60_000);

  it.each([
    ['without --account', ['--dir', '.'], 2, /--account and --dir/],
    ['with an unknown option', ['--account', 'acc_x', '--dir', '.', '--force'], 2, /Unknown option '--force'/],
    [
      'with a --locale that is not a language tag',
      ['--account', 'ACCOUNT', '--dir', 'ARTICLES', '--locale', 'de_DE'],
      2,
      /--locale takes a language tag such as de or pt-BR, not "de_DE"/,
    ],
    [
      'for an account that does not exist',
      ['--account', 'acc_nobody', '--dir', 'ARTICLES'],
      1,
      /No account acc_nobody/,
    ],
    [
      'for a folder that does not exist',
      ['--account', 'ACCOUNT', '--dir', '/nonexistent/folder'],
      1,
      /Cannot read the folder/,
    ],
  ])(
    'refuses to run %s',
    async (_what, args, status, message) => {
      const resolved = args.map((arg) => (arg === 'ARTICLES' ? articles : arg === 'ACCOUNT' ? accountId : arg));
      const { code, stderr } = await runCli(...resolved);
      expect(code).toBe(status);
      expect(stderr).toMatch(message);
    },
    60_000,
  );

  it('imports nothing when one file is not a valid document, and says which and why', async () => {
    const before = await documents();
    await writeFile(join(articles, 'empty.md'), '---\ntitle: Empty\n---\n   \n');
    await writeFile(join(articles, 'zz-bad-url.md'), '---\nurl: javascript:alert(1)\n---\n# Bad link\n\nText.\n');
    await writeFile(join(articles, 'engraving.md'), '# Engraving\n\nChanged, but not imported.\n');
    const { code, stderr } = await runCli('--account', accountId, '--dir', articles, '--env', 'live');
    expect(code).toBe(1);
    expect(stderr).toMatch(/Nothing was imported/);
    expect(stderr).toMatch(/empty\.md: body: /);
    expect(stderr).toMatch(/zz-bad-url\.md: url: /);
    expect(await documents()).toEqual(before);
  }, 60_000);

  it('imports into both environments unless --env names one, and refuses an unknown --env changing nothing', async () => {
    const both = join(dataDir, 'both');
    await mkdir(both);
    await writeFile(join(both, 'returns.md'), '# Returns\n\nThirty days.\n');
    const shop = await createAccount(sql, 'Shop in both environments');
    const stored = () =>
      sql.query<{ environment: string; source: string }>(
        'SELECT environment, source FROM knowledge_documents WHERE account_id = $1 ORDER BY environment',
        [shop],
      );
    const refused = await runCli('--account', shop, '--dir', both, '--env', 'production');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--env takes test or live/);
    expect(await stored()).toEqual([]);

    const first = await runCli('--account', shop, '--dir', both);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/2 added, 0 updated, 0 unchanged in acc_\w+ \(sandbox and live\)/);
    expect(await stored()).toEqual([
      { environment: 'live', source: 'returns.md' },
      { environment: 'sandbox', source: 'returns.md' },
    ]);
    const sandboxOnly = await runCli('--account', shop, '--dir', both, '--env', 'test');
    expect(sandboxOnly.stdout).toMatch(/0 added, 0 updated, 1 unchanged in acc_\w+ \(sandbox\)/);
  }, 60_000);
});
