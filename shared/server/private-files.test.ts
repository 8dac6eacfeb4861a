import { chmod, lstat, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNodeScript } from '../../test/node-script.ts';
import { makePrivateTree } from './private-files.ts';
import { openSql } from './sql.ts';

interface Found {
  path: string;
  kind: 'folder' | 'file' | 'link';
  /** The permission bits, in octal. */
  mode: string;
}

/** Every folder and file under `root`, itself included. */
async function modesUnder(root: string): Promise<Found[]> {
  const entry = await lstat(root);
  const kind = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'folder' : 'file';
  const found: Found[] = [{ path: root, kind, mode: (entry.mode & 0o777).toString(8) }];
  if (kind !== 'folder') return found;
  const below = await Promise.all((await readdir(root)).map((name) => modesUnder(join(root, name))));
  return [...found, ...below.flat()];
}

/** What is not the user's alone: a folder other than 0700, a file other than 0600. */
const loose = (entries: Found[]) =>
  entries.filter(
    (entry) => (entry.kind === 'folder' && entry.mode !== '700') || (entry.kind === 'file' && entry.mode !== '600'),
  );

/** Sets every folder 0777 and file 0666, as a store made before the rule (or by hand) may be. */
async function loosen(root: string): Promise<void> {
  const entry = await lstat(root);
  await chmod(root, entry.isDirectory() ? 0o777 : 0o666);
  if (entry.isDirectory()) for (const name of await readdir(root)) await loosen(join(root, name));
}

/**
 * What the services keep under DATA_DIR is the running user's alone (issue 26): folders 0700,
 * files 0600, however loose the umask. The stores are made by a process of their own started
 * with umask 000 (`test/open-data-dir.ts`: the BFF's store, secrets key and a customer's file, the
 * engine's store), because the umask is the process's and PGlite keeps making files as it runs.
 */
describe('the data folder: 0700 folders and 0600 files, whatever the umask', () => {
  const folders: string[] = [];
  let dataDir: string;

  async function openUnderUmask000(): Promise<void> {
    const { code, stderr } = await runNodeScript('test/open-data-dir.ts', [dataDir]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), 'parley-data-modes-'));
    folders.push(root);
    dataDir = join(root, 'data');
    await openUnderUmask000();
  }, 120_000);
  afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  it('makes every folder 0700 and every file 0600 when the process runs with umask 000, and keeps them so as the stores are written and opened again', async () => {
    const entries = await modesUnder(dataDir);
    // The stores, the key and the file are all there: the check below saw them.
    const names = entries.map((entry) => entry.path.slice(dataDir.length));
    expect(names).toEqual(
      expect.arrayContaining([
        '/secrets.key',
        '/bff/PG_VERSION',
        '/engine/PG_VERSION',
        '/attachments/a-customer-photo-0001',
      ]),
    );
    expect(names.filter((name) => name.includes('/pg_wal/0')).length).toBeGreaterThan(2);
    expect(entries.length).toBeGreaterThan(1_000);
    expect(loose(entries)).toEqual([]);
  });

  it(
    'sets a data folder made before the rule right when the stores open it, so no file of an earlier install stays open to others',
    { timeout: 120_000 },
    async () => {
      await loosen(dataDir);
      expect(loose(await modesUnder(dataDir)).length).toBeGreaterThan(1_000);
      await openUnderUmask000();
      expect(loose(await modesUnder(dataDir))).toEqual([]);
    },
  );

  it('leaves a symbolic link in a tree as it is, and what it points at too', async () => {
    const root = await mkdtemp(join(tmpdir(), 'parley-data-modes-'));
    const elsewhere = await mkdtemp(join(tmpdir(), 'parley-elsewhere-'));
    folders.push(root, elsewhere);
    await chmod(elsewhere, 0o755);
    await symlink(elsewhere, join(root, 'link'));
    await chmod(root, 0o777);
    await makePrivateTree(root);
    expect(((await lstat(root)).mode & 0o777).toString(8)).toBe('700');
    expect(((await lstat(elsewhere)).mode & 0o777).toString(8)).toBe('755');
  });

  it(
    'sets DATA_DIR itself and what is directly in it right when a store opens there, with SECRETS_KEYS set and no umask of its own',
    { timeout: 120_000 },
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'parley-data-modes-'));
      folders.push(root);
      // As an earlier version, or a person, may have left it: a key from before SECRETS_KEYS, a loose folder.
      await chmod(root, 0o755);
      await writeFile(join(root, 'secrets.key'), 'local:left-from-before\n', { mode: 0o644 });
      await chmod(join(root, 'secrets.key'), 0o644);
      await mkdir(join(root, 'attachments'));
      await chmod(join(root, 'attachments'), 0o777);
      const sql = await openSql({ dataDir: join(root, 'bff'), dataRoot: root, schema: 'bff' });
      await sql.close();
      const modeOf = async (path: string) => ((await lstat(path)).mode & 0o777).toString(8);
      expect(await modeOf(root)).toBe('700');
      expect(await modeOf(join(root, 'secrets.key'))).toBe('600');
      expect(await modeOf(join(root, 'attachments'))).toBe('700');
      expect(loose(await modesUnder(root))).toEqual([]);
    },
  );
});
