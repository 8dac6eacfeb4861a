import type { Queryable } from '../../../shared/server/index.ts';

/** A team of an account (Chatwoot's), and whether one person is in it. */
export interface TeamRow {
  id: number;
  name: string;
  description: string;
  allow_auto_assign: boolean;
  account_id: number;
  is_member: boolean;
}

const COLUMNS = `t.id, t.name, t.description, t.allow_auto_assign, t.account_id,
  EXISTS (SELECT 1 FROM team_members m WHERE m.team_id = t.id AND m.user_id = $2::int) AS is_member`;

/** The account's teams by name; is_member for person `me` (0: nobody). */
export const listTeams = (db: Queryable, accountId: number, me: number) =>
  db.query<TeamRow>(`SELECT ${COLUMNS} FROM teams t WHERE t.account_id = $1 ORDER BY t.name`, [accountId, me]);

export async function findTeam(db: Queryable, accountId: number, id: number, me = 0): Promise<TeamRow | undefined> {
  const [row] = await db.query<TeamRow>(`SELECT ${COLUMNS} FROM teams t WHERE t.account_id = $1 AND t.id = $3`, [
    accountId,
    me,
    id,
  ]);
  return row;
}

export interface TeamFields {
  name?: string | undefined;
  description?: string | undefined;
  allow_auto_assign?: boolean | undefined;
}

/** A new team; undefined when the account has one of that name. */
export async function insertTeam(
  db: Queryable,
  accountId: number,
  fields: TeamFields & { name: string },
  now: Date,
): Promise<number | undefined> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO teams (account_id, name, description, allow_auto_assign, created_at, updated_at)
     VALUES ($1, $2, COALESCE($3, ''), COALESCE($4, true), $5, $5) ON CONFLICT DO NOTHING RETURNING id`,
    [accountId, fields.name, fields.description ?? null, fields.allow_auto_assign ?? null, now],
  );
  return row?.id;
}

/** Changes a team: 'taken' when another team has the name, false when there is no such team. */
export async function updateTeam(
  db: Queryable,
  accountId: number,
  id: number,
  fields: TeamFields,
  now: Date,
): Promise<boolean | 'taken'> {
  if (fields.name !== undefined) {
    const [other] = await db.query('SELECT 1 FROM teams WHERE account_id = $1 AND name = $2 AND id <> $3', [
      accountId,
      fields.name,
      id,
    ]);
    if (other) return 'taken';
  }
  const rows = await db.query(
    `UPDATE teams SET name = COALESCE($3, name), description = COALESCE($4, description),
       allow_auto_assign = COALESCE($5, allow_auto_assign), updated_at = $6 WHERE account_id = $1 AND id = $2 RETURNING id`,
    [accountId, id, fields.name ?? null, fields.description ?? null, fields.allow_auto_assign ?? null, now],
  );
  return rows.length > 0;
}

export async function deleteTeam(db: Queryable, accountId: number, id: number): Promise<boolean> {
  return (
    (await db.query('DELETE FROM teams WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])).length > 0
  );
}

/** The team's members who are still people of its account. */
export async function teamMemberIds(db: Queryable, teamId: number): Promise<number[]> {
  const rows = await db.query<{ user_id: number }>(
    `SELECT m.user_id FROM team_members m JOIN teams t ON t.id = m.team_id
       JOIN account_users a ON a.account_id = t.account_id AND a.user_id = m.user_id
     WHERE m.team_id = $1 ORDER BY m.user_id`,
    [teamId],
  );
  return rows.map((row) => row.user_id);
}

/** The team's members become exactly `userIds`. */
export async function setTeamMembers(db: Queryable, teamId: number, userIds: readonly number[]): Promise<void> {
  await db.query('DELETE FROM team_members WHERE team_id = $1 AND NOT (user_id = ANY($2::int[]))', [teamId, userIds]);
  await db.query('INSERT INTO team_members (team_id, user_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING', [
    teamId,
    userIds,
  ]);
}
