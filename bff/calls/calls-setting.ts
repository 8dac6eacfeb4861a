import type { Queryable } from '../../shared/server/index.ts';

/**
 * Whether an inbox offers calls with its people (issue 30), kept in its own column of the inbox
 * (migration 039), set through the Application API's inbox update (`calls_enabled`).
 */
export async function readCallsEnabled(db: Queryable, inboxId: string): Promise<boolean> {
  const [row] = await db.query<{ calls_enabled: boolean }>('SELECT calls_enabled FROM inboxes WHERE id = $1', [
    inboxId,
  ]);
  return row?.calls_enabled ?? false;
}

export async function writeCallsEnabled(db: Queryable, inboxId: string, enabled: boolean): Promise<void> {
  await db.query('UPDATE inboxes SET calls_enabled = $2 WHERE id = $1', [inboxId, enabled]);
}
