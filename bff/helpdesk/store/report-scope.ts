import type { Queryable } from '../../../shared/server/index.ts';

/**
 * Whose engine account an account's reports are read from: its own (`own`); the installation's
 * when it is the only account that engine account serves (`installation`), so that its figures
 * hold no other account's conversations; otherwise none (`shared`).
 */
export async function reportScopeOf(db: Queryable, accountId: number): Promise<'own' | 'installation' | 'shared'> {
  const [row] = await db.query<{ own: boolean; others: number }>(
    `SELECT EXISTS (SELECT 1 FROM engine_accounts WHERE account_id = $1) AS own,
            (SELECT count(*) FROM accounts a
             WHERE a.id <> $1 AND NOT EXISTS (SELECT 1 FROM engine_accounts e WHERE e.account_id = a.id))::int AS others`,
    [accountId],
  );
  if (row!.own) return 'own';
  return row!.others === 0 ? 'installation' : 'shared';
}
