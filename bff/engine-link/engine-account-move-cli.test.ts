import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/index.ts';
import { runNodeScript } from '../../test/node-script.ts';

/**
 * `npm run bff:accounts`, run as its own process on an embedded store of its own: bad usage exits
 * 2, an account that is not there exits 3 with `not_found`, before the engine is asked anything
 * (AI_API_URL names a port nothing listens on). The move itself: engine-account-moves.test.ts.
 */
describe('npm run bff:accounts', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'parley-bff-accounts-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const runCli = (...args: string[]) =>
    runNodeScript('bff/engine-link/engine-account-move-cli.ts', args, {
      DATA_DIR: dataDir,
      AI_API_URL: 'http://127.0.0.1:9',
      AI_API_KEY: `service_test_${randomToken(32)}`,
    });

  it('exits 2 with the usage for a command it does not know or an account id that is not one', async () => {
    for (const args of [
      ['move-engine', 'abc'],
      ['merge', '1'],
    ]) {
      const { code, stderr } = await runCli(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toContain('Usage: npm run bff:accounts');
    }
  });

  it('lists no account to move in a new store, and exits 3 with not_found for an account that is not there', async () => {
    const listed = await runCli('legacy');
    expect([listed.code, listed.stdout]).toEqual([0, 'Every account has an engine account of its own.\n']);
    const { code, stderr } = await runCli('move-engine', '42');
    expect(code).toBe(3);
    expect(stderr).toMatch(/^not_found: No account 42\./);
  });
});
