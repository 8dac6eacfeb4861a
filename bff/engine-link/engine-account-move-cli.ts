import { ParleyError } from '../../shared/index.ts';
import { createLogger, openSecretBox, settingsOrExit } from '../../shared/server/index.ts';
import { readBffConfig } from '../host/config.ts';
import { openBffStore } from '../host/infrastructure.ts';
import { EngineAccounts } from './engine-accounts.ts';
import { listAccountsWithoutEngineAccount } from './engine-accounts-store.ts';
import { moveToOwnEngineAccount } from './engine-account-moves.ts';
import { EngineClient } from './engine-client.ts';
import { EngineKeys } from './engine-keys.ts';
import { EngineOperator } from './engine-operator.ts';

/**
 * `npm run bff:accounts -- legacy` lists the helpdesk accounts the installation's engine account
 * (AI_API_KEY) serves, made before accounts had engine accounts of their own;
 * `npm run bff:accounts -- move-engine <account_id>` moves one to an engine account of its own,
 * with its conversations (engine-account-moves.ts). It reads what `npm run bff` reads (the store,
 * SECRETS_KEYS, AI_API_URL, AI_API_KEY, AI_OPERATOR_TOKEN, ENGINE_WEBHOOK_URL). Run it with every
 * BFF node stopped: a running node would go on sending the account's conversations with the
 * installation's keys. Exit codes: 0 done (or moved already), 2 bad usage, 3 refused (the error's
 * code is printed: not_found, conflict), 1 anything else (the engine away: run it again).
 */
const usage = 'Usage: npm run bff:accounts -- legacy | move-engine <account_id>\n';
const [command, given, ...rest] = process.argv.slice(2);
const accountId = Number(given);
const known = (command === 'legacy' && given === undefined) || (command === 'move-engine' && rest.length === 0);
if (!known || (command === 'move-engine' && !(Number.isSafeInteger(accountId) && accountId > 0))) {
  process.stderr.write(usage);
  process.exit(2);
}

const config = settingsOrExit(() => readBffConfig(process.env));
const logger = createLogger('bff', config.logLevel);
const sql = await openBffStore(config);
try {
  if (command === 'legacy') {
    const ids = await listAccountsWithoutEngineAccount(sql);
    process.stdout.write(ids.length ? `${ids.join('\n')}\n` : 'Every account has an engine account of its own.\n');
  } else {
    const installation = new EngineKeys(
      config.aiApiKeys.map((apiKey) => new EngineClient({ baseUrl: config.aiApiUrl, apiKey })),
    );
    const secrets = openSecretBox(config.secretKeys, config.dataDir);
    const outcome = await moveToOwnEngineAccount(
      {
        sql,
        secrets,
        engines: new EngineAccounts({ sql, secrets, installation }),
        operator: config.aiOperatorToken
          ? new EngineOperator({ baseUrl: config.aiApiUrl, token: config.aiOperatorToken })
          : undefined,
        webhookUrl: config.engineWebhookUrl,
        logger,
        now: () => new Date(),
      },
      accountId,
    );
    process.stdout.write(
      outcome.outcome === 'moved'
        ? `Account ${accountId} moved to engine account ${outcome.engineAccountId} with ${outcome.conversations} conversations.\n`
        : `Account ${accountId} was moved to engine account ${outcome.engineAccountId} before: nothing to do.\n`,
    );
  }
} catch (error) {
  const refused = error instanceof ParleyError && error.status < 500;
  process.stderr.write(error instanceof ParleyError ? `${error.code}: ${error.message}\n` : `${String(error)}\n`);
  process.exitCode = refused ? 3 : 1;
} finally {
  await sql.close();
}
