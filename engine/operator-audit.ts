import type { Logger } from '../shared/server/index.ts';
import { DEFAULT_REQUESTS_PER_MINUTE, type Environment } from './store/environment.ts';
import type { AccountRateLimits } from './store/accounts.ts';

/**
 * What the installation operator did to an account's credentials and limits, as one structured log
 * line each (`audit: "operator"`), the same from the operator routes and from `npm run engine:keys`:
 * the engine keeps no audit table, so the log is the record (SPEC "Limits": limits are raised on
 * request, and who raised what stays traceable).
 */
export type OperatorAction =
  | { action: 'api_key.created'; account: string; key: string; environment: Environment }
  | { action: 'api_key.revoked'; account: string; key: string; environment: Environment }
  | {
      action: 'account.rate_limit_changed';
      account: string;
      environment: Environment;
      /** The requests per minute before and after (the environment's default where the account had none of its own). */
      from: number;
      to: number;
      /** The account's own value before and after; null: the default. */
      own_from: number | null;
      own_to: number | null;
    };

/** Where the operator acted from: an operator route, or the command line. */
export type OperatorChannel = 'http' | 'cli';

export function auditOperatorAction(logger: Logger, via: OperatorChannel, entry: OperatorAction): void {
  logger.info({ audit: 'operator', via, ...entry }, `operator: ${entry.action}`);
}

/** One audit line per environment whose limit changed. */
export function auditRateLimitChanges(
  logger: Logger,
  via: OperatorChannel,
  account: string,
  { before, after }: { before: AccountRateLimits; after: AccountRateLimits },
): void {
  for (const environment of ['sandbox', 'live'] as const) {
    if (before[environment] === after[environment]) continue;
    auditOperatorAction(logger, via, {
      action: 'account.rate_limit_changed',
      account,
      environment,
      from: before[environment] ?? DEFAULT_REQUESTS_PER_MINUTE[environment],
      to: after[environment] ?? DEFAULT_REQUESTS_PER_MINUTE[environment],
      own_from: before[environment],
      own_to: after[environment],
    });
  }
}
