import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Sql } from '../../shared/server/index.ts';
import { runNodeScript } from '../../test/node-script.ts';
import { createScratchDatabase } from '../../test/scratch-database.ts';
import { openBffStore } from '../host/infrastructure.ts';
import { aiMessagesPerAddressOf, findInbox, findSiteKey } from '../store/inboxes.ts';

/**
 * `npm run bff:inbox`, run as its own process: on an embedded store in a folder of this test's own,
 * as a newcomer runs it, and where more runs follow, on a PostgreSQL database of the test's own
 * (opening an embedded folder again for every run and look made this file the slowest of the suite).
 */
describe('npm run bff:inbox', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'parley-bff-inbox-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Where the CLI keeps its store: the folder, or a scratch PostgreSQL database. */
  let databaseUrl: string | undefined;
  const onPostgres = async () => {
    const database = await createScratchDatabase();
    databaseUrl = database.url;
    onTestFinished(() => database.drop());
  };
  beforeEach(() => {
    databaseUrl = undefined;
  });
  const runCli = (...args: string[]) =>
    runNodeScript('bff/helpdesk/inbox-cli.ts', args, {
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
  const withStore = async <T>(work: (sql: Sql) => Promise<T>): Promise<T> => {
    const sql = await openBffStore({ dataDir, databaseUrl });
    try {
      return await work(sql);
    } finally {
      await sql.close();
    }
  };
  const storedInboxes = () =>
    withStore((sql) =>
      sql.query<{ name: string; keys: string[] }>(
        'SELECT i.name, array_remove(array_agg(k.key), NULL) AS keys FROM inboxes i LEFT JOIN site_keys k ON k.inbox_id = i.id GROUP BY i.id, i.name',
      ),
    );

  it('makes an inbox with a sandbox site key that works anywhere, and prints the key', async () => {
    const { code, stdout } = await runCli('--name', 'My shop');
    expect(code).toBe(0);
    const inboxId = /^Inbox (inb_\S+) \(My shop\)$/m.exec(stdout)?.[1];
    const sandboxKey = /sandbox site key: (pk_test_\w+)$/m.exec(stdout)?.[1];
    expect(inboxId).toBeDefined();
    expect(sandboxKey).toBeDefined();
    expect(stdout).not.toContain('pk_live_');

    await withStore(async (sql) => {
      expect(await findInbox(sql, inboxId!)).toMatchObject({ name: 'My shop' });
      expect(await findSiteKey(sql, sandboxKey!)).toEqual({
        key: sandboxKey,
        inboxId,
        environment: 'sandbox',
        allowedOrigins: [],
      });
    });
  }, 60_000);

  it('adds a live site key allowed from the given origins, as exact origins', async () => {
    await onPostgres();
    const { code, stdout } = await runCli(
      '--name',
      'Live shop',
      '--live-origin',
      'https://shop.example',
      '--live-origin',
      'HTTPS://www.Shop.example:443',
    );
    expect(code).toBe(0);
    const inboxId = /^Inbox (inb_\S+) /m.exec(stdout)?.[1];
    const liveKey =
      /live site key \(works from https:\/\/shop\.example, https:\/\/www\.shop\.example\): (pk_live_\w+)$/m.exec(
        stdout,
      )?.[1];
    expect(liveKey, stdout).toBeDefined();

    await withStore(async (sql) => {
      const allowedOrigins = ['https://shop.example', 'https://www.shop.example'];
      expect(await findSiteKey(sql, liveKey!)).toEqual({ key: liveKey, inboxId, environment: 'live', allowedOrigins });
    });
  }, 60_000);

  it('raises how many new messages a minute one address may send the AI, when asked', async () => {
    await onPostgres();
    const { code, stdout } = await runCli('--name', 'Office shop', '--ai-messages-per-address-per-minute', '240');
    expect(code).toBe(0);
    expect(stdout).toContain('new messages a minute to the AI from one address: at most 240');
    const inboxId = /^Inbox (inb_\S+) /m.exec(stdout)?.[1];
    expect(await withStore((sql) => aiMessagesPerAddressOf(sql, inboxId!))).toBe(240);
  }, 60_000);

  it('keeps each inbox apart: a second run makes a second inbox with keys of its own', async () => {
    await onPostgres();
    expect((await runCli('--name', 'First')).code).toBe(0);
    expect((await runCli('--name', 'Second')).code).toBe(0);
    const inboxes = await storedInboxes();
    expect(inboxes.map((inbox) => inbox.name).sort()).toEqual(['First', 'Second']);
    expect(new Set(inboxes.flatMap((inbox) => inbox.keys)).size).toBe(2);
  }, 60_000);

  it.each([
    ['without a name', [], /--name/],
    ['with a blank name', ['--name', '  '], /--name/],
    [
      'with a live origin that has a path',
      ['--name', 'Shop', '--live-origin', 'https://shop.example/store'],
      /--live-origin: "https:\/\/shop\.example\/store" is not an origin/,
    ],
    [
      'with a live origin that is not a URL',
      ['--name', 'Shop', '--live-origin', 'shop.example'],
      /--live-origin: "shop\.example"/,
    ],
    ['with an option it does not know', ['--name', 'Shop', '--origin', 'https://shop.example'], /--origin/],
    [
      'with a per-address limit below the default',
      ['--name', 'Shop', '--ai-messages-per-address-per-minute', '10'],
      /--ai-messages-per-address-per-minute: "10" is not a whole number from 60 to 3000/,
    ],
    [
      'with a per-address limit that is not a number',
      ['--name', 'Shop', '--ai-messages-per-address-per-minute', 'lots'],
      /--ai-messages-per-address-per-minute: "lots"/,
    ],
  ])(
    'refuses to run %s, says why, and does not even open the store',
    async (_name, args, reason) => {
      const { code, stderr, stdout } = await runCli(...args);
      expect(code).toBe(2);
      expect(stderr).toMatch(reason);
      expect(stdout).toBe('');
      expect(await readdir(dataDir)).toEqual([]);
    },
    60_000,
  );

  it('refuses a DATABASE_URL of another kind, naming it', async () => {
    const { code, stderr } = await runNodeScript('bff/helpdesk/inbox-cli.ts', ['--name', 'Shop'], {
      DATA_DIR: dataDir,
      DATABASE_URL: 'mysql://db.internal/parley',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^ {2}DATABASE_URL: /m);
  }, 60_000);
});
