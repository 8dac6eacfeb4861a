import type { Queryable, SecretBox } from '../../shared/server/index.ts';
import type { Environment } from '../store/inboxes.ts';

/**
 * Which engine account serves an inbox: a helpdesk account's own (that account's id), or the
 * installation's configured keys (`null`) for an inbox of no account, or of an account made before
 * accounts had engine accounts of their own.
 */
export type EngineScope = number | null;

/** One environment's webhook endpoint at the engine, posting to `/v1/engine-webhooks/{account}`. */
export interface EngineWebhook {
  environment: Environment;
  id: string;
  secret: string;
}

/** A helpdesk account's own engine account: its id and its keys (kept sealed; open here). */
export interface StoredEngineAccount {
  accountId: number;
  engineAccountId: string;
  apiKeys: Record<Environment, string>;
}

/**
 * The inboxes an engine scope serves, as a condition on an inbox id column: `$n` is the scope (an
 * account id, or NULL for the installation's). Every read of what an engine account's events
 * reach (a forgotten customer's erasure) is scoped by it.
 */
export const servedBy = (inboxColumn: string, scopeParam: string): string =>
  `${inboxColumn} IN (SELECT i.id FROM inboxes i WHERE CASE WHEN ${scopeParam}::int IS NULL
     THEN NOT EXISTS (SELECT 1 FROM engine_accounts e WHERE e.account_id = i.account_id) ELSE i.account_id = ${scopeParam}::int END)`;

/** Keeps a helpdesk account's new engine account with its keys sealed, in the caller's transaction. */
export async function insertEngineAccount(
  db: Queryable,
  box: SecretBox,
  account: StoredEngineAccount,
  now: Date,
): Promise<void> {
  await db.query(
    'INSERT INTO engine_accounts (account_id, engine_account_id, api_keys, created_at) VALUES ($1, $2, $3, $4)',
    [account.accountId, account.engineAccountId, box.seal(JSON.stringify(account.apiKeys)), now],
  );
}

interface EngineAccountRow {
  account_id: number;
  engine_account_id: string;
  api_keys: string;
}

const toStored = (box: SecretBox, row: EngineAccountRow): StoredEngineAccount => ({
  accountId: row.account_id,
  engineAccountId: row.engine_account_id,
  apiKeys: JSON.parse(box.open(row.api_keys)) as Record<Environment, string>,
});

export async function findEngineAccount(
  db: Queryable,
  box: SecretBox,
  accountId: number,
): Promise<StoredEngineAccount | undefined> {
  const [row] = await db.query<EngineAccountRow>(
    'SELECT account_id, engine_account_id, api_keys FROM engine_accounts WHERE account_id = $1',
    [accountId],
  );
  return row && toStored(box, row);
}

/** Every active helpdesk account with an engine account of its own, oldest first (whose feeds are read; a suspended one's keys are refused). */
export async function listEngineAccountIds(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ account_id: number }>(
    "SELECT e.account_id FROM engine_accounts e JOIN accounts a ON a.id = e.account_id WHERE a.status <> 'suspended' ORDER BY e.account_id",
  );
  return rows.map((row) => row.account_id);
}

/** Whose engine account serves the inbox: its account's own, or the installation's; undefined when there is no such inbox. */
export async function scopeOfInbox(db: Queryable, inboxId: string): Promise<{ scope: EngineScope } | undefined> {
  const [row] = await db.query<{ scope: number | null }>(
    'SELECT e.account_id AS scope FROM inboxes i LEFT JOIN engine_accounts e ON e.account_id = i.account_id WHERE i.id = $1',
    [inboxId],
  );
  return row && { scope: row.scope };
}

/** Keeps the account's webhook endpoints at the engine, sealed (their secrets sign what is posted to it). */
export async function setEngineWebhooks(
  db: Queryable,
  box: SecretBox,
  accountId: number,
  webhooks: readonly EngineWebhook[],
): Promise<void> {
  await db.query('UPDATE engine_accounts SET webhooks = $2 WHERE account_id = $1', [
    accountId,
    webhooks.length ? box.seal(JSON.stringify(webhooks)) : null,
  ]);
}

export async function engineWebhooksOf(db: Queryable, box: SecretBox, accountId: number): Promise<EngineWebhook[]> {
  const [row] = await db.query<{ webhooks: string | null }>(
    'SELECT webhooks FROM engine_accounts WHERE account_id = $1',
    [accountId],
  );
  return row?.webhooks ? (JSON.parse(box.open(row.webhooks)) as EngineWebhook[]) : [];
}

const CURSOR_COLUMN = { sandbox: 'feed_cursor_sandbox', live: 'feed_cursor_live' } as const;

/** Where the account's feed of `environment` has been read up to. */
export async function readFeedCursor(
  db: Queryable,
  accountId: number,
  environment: Environment,
): Promise<string | undefined> {
  const [row] = await db.query<{ cursor: string | null }>(
    `SELECT ${CURSOR_COLUMN[environment]} AS cursor FROM engine_accounts WHERE account_id = $1`,
    [accountId],
  );
  return row?.cursor ?? undefined;
}

export async function writeFeedCursor(
  db: Queryable,
  accountId: number,
  environment: Environment,
  cursor: string,
): Promise<void> {
  await db.query(`UPDATE engine_accounts SET ${CURSOR_COLUMN[environment]} = $2 WHERE account_id = $1`, [
    accountId,
    cursor,
  ]);
}

/** The engine's id of the account's own engine account; undefined when it has none (it is served by the installation's keys). */
export async function engineAccountIdOf(db: Queryable, accountId: number): Promise<string | undefined> {
  const [row] = await db.query<{ engine_account_id: string }>(
    'SELECT engine_account_id FROM engine_accounts WHERE account_id = $1',
    [accountId],
  );
  return row?.engine_account_id;
}

/** The helpdesk account an engine account (acc_…) serves; undefined for any other (the installation's, or another BFF's). */
export async function accountOfEngineAccount(db: Queryable, engineAccountId: string): Promise<number | undefined> {
  const [row] = await db.query<{ account_id: number }>(
    'SELECT account_id FROM engine_accounts WHERE engine_account_id = $1',
    [engineAccountId],
  );
  return row?.account_id;
}

/**
 * An inbox the scope serves: the one with the Application API's number `displayId`, or without
 * one the account's first (by number); undefined when there is none. The installation's scope
 * (null) serves inboxes of no account and of accounts without an engine account of their own.
 */
export async function inboxServedBy(
  db: Queryable,
  scope: EngineScope,
  displayId: number | undefined,
): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }>(
    `SELECT id FROM inboxes WHERE ${servedBy('id', '$1')} AND ($2::bigint IS NULL OR display_id = $2::bigint) ORDER BY display_id LIMIT 1`,
    [scope, displayId ?? null],
  );
  return row?.id;
}

/** A key of an account's engine account that its administrators got (never the key itself: it was shown once). */
export interface EngineAccountKey {
  id: number;
  accountId: number;
  engineKeyId: string;
  environment: Environment;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

interface EngineAccountKeyRow {
  id: number;
  account_id: number;
  engine_key_id: string;
  environment: Environment;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

const toKey = (row: EngineAccountKeyRow): EngineAccountKey => ({
  id: row.id,
  accountId: row.account_id,
  engineKeyId: row.engine_key_id,
  environment: row.environment,
  prefix: row.prefix,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

const KEY_COLUMNS = 'id, account_id, engine_key_id, environment, prefix, created_at, revoked_at';

/** Keeps a key just made at the engine for the account's administrators, in the caller's transaction. */
export async function insertEngineAccountKey(
  db: Queryable,
  key: Omit<EngineAccountKey, 'id' | 'revokedAt'>,
): Promise<EngineAccountKey> {
  const [row] = await db.query<EngineAccountKeyRow>(
    `INSERT INTO engine_account_keys (account_id, engine_key_id, environment, prefix, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${KEY_COLUMNS}`,
    [key.accountId, key.engineKeyId, key.environment, key.prefix, key.createdAt],
  );
  return toKey(row!);
}

/** The account's keys its administrators got, revoked ones too, oldest first. */
export async function listEngineAccountKeys(db: Queryable, accountId: number): Promise<EngineAccountKey[]> {
  return (
    await db.query<EngineAccountKeyRow>(
      `SELECT ${KEY_COLUMNS} FROM engine_account_keys WHERE account_id = $1 ORDER BY id`,
      [accountId],
    )
  ).map(toKey);
}

/** One of the account's keys; undefined for another account's. */
export async function findEngineAccountKey(
  db: Queryable,
  accountId: number,
  id: number,
): Promise<EngineAccountKey | undefined> {
  const [row] = await db.query<EngineAccountKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM engine_account_keys WHERE account_id = $1 AND id = $2`,
    [accountId, id],
  );
  return row && toKey(row);
}

/** How many of the account's keys of `environment` are not revoked. */
export async function countUnrevokedEngineAccountKeys(
  db: Queryable,
  accountId: number,
  environment: Environment,
): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM engine_account_keys WHERE account_id = $1 AND environment = $2 AND revoked_at IS NULL',
    [accountId, environment],
  );
  return row?.n ?? 0;
}

/** Marks the key revoked (a revoked key keeps its first revocation). */
export async function markEngineAccountKeyRevoked(db: Queryable, id: number, now: Date): Promise<void> {
  await db.query('UPDATE engine_account_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1', [id, now]);
}

/** A helpdesk account as a move to an engine account of its own sees it (engine-account-moves.ts). */
export interface AccountToMove {
  id: number;
  name: string;
  status: 'active' | 'suspended';
  /** Its own engine account's id; undefined while the installation's serves it. */
  engineAccountId: string | undefined;
  /** When it was moved to its own; null when it had its own from the start. */
  movedAt: Date | null;
}

export async function findAccountToMove(db: Queryable, accountId: number): Promise<AccountToMove | undefined> {
  const [row] = await db.query<{
    id: number;
    name: string;
    status: 'active' | 'suspended';
    engine_account_id: string | null;
    moved_at: Date | null;
  }>(
    'SELECT a.id, a.name, a.status, e.engine_account_id, e.moved_at FROM accounts a LEFT JOIN engine_accounts e ON e.account_id = a.id WHERE a.id = $1',
    [accountId],
  );
  return (
    row && {
      id: row.id,
      name: row.name,
      status: row.status,
      engineAccountId: row.engine_account_id ?? undefined,
      movedAt: row.moved_at,
    }
  );
}

/** The helpdesk accounts the installation's engine account serves (made before accounts had their own), oldest first. */
export async function listAccountsWithoutEngineAccount(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    'SELECT a.id FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM engine_accounts e WHERE e.account_id = a.id) ORDER BY a.id',
  );
  return rows.map((row) => row.id);
}

/** The engine's ids of the conversations of the account's inboxes, oldest first (those never sent to the engine have none). */
export async function engineConversationsOfAccount(db: Queryable, accountId: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT c.engine_conversation_id AS id FROM conversations c JOIN inboxes i ON i.id = c.inbox_id
     WHERE i.account_id = $1 AND c.engine_conversation_id IS NOT NULL ORDER BY c.id`,
    [accountId],
  );
  return rows.map((row) => row.id);
}

/** The account's inboxes (whose engine account the BFF remembers per inbox). */
export async function inboxIdsOfAccount(db: Queryable, accountId: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM inboxes WHERE account_id = $1', [accountId]);
  return rows.map((row) => row.id);
}

/** Notes that the account's engine account came by a move at `now`, and where its feeds are to be read from; in the caller's transaction. */
export async function markEngineAccountMoved(
  db: Queryable,
  accountId: number,
  cursors: Record<Environment, string | null>,
  now: Date,
): Promise<void> {
  await db.query(
    'UPDATE engine_accounts SET moved_at = $2, feed_cursor_sandbox = $3, feed_cursor_live = $4 WHERE account_id = $1',
    [accountId, now, cursors.sandbox, cursors.live],
  );
}
