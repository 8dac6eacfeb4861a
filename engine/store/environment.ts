/** The two worlds of an account: test keys reach the sandbox, live keys the live data. */
export type Environment = 'sandbox' | 'live';

/** Who is calling: the account and environment that an API key opens. */
export interface Caller {
  accountId: string;
  environment: Environment;
  keyId: string;
  keyPrefix: string;
  /** The key's limit: the account's own, or the environment's default. */
  requestsPerMinute: number;
}
