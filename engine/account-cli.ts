import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { migrate, openSql } from '../shared/server/index.ts';
import { ENGINE_MIGRATIONS } from './app.ts';
import { createAccount, findAccount, issueApiKey } from './store/accounts.ts';

/**
 * `npm run engine:account -- --name "My shop"`: makes an account with a sandbox and a live API
 * key and prints them once. `--account acc_… --environment live` adds a key to an account.
 */
const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    account: { type: 'string' },
    environment: { type: 'string', default: 'sandbox' },
  },
});
if (!values.name && !values.account) {
  process.stderr.write(
    'Give --name "Shop name" for a new account, or --account acc_… [--environment sandbox|live] for a new key.\n',
  );
  process.exit(2);
}
if (values.environment !== 'sandbox' && values.environment !== 'live') {
  process.stderr.write('--environment must be sandbox or live.\n');
  process.exit(2);
}
const databaseUrl = process.env['DATABASE_URL'] || undefined;
const sql = await openSql({
  databaseUrl,
  dataDir: join(resolve(process.env['DATA_DIR'] ?? './.data'), 'engine'),
  schema: 'engine',
});
try {
  await migrate(sql, ENGINE_MIGRATIONS);
  if (values.account) {
    if (!(await findAccount(sql, values.account))) throw new Error(`No account ${values.account}.`);
    const { key } = await issueApiKey(sql, values.account, values.environment);
    process.stdout.write(`New ${values.environment} API key for ${values.account} (shown once): ${key}\n`);
  } else {
    const accountId = await createAccount(sql, values.name!);
    const sandbox = await issueApiKey(sql, accountId, 'sandbox');
    const live = await issueApiKey(sql, accountId, 'live');
    process.stdout.write(
      `Account ${accountId}\n  sandbox API key (shown once): ${sandbox.key}\n  live API key (shown once):    ${live.key}\n`,
    );
  }
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await sql.close();
}
