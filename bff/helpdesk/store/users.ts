import type { Queryable } from '../../../shared/server/index.ts';

export interface UserRecord {
  id: number;
  name: string;
  displayName: string | null;
  email: string;
  passwordHash: string | null;
  customAttributes: Record<string, unknown>;
  platformTokenId: number | null;
  createdAt: Date;
}

interface UserRow {
  id: number;
  name: string;
  display_name: string | null;
  email: string;
  password_hash: string | null;
  custom_attributes: Record<string, unknown>;
  platform_token_id: number | null;
  created_at: Date;
}

const toUser = (row: UserRow): UserRecord => ({
  id: row.id,
  name: row.name,
  displayName: row.display_name,
  email: row.email,
  passwordHash: row.password_hash,
  customAttributes: row.custom_attributes,
  platformTokenId: row.platform_token_id,
  createdAt: row.created_at,
});

export interface UserChanges {
  name?: string | undefined;
  displayName?: string | null | undefined;
  email?: string | undefined;
  passwordHash?: string | undefined;
  customAttributes?: Record<string, unknown> | undefined;
}

/** Makes a person; undefined when the e-mail address is taken. */
export async function insertUser(
  db: Queryable,
  fields: UserChanges & { name: string; email: string },
  platformTokenId: number | null,
  now: Date,
): Promise<UserRecord | undefined> {
  const [row] = await db.query<UserRow>(
    `INSERT INTO users (name, display_name, email, password_hash, custom_attributes, platform_token_id, created_at, updated_at)
     VALUES ($1, $2, lower($3), $4, COALESCE($5::jsonb, '{}'), $6, $7, $7) ON CONFLICT (email) DO NOTHING RETURNING *`,
    [
      fields.name,
      fields.displayName ?? null,
      fields.email,
      fields.passwordHash ?? null,
      fields.customAttributes ? JSON.stringify(fields.customAttributes) : null,
      platformTokenId,
      now,
    ],
  );
  return row && toUser(row);
}

export async function findUser(db: Queryable, id: number): Promise<UserRecord | undefined> {
  const [row] = await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
  return row && toUser(row);
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRecord | undefined> {
  const [row] = await db.query<UserRow>('SELECT * FROM users WHERE email = lower($1)', [email]);
  return row && toUser(row);
}

/** Changes a person; 'taken' when the new e-mail address belongs to someone else. */
export async function updateUser(
  db: Queryable,
  id: number,
  changes: UserChanges,
  now: Date,
): Promise<UserRecord | undefined | 'taken'> {
  if (changes.email !== undefined) {
    const [other] = await db.query('SELECT 1 FROM users WHERE email = lower($1) AND id <> $2', [changes.email, id]);
    if (other) return 'taken';
  }
  const [row] = await db.query<UserRow>(
    `UPDATE users SET name = COALESCE($2, name), display_name = CASE WHEN $3::boolean THEN $4 ELSE display_name END, email = COALESCE(lower($5), email),
       password_hash = COALESCE($6, password_hash), custom_attributes = COALESCE($7::jsonb, custom_attributes), updated_at = $8
     WHERE id = $1 RETURNING *`,
    [
      id,
      changes.name ?? null,
      changes.displayName !== undefined,
      changes.displayName ?? null,
      changes.email ?? null,
      changes.passwordHash ?? null,
      changes.customAttributes ? JSON.stringify(changes.customAttributes) : null,
      now,
    ],
  );
  return row && toUser(row);
}

export async function deleteUser(db: Queryable, id: number): Promise<boolean> {
  return (await db.query('DELETE FROM users WHERE id = $1 RETURNING id', [id])).length > 0;
}
