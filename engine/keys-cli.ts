import { pino } from 'pino';
import { dataFolder, migrate, openSql } from '../shared/server/index.ts';
import { ENGINE_MIGRATIONS } from './app.ts';
import { readCommand, runKeysCommand, USAGE, type Command } from './keys-command.ts';

/**
 * `npm run engine:keys -- list | create | revoke | limit …` (keys-command.ts says what each does):
 * the installation operator's hand on the engine's API keys and limits, on the store DATABASE_URL
 * names (else the embedded one in DATA_DIR). The answer goes to stdout, each change's audit line to
 * stderr. Exit code 2 for a command that cannot be read, 1 for an account or key that is not there.
 */
async function main(): Promise<void> {
  let command: Command;
  try {
    command = readCommand(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const sql = await openSql({
    databaseUrl: process.env['DATABASE_URL'] || undefined,
    dataDir: dataFolder(process.env['DATA_DIR'] ?? './.data', 'engine'),
    schema: 'engine',
  });
  // The audit lines go to stderr as JSON (stdout holds only the answer, a new key among it).
  const audit = pino({ name: 'parley-engine-keys', level: 'info' }, pino.destination({ dest: 2, sync: true }));
  try {
    await migrate(sql, ENGINE_MIGRATIONS);
    process.stdout.write(await runKeysCommand(sql, command, audit));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await sql.close();
  }
}

await main();
