import type { Queryable } from '../../../shared/server/index.ts';

/** A person's availability in an account (Chatwoot's); a person who never said is offline. */
export type Availability = 'online' | 'busy' | 'offline';

export async function setAvailability(
  db: Queryable,
  accountId: number,
  userId: number,
  availability: Availability,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO availabilities (account_id, user_id, availability, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, user_id) DO UPDATE SET availability = $3, updated_at = $4`,
    [accountId, userId, availability, now],
  );
}

/** Every person of the account with their availability, by name. */
export const accountAvailabilities = (db: Queryable, accountId: number) =>
  db.query<{ user_id: number; name: string; availability_status: Availability }>(
    `SELECT a.user_id, COALESCE(u.display_name, u.name) AS name, COALESCE(v.availability, 'offline') AS availability_status
     FROM account_users a JOIN users u ON u.id = a.user_id
       LEFT JOIN availabilities v ON v.account_id = a.account_id AND v.user_id = a.user_id
     WHERE a.account_id = $1 ORDER BY name, a.user_id`,
    [accountId],
  );

/**
 * The people who are online and answer an inbox: its members, and the administrators of its
 * account (who see every inbox), by id.
 */
export async function availableForInbox(db: Queryable, inboxId: string): Promise<number[]> {
  const rows = await db.query<{ user_id: number }>(
    `SELECT a.user_id FROM inboxes i JOIN account_users a ON a.account_id = i.account_id
       JOIN availabilities v ON v.account_id = a.account_id AND v.user_id = a.user_id AND v.availability = 'online'
     WHERE i.id = $1 AND (a.role = 'administrator'
       OR EXISTS (SELECT 1 FROM inbox_members m WHERE m.inbox_id = i.id AND m.user_id = a.user_id))
     ORDER BY a.user_id`,
    [inboxId],
  );
  return rows.map((row) => row.user_id);
}

/** Per inbox of the account (by its number), how many people who answer it are online. */
export const availableCounts = (db: Queryable, accountId: number) =>
  db.query<{ inbox_id: number; available_count: number }>(
    `SELECT i.display_id::int AS inbox_id, count(a.user_id)::int AS available_count
     FROM inboxes i LEFT JOIN account_users a ON a.account_id = i.account_id
       AND EXISTS (SELECT 1 FROM availabilities v WHERE v.account_id = a.account_id AND v.user_id = a.user_id AND v.availability = 'online')
       AND (a.role = 'administrator' OR EXISTS (SELECT 1 FROM inbox_members m WHERE m.inbox_id = i.id AND m.user_id = a.user_id))
     WHERE i.account_id = $1 GROUP BY i.display_id ORDER BY i.display_id`,
    [accountId],
  );
