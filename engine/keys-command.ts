import { parseArgs } from 'node:util';
import type { Logger, Sql } from '../shared/server/index.ts';
import { auditOperatorAction, auditRateLimitChanges } from './operator-audit.ts';
import {
  changeAccountRateLimits,
  findAccount,
  issueApiKey,
  listApiKeys,
  listInstallationApiKeys,
  revokeInstallationApiKey,
  type ApiKeyRecord,
} from './store/accounts.ts';
import type { Environment } from './store/environment.ts';

/**
 * What `npm run engine:keys -- …` (keys-cli.ts) understands and does: the installation operator's
 * hand on the engine's API keys and limits, the same as the operator routes
 * (`/operator/v1/accounts/{id}/keys` and `…/limits`):
 *
 *   list [--account acc_…]                        every key (of one account), never the key itself
 *   create --account acc_… --env test|live        a new key, printed once
 *   revoke key_…                                  the key answers 401 from its next request
 *   limit --account acc_… --env test|live --per-minute N|default
 *
 * Each change is written as an audit line (operator-audit.ts).
 */
export const USAGE = `Usage: npm run engine:keys -- list [--account acc_…]
       npm run engine:keys -- create --account acc_… --env test|live
       npm run engine:keys -- revoke key_…
       npm run engine:keys -- limit --account acc_… --env test|live --per-minute <1-1000000|default>
`;

/** A command the operator gave, read and checked before the store is opened. */
export type Command =
  | { name: 'list'; account: string | undefined }
  | { name: 'create'; account: string; environment: Environment }
  | { name: 'revoke'; key: string }
  | { name: 'limit'; account: string; environment: Environment; perMinute: number | null };

/** A command line that cannot be run: the message says what was expected. */
export class UsageError extends Error {}
/** An account or key the command names is not there. */
export class NotFoundError extends Error {}

const ACCOUNT_ID = /^acc_[0-9A-Za-z]{16,64}$/;
const KEY_ID = /^key_[0-9A-Za-z]{16,64}$/;

function accountOption(value: string | undefined): string {
  if (!value) throw new UsageError('Give --account acc_….');
  if (!ACCOUNT_ID.test(value)) throw new UsageError(`--account takes an account id (acc_…), not "${value}".`);
  return value;
}

/** `--env test|live`; `sandbox` is taken for `test` too, as the API names it. */
function environmentOption(value: string | undefined): Environment {
  if (value === 'test' || value === 'sandbox') return 'sandbox';
  if (value === 'live') return 'live';
  throw new UsageError(`--env takes test or live${value === undefined ? '' : `, not "${value}"`}.`);
}

function perMinuteOption(value: string | undefined): number | null {
  if (value === 'default') return null;
  const number = value !== undefined && /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  if (!(number >= 1 && number <= 1_000_000))
    throw new UsageError(
      `--per-minute takes a whole number from 1 to 1000000, or default${value === undefined ? '' : `, not "${value}"`}.`,
    );
  return number;
}

/** Reads the command line; a UsageError for anything it cannot run. */
export function readCommand(args: string[]): Command {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(args);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [name, ...rest] = positionals;
  const extra = name === 'revoke' ? rest.slice(1) : rest;
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".`);
  switch (name) {
    case 'list':
      return { name, account: values.account === undefined ? undefined : accountOption(values.account) };
    case 'create':
      return { name, account: accountOption(values.account), environment: environmentOption(values.env) };
    case 'revoke': {
      const key = rest[0];
      if (!key || !KEY_ID.test(key))
        throw new UsageError(`revoke takes a key id (key_…)${key ? `, not "${key}"` : ''}.`);
      return { name, key };
    }
    case 'limit':
      return {
        name,
        account: accountOption(values.account),
        environment: environmentOption(values.env),
        perMinute: perMinuteOption(values['per-minute']),
      };
    default:
      throw new UsageError(name ? `No command "${name}".` : 'Give a command: list, create, revoke or limit.');
  }
}

function parseOptions(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { account: { type: 'string' }, env: { type: 'string' }, 'per-minute': { type: 'string' } },
  });
}

/** One line per key: id, account, environment, first characters, made, revoked. */
function keyLine(key: ApiKeyRecord): string {
  const environment = key.environment === 'sandbox' ? 'test' : 'live';
  const revoked = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active';
  return [key.id, key.accountId, environment, `${key.prefix}…`, key.createdAt.toISOString(), revoked].join('  ');
}

async function knownAccount(sql: Sql, account: string): Promise<void> {
  if (!(await findAccount(sql, account))) throw new NotFoundError(`No account ${account}.`);
}

/** Runs the command; gives what to print on stdout. A NotFoundError for an account or key that is not there. */
export async function runKeysCommand(sql: Sql, command: Command, audit: Logger): Promise<string> {
  switch (command.name) {
    case 'list': {
      if (command.account) await knownAccount(sql, command.account);
      const keys = command.account ? await listApiKeys(sql, command.account) : await listInstallationApiKeys(sql);
      return keys.length === 0 ? 'No keys.\n' : `${keys.map(keyLine).join('\n')}\n`;
    }
    case 'create': {
      await knownAccount(sql, command.account);
      const { id, key } = await issueApiKey(sql, command.account, command.environment);
      auditOperatorAction(audit, 'cli', {
        action: 'api_key.created',
        account: command.account,
        key: id,
        environment: command.environment,
      });
      return `New ${command.environment === 'live' ? 'live' : 'test'} API key ${id} for ${command.account} (shown once): ${key}\n`;
    }
    case 'revoke': {
      const revoked = await revokeInstallationApiKey(sql, command.key, new Date());
      if (!revoked) throw new NotFoundError(`No key ${command.key}.`);
      auditOperatorAction(audit, 'cli', {
        action: 'api_key.revoked',
        account: revoked.accountId,
        key: revoked.id,
        environment: revoked.environment,
      });
      return `Revoked ${revoked.id} of ${revoked.accountId}: it answers 401 from its next request.\n`;
    }
    case 'limit': {
      const changed = await changeAccountRateLimits(sql, command.account, { [command.environment]: command.perMinute });
      if (!changed) throw new NotFoundError(`No account ${command.account}.`);
      auditRateLimitChanges(audit, 'cli', command.account, changed);
      const now = changed.after[command.environment];
      return `${command.account} ${command.environment === 'live' ? 'live' : 'test'}: ${now ?? 'the default'} requests per minute.\n`;
    }
  }
}
