export type { Environment } from '../../shared/environment.ts';
import type { Environment } from '../../shared/environment.ts';

/** The default requests per minute of an account in an environment, shared by its keys there (SPEC "Limits"); an account may have its own. */
export const DEFAULT_REQUESTS_PER_MINUTE = { live: 300, sandbox: 60 } as const;

/** Who is calling: the account and environment that an API key opens. */
export interface Caller {
  accountId: string;
  environment: Environment;
  keyId: string;
  keyPrefix: string;
  /** The limit of the key's account and environment: the account's own, or the environment's default. */
  requestsPerMinute: number;
  /** The operator suspended the key's account: the key is refused (403 account_suspended) until it is resumed. */
  suspended?: boolean | undefined;
}
