import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { rememberBlankCluster } from '../shared/server/pglite-cluster.ts';

// Each test file's process starts its in-memory PGlite databases from the run's blank cluster
// instead of running initdb for each (test/global-setup.ts).
rememberBlankCluster(new Blob([await readFile(inject('pgliteBlankCluster'))]));
