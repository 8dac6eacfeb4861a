import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { blankClusterFiles } from '../shared/server/pglite-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a blank PGlite cluster, from which every test file's in-memory databases start. */
    pgliteBlankCluster: string;
  }
}

/** Runs once before the test files: makes the blank PGlite cluster they all start from (see shared/server/pglite-cluster.ts). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), 'parley-test-'));
  const file = join(folder, 'pglite-blank.tar');
  await writeFile(file, Buffer.from(await (await blankClusterFiles()).arrayBuffer()));
  project.provide('pgliteBlankCluster', file);
  return () => rm(folder, { recursive: true, force: true });
}
