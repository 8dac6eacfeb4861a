import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openSql, type Sql } from '../shared/server/index.ts';
import { runNodeScript } from '../test/node-script.ts';
import { createScratchDatabase, type ScratchDatabase } from '../test/scratch-database.ts';
import { closeServer, logger, request } from '../test/stack.ts';
import { createAccount, createEngine, ENGINE_MIGRATIONS, issueApiKey, type Engine } from './index.ts';
import { NotFoundError, readCommand, runKeysCommand, UsageError } from './keys-command.ts';

/**
 * `npm run engine:keys` (issue 33), run as its own process on a PostgreSQL database of this test's
 * own, beside an engine on the same database: what the command does holds from the engine's next
 * request, and each change leaves an audit line naming the operator's action.
 */
describe('npm run engine:keys', { timeout: 60_000 }, () => {
  let database: ScratchDatabase;
  let sql: Sql;
  let engine: Engine;
  let server: Server;
  let url: string;
  let accountId: string;
  let otherAccountId: string;
  let liveKey: { id: string; key: string };
  let otherKey: { id: string; key: string };

  const runCli = (...args: string[]) => runNodeScript('engine/keys-cli.ts', args, { DATABASE_URL: database.url });
  const me = (key: string) => request(`${url}/v1/me`, { token: key });
  const auditLines = (stderr: string) =>
    stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['audit'] === 'operator');

  beforeAll(async () => {
    database = await createScratchDatabase();
    sql = await openSql({ databaseUrl: database.url, schema: 'engine' });
    await migrate(sql, ENGINE_MIGRATIONS);
    engine = await createEngine({ sql, logger });
    server = createServer(engine.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    accountId = await createAccount(sql, 'Key ring shop');
    otherAccountId = await createAccount(sql, 'Neighbour shop');
    liveKey = await issueApiKey(sql, accountId, 'live');
    otherKey = await issueApiKey(sql, otherAccountId, 'sandbox');
  });
  afterAll(async () => {
    if (server) await closeServer(server);
    await engine?.webhooks.stop();
    await engine?.media.stop();
    await sql?.close();
    await database?.drop();
  });

  it('creates a key of the environment asked for, prints it once and audits it; the key opens its account at once', async () => {
    const created = await runCli('create', '--account', accountId, '--env', 'test');
    expect(created.code, created.stderr).toBe(0);
    const key = /service_test_[0-9A-Za-z]+/.exec(created.stdout)![0];
    const id = /key_[0-9A-Za-z]+/.exec(created.stdout)![0];
    expect((await me(key)).body).toMatchObject({ account_id: accountId, environment: 'sandbox', key: { id } });
    expect(auditLines(created.stderr)).toEqual([
      expect.objectContaining({
        via: 'cli',
        action: 'api_key.created',
        account: accountId,
        key: id,
        environment: 'sandbox',
      }),
    ]);
    const stored = await sql.query<{ secret_sha256: string }>('SELECT secret_sha256 FROM api_keys WHERE id = $1', [id]);
    expect(JSON.stringify(stored)).not.toContain(key.slice(17));
  });

  it("lists an account's keys, or every key, without the keys themselves", async () => {
    const listed = await runCli('list', '--account', accountId);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines.every((line) => line.includes(accountId))).toBe(true);
    expect(lines.find((line) => line.startsWith(liveKey.id))).toMatch(/ live .* active$/);
    expect(listed.stdout).not.toContain(liveKey.key.slice(17));
    expect(listed.stdout).not.toContain(otherKey.id);
    const everything = await runCli('list');
    expect(everything.stdout).toContain(otherKey.id);
    expect(everything.stdout).toContain(liveKey.id);
    expect(everything.stdout).not.toContain(otherKey.key.slice(17));
  });

  it('revokes a key of any account: its next request is 401, the other keys keep working, and it is audited', async () => {
    const doomed = await issueApiKey(sql, otherAccountId, 'live');
    expect((await me(doomed.key)).status).toBe(200);
    const revoked = await runCli('revoke', doomed.id);
    expect(revoked.code, revoked.stderr).toBe(0);
    const refused = await me(doomed.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
    expect((await me(otherKey.key)).status).toBe(200);
    expect(auditLines(revoked.stderr)).toEqual([
      expect.objectContaining({
        action: 'api_key.revoked',
        account: otherAccountId,
        key: doomed.id,
        environment: 'live',
      }),
    ]);
    expect((await runCli('list', '--account', otherAccountId)).stdout).toMatch(new RegExp(`${doomed.id} .* revoked `));
    // Again: nothing changes, and it still says so.
    expect((await runCli('revoke', doomed.id)).code).toBe(0);
  });

  it('changes an account limit from the next request, and audits the value before and after', async () => {
    const raised = await runCli('limit', '--account', accountId, '--env', 'live', '--per-minute', '1200');
    expect(raised.code, raised.stderr).toBe(0);
    expect((await me(liveKey.key)).body.limits.requests_per_minute).toBe(1200);
    expect(auditLines(raised.stderr)).toEqual([
      expect.objectContaining({
        via: 'cli',
        action: 'account.rate_limit_changed',
        account: accountId,
        environment: 'live',
        from: 300,
        to: 1200,
      }),
    ]);
    const restored = await runCli('limit', '--account', accountId, '--env', 'live', '--per-minute', 'default');
    expect(restored.code, restored.stderr).toBe(0);
    expect((await me(liveKey.key)).body.limits.requests_per_minute).toBe(300);
    expect(auditLines(restored.stderr)).toEqual([expect.objectContaining({ from: 1200, to: 300, own_to: null })]);
    // The other account and the other environment are untouched.
    expect((await me(otherKey.key)).body.limits.requests_per_minute).toBe(60);
  });

  it('refuses a command it cannot read (exit code 2) and an unknown account or key (exit code 1), changing nothing', async () => {
    const [before] = await sql.query<{ keys: string; limits: string }>(
      `SELECT (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL) AS keys,
              (SELECT count(*) FROM accounts WHERE requests_per_minute_live IS NOT NULL OR requests_per_minute_sandbox IS NOT NULL) AS limits`,
    );
    const usageErrors: string[][] = [
      [],
      ['rotate'],
      ['create', '--account', accountId],
      ['create', '--account', accountId, '--env', 'production'],
      ['create', '--env', 'live'],
      ['create', '--account', 'not-an-account', '--env', 'live'],
      ['revoke'],
      ['revoke', 'service_live_0000000000000000000000000'],
      ['limit', '--account', accountId, '--env', 'live'],
      ['limit', '--account', accountId, '--env', 'live', '--per-minute', '0'],
      ['limit', '--account', accountId, '--env', 'live', '--per-minute', '-5'],
      ['limit', '--account', accountId, '--env', 'live', '--per-minute', '1000001'],
      ['limit', '--account', accountId, '--env', 'live', '--per-minute', '12.5'],
      ['list', '--bogus'],
    ];
    for (const args of usageErrors) expect(() => readCommand(args), args.join(' ')).toThrow(UsageError);
    const unknownAccount = `acc_${'0'.repeat(24)}`;
    for (const args of [
      ['list', '--account', unknownAccount],
      ['create', '--account', unknownAccount, '--env', 'live'],
      ['revoke', `key_${'0'.repeat(24)}`],
      ['limit', '--account', unknownAccount, '--env', 'test', '--per-minute', '100'],
    ]) {
      await expect(runKeysCommand(sql, readCommand(args), logger), args.join(' ')).rejects.toThrow(NotFoundError);
    }
    // As a process: the usage and exit code 2, a missing account and exit code 1.
    const [refused, missing] = await Promise.all([
      runCli('create', '--account', accountId, '--env', 'production'),
      runCli('limit', '--account', unknownAccount, '--env', 'test', '--per-minute', '100'),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--env takes test or live, not "production"');
    expect(refused.stderr).toContain('Usage: npm run engine:keys');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`No account ${unknownAccount}.`);
    const [after] = await sql.query(
      `SELECT (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL) AS keys,
              (SELECT count(*) FROM accounts WHERE requests_per_minute_live IS NOT NULL OR requests_per_minute_sandbox IS NOT NULL) AS limits`,
    );
    expect(after).toEqual(before);
  });
});
