import { createHash } from 'node:crypto';
import { newId, randomToken } from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import { DEFAULT_REQUESTS_PER_MINUTE, type Caller, type Environment } from './environment.ts';

const KEY_PATTERN = /^service_(test|live)_[0-9A-Za-z]{24,64}$/;

/** SHA-256 of an API key, the only form in which keys are kept. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** True when `key` has the shape of an API key (`service_test_…` or `service_live_…`). */
export function isApiKeyShape(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** A fresh API key for `environment`; its plaintext exists only in the return value. */
export function generateApiKey(environment: Environment): string {
  return `service_${environment === 'live' ? 'live' : 'test'}_${randomToken(32)}`;
}

export async function createAccount(sql: Sql, name: string, id = newId('account')): Promise<string> {
  await sql.transaction((tx) => insertAccount(tx, name, id));
  return id;
}

/** An account and its two feeds, in the caller's transaction. */
export async function insertAccount(db: Queryable, name: string, id = newId('account')): Promise<string> {
  await db.query('INSERT INTO accounts (id, name) VALUES ($1, $2)', [id, name]);
  await db.query("INSERT INTO feeds (account_id, environment) VALUES ($1, 'sandbox'), ($1, 'live')", [id]);
  return id;
}

export async function findAccount(db: Queryable, id: string): Promise<{ id: string; name: string } | undefined> {
  const [row] = await db.query<{ id: string; name: string }>('SELECT id, name FROM accounts WHERE id = $1', [id]);
  return row;
}

/**
 * Stores `key` (or a fresh one) for the account and gives the plaintext back once.
 * `key` lets a demo or a test choose a known key; it must have the API key shape.
 */
/**
 * True when the account exists, and then it stays so until `tx` ends: its row is held (FOR KEY
 * SHARE), so an account deleted at the same moment waits for what `tx` adds to it, and its erasure
 * then takes that too, instead of the addition failing on a vanished account.
 */
export async function holdAccount(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query<{ id: string }>('SELECT id FROM accounts WHERE id = $1 FOR KEY SHARE', [id]);
  return rows.length > 0;
}

export async function issueApiKey(
  db: Queryable,
  accountId: string,
  environment: Environment,
  key = generateApiKey(environment),
): Promise<{ id: string; key: string }> {
  if (!isApiKeyShape(key) || !key.startsWith(`service_${environment === 'live' ? 'live' : 'test'}_`)) {
    throw new TypeError(
      `an ${environment} API key must look like service_${environment === 'live' ? 'live' : 'test'}_ followed by 24-64 letters or digits`,
    );
  }
  const id = newId('apiKey');
  await db.query(
    'INSERT INTO api_keys (id, account_id, environment, secret_sha256, prefix) VALUES ($1, $2, $3, $4, $5)',
    [id, accountId, environment, hashApiKey(key), key.slice(0, 17)],
  );
  return { id, key };
}

/** The caller an unrevoked key opens, or undefined. */
export async function findCallerByKey(db: Queryable, key: string): Promise<Caller | undefined> {
  if (!isApiKeyShape(key)) return undefined;
  const [row] = await db.query<{
    id: string;
    account_id: string;
    environment: Environment;
    prefix: string;
    limit: number | null;
    suspended: boolean;
  }>(
    `SELECT k.id, k.account_id, k.environment, k.prefix,
            CASE k.environment WHEN 'live' THEN a.requests_per_minute_live ELSE a.requests_per_minute_sandbox END AS limit,
            a.suspended_at IS NOT NULL AS suspended
     FROM api_keys k JOIN accounts a ON a.id = k.account_id
     WHERE k.secret_sha256 = $1 AND k.revoked_at IS NULL`,
    [hashApiKey(key)],
  );
  return (
    row && {
      accountId: row.account_id,
      environment: row.environment,
      keyId: row.id,
      keyPrefix: row.prefix,
      requestsPerMinute: row.limit ?? DEFAULT_REQUESTS_PER_MINUTE[row.environment],
      ...(row.suspended ? { suspended: true } : {}),
    }
  );
}

/** True when `key` is stored for some account, revoked or not. */
export async function apiKeyExists(db: Queryable, key: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM api_keys WHERE secret_sha256 = $1', [hashApiKey(key)]);
  return rows.length > 0;
}

/** Revokes a key of whichever account holds it, now; see `revokeInstallationApiKey`. */
export async function revokeApiKey(db: Queryable, keyId: string): Promise<void> {
  await revokeInstallationApiKey(db, keyId, new Date());
}

/**
 * Revokes a key of whichever account holds it (the installation operator's `engine:keys -- revoke`),
 * at `now`; a key revoked already keeps its first revocation. Gives the key, or undefined when there
 * is none. The next request with it is refused: every request looks its key up again.
 */
export async function revokeInstallationApiKey(
  db: Queryable,
  keyId: string,
  now: Date,
): Promise<ApiKeyRecord | undefined> {
  const [row] = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${KEY_COLUMNS}`,
    [keyId, now],
  );
  return row && toApiKey(row);
}

/** An account's key as it is kept: never the key, only its first characters. */
export interface ApiKeyRecord {
  id: string;
  accountId: string;
  environment: Environment;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

interface ApiKeyRow {
  id: string;
  account_id: string;
  environment: Environment;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

const KEY_COLUMNS = 'id, account_id, environment, prefix, created_at, revoked_at';

const toApiKey = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  accountId: row.account_id,
  environment: row.environment,
  prefix: row.prefix,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

/** Every key of the account, revoked ones too, oldest first. */
export async function listApiKeys(db: Queryable, accountId: string): Promise<ApiKeyRecord[]> {
  const rows = await db.query<ApiKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY created_at, id`,
    [accountId],
  );
  return rows.map(toApiKey);
}

/** Every key of the installation, revoked ones too, by account and then oldest first. */
export async function listInstallationApiKeys(db: Queryable): Promise<ApiKeyRecord[]> {
  const rows = await db.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY account_id, created_at, id`);
  return rows.map(toApiKey);
}

/** One key of the account; undefined for a key of another account. */
export async function findApiKey(db: Queryable, accountId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
  const [row] = await db.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 AND id = $2`, [
    accountId,
    keyId,
  ]);
  return row && toApiKey(row);
}

/**
 * Revokes one key of the account, at `now` (a key revoked already keeps its first revocation);
 * gives the key, or undefined when the account has no such key. The next request with it is
 * refused: every request looks its key up again.
 */
export async function revokeAccountApiKey(
  db: Queryable,
  accountId: string,
  keyId: string,
  now: Date,
): Promise<ApiKeyRecord | undefined> {
  const [row] = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3) WHERE account_id = $1 AND id = $2 RETURNING ${KEY_COLUMNS}`,
    [accountId, keyId, now],
  );
  return row && toApiKey(row);
}

/** Sets an account's own requests per minute for an environment; `null` restores the default. */
export async function setAccountRateLimit(
  db: Queryable,
  accountId: string,
  environment: Environment,
  requestsPerMinute: number | null,
): Promise<void> {
  const column = environment === 'live' ? 'requests_per_minute_live' : 'requests_per_minute_sandbox';
  await db.query(`UPDATE accounts SET ${column} = $2 WHERE id = $1`, [accountId, requestsPerMinute]);
}

/** An account's own requests per minute in each environment; null where it has the environment's default. */
export type AccountRateLimits = Record<Environment, number | null>;

/** The account's own limits, or undefined when there is no such account. */
export async function readAccountRateLimits(db: Queryable, accountId: string): Promise<AccountRateLimits | undefined> {
  const [row] = await db.query<{ sandbox: number | null; live: number | null }>(
    'SELECT requests_per_minute_sandbox AS sandbox, requests_per_minute_live AS live FROM accounts WHERE id = $1',
    [accountId],
  );
  return row && { sandbox: row.sandbox, live: row.live };
}

/**
 * Changes the account's own limits of the environments in `changes` (`null` restores the default)
 * and gives them before and after, for the operator's audit line; undefined when there is no such
 * account. The account's row is held while it changes, so two changes at once each see the other's
 * result as their "before".
 */
export async function changeAccountRateLimits(
  sql: Sql,
  accountId: string,
  changes: { [environment in Environment]?: number | null | undefined },
): Promise<{ before: AccountRateLimits; after: AccountRateLimits } | undefined> {
  return sql.transaction(async (tx) => {
    const held = await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    if (held.length === 0) return undefined;
    const before = (await readAccountRateLimits(tx, accountId))!;
    for (const [environment, limit] of Object.entries(changes) as [Environment, number | null | undefined][])
      if (limit !== undefined) await setAccountRateLimit(tx, accountId, environment, limit);
    return { before, after: (await readAccountRateLimits(tx, accountId))! };
  });
}

/**
 * Suspends (`suspended` true) or resumes an account: a suspended account's keys are refused at
 * once, since every request looks its key up again. Gives the account's status, or undefined when
 * there is no such account.
 */
export async function setAccountSuspended(
  db: Queryable,
  accountId: string,
  suspended: boolean,
  now: Date,
): Promise<'active' | 'suspended' | undefined> {
  const [row] = await db.query<{ suspended: boolean }>(
    `UPDATE accounts SET suspended_at = CASE WHEN $2::boolean THEN COALESCE(suspended_at, $3) ELSE NULL END WHERE id = $1 RETURNING suspended_at IS NOT NULL AS suspended`,
    [accountId, suspended, now],
  );
  return row && (row.suspended ? 'suspended' : 'active');
}
