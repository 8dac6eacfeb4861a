import { PGlite } from '@electric-sql/pglite';

/**
 * Starting PGlite in memory runs `initdb`, which is most of the cost of a new database (about two
 * thirds, measured on the 2-core machine: 3 s against 0.9 s). Every new in-memory database is the
 * same blank cluster before its schema is made, so a process makes it once, keeps a copy of its
 * files, and starts every later in-memory database from that copy. A test run hands one copy to all
 * its workers (`rememberBlankCluster`, from `test/global-setup.ts`). Databases in a folder are not
 * touched: they are made once and then opened.
 */
let blank: Promise<Blob> | undefined;

/** Uses `files` (a `dumpDataDir` of a blank cluster of this PGlite version) for new in-memory databases. */
export function rememberBlankCluster(files: Blob): void {
  blank = Promise.resolve(files);
}

/** A new PGlite database in memory, started from the blank cluster's files when this process has them. */
export async function createMemoryPglite(): Promise<PGlite> {
  if (blank) {
    const files = await blank.catch(() => undefined);
    if (files) return PGlite.create('memory://', { loadDataDir: files });
  }
  const db = await PGlite.create('memory://');
  blank ??= db.dumpDataDir('none');
  await blank.catch(() => (blank = undefined));
  return db;
}

/** The files of a new blank cluster, to hand to other processes (see `rememberBlankCluster`). */
export async function blankClusterFiles(): Promise<Blob> {
  const db = await PGlite.create('memory://');
  try {
    return await db.dumpDataDir('none');
  } finally {
    await db.close();
  }
}
