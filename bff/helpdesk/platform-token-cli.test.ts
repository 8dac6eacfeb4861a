import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runNodeScript } from '../../test/node-script.ts';
import { openBffStore } from '../host/infrastructure.ts';
import { findPlatformToken } from './store/credentials.ts';

/** `npm run helpdesk:token`, run as its own process on an embedded store in a folder of this test's own. */
describe('npm run helpdesk:token', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'parley-platform-token-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('makes a platform app token that the store knows only by its hash, and prints it once', async () => {
    const { code, stdout } = await runNodeScript('bff/helpdesk/platform-token-cli.ts', ['--name', 'Night operator'], {
      DATA_DIR: dataDir,
    });
    expect(code).toBe(0);
    const token = /^ {2}([0-9A-Za-z]{32})$/m.exec(stdout)?.[1];
    expect(token, stdout).toBeDefined();
    const sql = await openBffStore({ dataDir, databaseUrl: undefined });
    try {
      expect(await findPlatformToken(sql, token!)).toEqual(expect.any(Number));
      const stored = await sql.query<{ token_hash: string; name: string }>(
        'SELECT token_hash, name FROM platform_tokens',
      );
      expect(stored).toEqual([{ token_hash: expect.stringMatching(/^[0-9a-f]{64}$/), name: 'Night operator' }]);
    } finally {
      await sql.close();
    }
  }, 60_000);

  it('refuses a bad store setting with exit code 1, naming it', async () => {
    const { code, stderr } = await runNodeScript('bff/helpdesk/platform-token-cli.ts', ['--name', 'x'], {
      DATA_DIR: dataDir,
      DATABASE_URL: 'mysql://db.internal/parley',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/DATABASE_URL/);
  }, 60_000);
});
