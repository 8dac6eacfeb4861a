import { ParleyError } from '../../../shared/index.ts';
import type { Queryable } from '../../../shared/server/index.ts';

export type Role = 'administrator' | 'agent';

export interface AccountRecord {
  id: number;
  name: string;
  locale: string;
  domain: string | null;
  supportEmail: string | null;
  status: 'active' | 'suspended';
  customAttributes: Record<string, unknown>;
  features: Record<string, boolean>;
  settings: Record<string, unknown>;
  platformTokenId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

interface AccountRow {
  id: number;
  name: string;
  locale: string;
  domain: string | null;
  support_email: string | null;
  status: 'active' | 'suspended';
  custom_attributes: Record<string, unknown>;
  features: Record<string, boolean>;
  settings: Record<string, unknown>;
  platform_token_id: number | null;
  created_at: Date;
  updated_at: Date;
}

const toAccount = (row: AccountRow): AccountRecord => ({
  id: row.id,
  name: row.name,
  locale: row.locale,
  domain: row.domain,
  supportEmail: row.support_email,
  status: row.status,
  customAttributes: row.custom_attributes,
  features: row.features,
  settings: row.settings,
  platformTokenId: row.platform_token_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** What may change on an account; a field left undefined stays as it is. */
export interface AccountChanges {
  name?: string | undefined;
  locale?: string | undefined;
  domain?: string | null | undefined;
  supportEmail?: string | null | undefined;
  status?: 'active' | 'suspended' | undefined;
  customAttributes?: Record<string, unknown> | undefined;
  features?: Record<string, boolean> | undefined;
  settings?: Record<string, unknown> | undefined;
}

const COLUMNS: [keyof AccountChanges, string][] = [
  ['name', 'name'],
  ['locale', 'locale'],
  ['domain', 'domain'],
  ['supportEmail', 'support_email'],
  ['status', 'status'],
  ['customAttributes', 'custom_attributes'],
  ['features', 'features'],
  ['settings', 'settings'],
];

const asParam = (value: unknown) => (value !== null && typeof value === 'object' ? JSON.stringify(value) : value);

export async function insertAccount(
  db: Queryable,
  fields: AccountChanges & { name: string },
  platformTokenId: number | null,
  now: Date,
): Promise<AccountRecord> {
  const [row] = await db.query<AccountRow>(
    `INSERT INTO accounts (name, locale, domain, support_email, status, custom_attributes, features, platform_token_id, created_at, updated_at)
     VALUES ($1, COALESCE($2, 'en'), $3, $4, COALESCE($5, 'active'), COALESCE($6::jsonb, '{}'), COALESCE($7::jsonb, '{"audit_logs": true}'), $8, $9, $9) RETURNING *`,
    [
      fields.name,
      fields.locale ?? null,
      fields.domain ?? null,
      fields.supportEmail ?? null,
      fields.status ?? null,
      asParam(fields.customAttributes ?? null),
      asParam(fields.features ?? null),
      platformTokenId,
      now,
    ],
  );
  return toAccount(row!);
}

export async function findAccount(db: Queryable, id: number): Promise<AccountRecord | undefined> {
  const [row] = await db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
  return row && toAccount(row);
}

export async function updateAccount(
  db: Queryable,
  id: number,
  changes: AccountChanges,
  now: Date,
): Promise<AccountRecord | undefined> {
  const sets = ['updated_at = $2'];
  const params: unknown[] = [id, now];
  for (const [key, column] of COLUMNS) {
    if (changes[key] === undefined) continue;
    params.push(asParam(changes[key]));
    sets.push(
      `${column} = $${params.length}${['customAttributes', 'features', 'settings'].includes(key) ? '::jsonb' : ''}`,
    );
  }
  const [row] = await db.query<AccountRow>(`UPDATE accounts SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, params);
  return row && toAccount(row);
}

/**
 * Deletes an account with everything in it: its inboxes with their keys, contacts, conversations,
 * messages and surveys, its people's places in it, its bots and its audit log.
 */
export async function deleteAccount(db: Queryable, id: number): Promise<boolean> {
  const inboxes = 'SELECT id FROM inboxes WHERE account_id = $1';
  const conversations = `SELECT id FROM conversations WHERE inbox_id IN (${inboxes})`;
  await db.query(`DELETE FROM surveys WHERE conversation_id IN (${conversations})`, [id]);
  await db.query(`DELETE FROM messages WHERE conversation_id IN (${conversations})`, [id]);
  await db.query(`DELETE FROM conversations WHERE inbox_id IN (${inboxes})`, [id]);
  await db.query(`DELETE FROM contacts WHERE inbox_id IN (${inboxes})`, [id]);
  await db.query(`DELETE FROM visitor_traits WHERE inbox_id IN (${inboxes})`, [id]);
  await db.query(`DELETE FROM site_keys WHERE inbox_id IN (${inboxes})`, [id]);
  await db.query('DELETE FROM inboxes WHERE account_id = $1', [id]);
  const deleted = await db.query('DELETE FROM accounts WHERE id = $1 RETURNING id', [id]);
  return deleted.length > 0;
}

/** The ids of the account's inboxes. */
export async function inboxIdsOf(db: Queryable, accountId: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM inboxes WHERE account_id = $1 ORDER BY id', [accountId]);
  return rows.map((row) => row.id);
}

/** Whether the account is suspended (its people, Client API, site keys and sessions are refused). */
export async function accountSuspended(db: Queryable, accountId: number): Promise<boolean> {
  const [row] = await db.query<{ status: string }>('SELECT status FROM accounts WHERE id = $1', [accountId]);
  return row?.status === 'suspended';
}

/** Whether the inbox's account is suspended (an inbox of no account never is). */
export async function inboxSuspended(db: Queryable, inboxId: string): Promise<boolean> {
  const [row] = await db.query<{ suspended: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM inboxes i JOIN accounts a ON a.id = i.account_id WHERE i.id = $1 AND a.status = 'suspended') AS suspended",
    [inboxId],
  );
  return row?.suspended ?? false;
}

/** The refusal of everything a suspended account's people and customers ask (SECURITY.md). */
export const accountSuspendedError = (): ParleyError =>
  new ParleyError(
    'account_suspended',
    'This account is suspended by the operator; nothing of it can be used until it is resumed.',
  );

export interface AccountUserRecord {
  accountId: number;
  userId: number;
  role: Role;
}

/** Adds a person to an account, or changes their role there. */
export async function upsertAccountUser(
  db: Queryable,
  accountId: number,
  userId: number,
  role: Role,
  now: Date,
): Promise<{ record: AccountUserRecord; before: Role | undefined }> {
  const [before] = await db.query<{ role: Role }>(
    'SELECT role FROM account_users WHERE account_id = $1 AND user_id = $2',
    [accountId, userId],
  );
  await db.query(
    'INSERT INTO account_users (account_id, user_id, role, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, user_id) DO UPDATE SET role = EXCLUDED.role',
    [accountId, userId, role, now],
  );
  return { record: { accountId, userId, role }, before: before?.role };
}

export async function listAccountUsers(db: Queryable, accountId: number): Promise<AccountUserRecord[]> {
  const rows = await db.query<{ account_id: number; user_id: number; role: Role }>(
    'SELECT account_id, user_id, role FROM account_users WHERE account_id = $1 ORDER BY user_id',
    [accountId],
  );
  return rows.map((row) => ({ accountId: row.account_id, userId: row.user_id, role: row.role }));
}

export async function deleteAccountUser(db: Queryable, accountId: number, userId: number): Promise<Role | undefined> {
  const [row] = await db.query<{ role: Role }>(
    'DELETE FROM account_users WHERE account_id = $1 AND user_id = $2 RETURNING role',
    [accountId, userId],
  );
  return row?.role;
}

/** A person's role in an account, if they belong to it. */
export async function roleIn(db: Queryable, accountId: number, userId: number): Promise<Role | undefined> {
  const [row] = await db.query<{ role: Role }>(
    'SELECT role FROM account_users WHERE account_id = $1 AND user_id = $2',
    [accountId, userId],
  );
  return row?.role;
}

/** The accounts a person belongs to, with their role in each. */
export async function accountsOf(db: Queryable, userId: number): Promise<{ id: number; name: string; role: Role }[]> {
  return db.query<{ id: number; name: string; role: Role }>(
    'SELECT a.id, a.name, au.role FROM account_users au JOIN accounts a ON a.id = au.account_id WHERE au.user_id = $1 ORDER BY a.id',
    [userId],
  );
}
