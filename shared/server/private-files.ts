import { chmodSync, mkdirSync } from 'node:fs';
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * What the services keep under DATA_DIR (the embedded databases, the secrets key, customers'
 * files) is the running user's alone: folders 0700, files 0600, whatever umask the process was
 * started with (issue 26: under umask 000, 1,936 files of the embedded databases were 0666).
 */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `folder` (and any missing folder above it) with mode 0700, and sets an existing one to
 * 0700 too: `mkdir`'s mode is only the most it may get (the umask takes from it), and a folder
 * made earlier keeps whatever mode it was made with.
 *
 * @example makePrivateFolder(join(dataDir, 'attachments'))
 */
export function makePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  chmodSync(folder, PRIVATE_FOLDER_MODE);
}

/**
 * Sets every folder under `folder` (itself included) to 0700 and every file to 0600; symbolic
 * links are left as they are (a link's target may be anyone's). For what a library wrote with
 * modes of its own: PGlite unpacks its first cluster with 0666 files and 0777 folders, whatever
 * the umask, and stores made before this rule have them still.
 *
 * @example await makePrivateTree(join(dataDir, 'bff'))
 */
export async function makePrivateTree(folder: string): Promise<void> {
  try {
    const entry = await lstat(folder);
    if (entry.isSymbolicLink()) return;
    const wanted = entry.isDirectory() ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE;
    if ((entry.mode & 0o777) !== wanted) await chmod(folder, wanted);
    if (!entry.isDirectory()) return;
    for (const name of await readdir(folder)) await makePrivateTree(join(folder, name));
  } catch (error) {
    // A file the running store removed meanwhile (a temporary one) needs nothing.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Sets `dataDir` itself to 0700 and what is directly in it to 0700 (folders) or 0600 (files), as
 * each store does when it opens: a DATA_DIR made loose by an earlier version (a secrets.key left
 * from before SECRETS_KEYS was set, a folder made 0777) is set right even where this process's
 * umask cannot be tightened (a worker thread) and nothing else makes the folder. Deeper entries are
 * behind these 0700 folders; each store sets its own folder's tree right itself.
 *
 * @example await makeDataDirPrivate('/var/lib/parley')
 */
export async function makeDataDirPrivate(dataDir: string): Promise<void> {
  makePrivateFolder(dataDir);
  for (const name of await readdir(dataDir)) {
    const path = join(dataDir, name);
    try {
      const entry = await lstat(path);
      if (entry.isSymbolicLink()) continue;
      const wanted = entry.isDirectory() ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE;
      if ((entry.mode & 0o777) !== wanted) await chmod(path, wanted);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * From now on, what this process makes is not for group or others: the umask gains 077. PGlite
 * keeps making files for as long as it runs (WAL segments, relations, its relcache init file,
 * which it writes 0666 less the umask), so a one-time pass over its folder is not enough. Node
 * refuses to set the umask in a worker thread: there it gives false and changes nothing; the
 * folders (DATA_DIR and the store's, 0700: `makeDataDirPrivate`) keep others out of what PGlite
 * makes there, and its files are set 0600 when the store opens next.
 */
export function keepNewFilesPrivate(): boolean {
  if (!isMainThread) return false;
  // process.umask() without an argument is deprecated (it sets and resets): set, then add back.
  const before = process.umask(0o077);
  process.umask(before | 0o077);
  return true;
}
