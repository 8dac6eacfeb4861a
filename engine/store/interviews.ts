import { newId, ParleyError } from '../../shared/index.ts';
import type {
  CreateInterviewRequest,
  Interview,
  InterviewList,
  InterviewQuestion,
  UpdateInterviewRequest,
} from '../../shared/schemas/interviews.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

/**
 * Research interviews of an account and environment: a sandbox key never sees a live one, as with
 * conversations. A change to an interview reaches the sessions opened after it; a running session
 * keeps the questions it opened with (interview-sessions.ts).
 */

type Owner = Pick<Caller, 'accountId' | 'environment'>;

/** The most interviews an account holds in one environment. */
export const INTERVIEWS_MAX = 100;

const COLUMNS = 'id, title, intro, questions, closing, created_at, updated_at';

interface InterviewRow {
  id: string;
  title: string;
  intro: string;
  questions: InterviewQuestion[];
  closing: string;
  created_at: Date;
  updated_at: Date;
}

const toInterview = (row: InterviewRow): Interview => ({
  id: row.id,
  title: row.title,
  intro: row.intro,
  questions: row.questions,
  closing: row.closing,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const notFound = (id: string) => new ParleyError('not_found', `No interview ${id} for this key.`);

/** Adds an interview and gives it; over the cap, 422 and nothing is added. */
export async function insertInterview(
  db: Queryable,
  owner: Owner,
  interview: CreateInterviewRequest,
  now: Date,
): Promise<Interview> {
  const [{ count } = { count: 0 }] = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM interviews WHERE account_id = $1 AND environment = $2',
    [owner.accountId, owner.environment],
  );
  if (count >= INTERVIEWS_MAX)
    throw new ParleyError('unprocessable', `An account holds at most ${INTERVIEWS_MAX} interviews; delete one first.`);
  const [row] = await db.query<InterviewRow>(
    `INSERT INTO interviews (id, account_id, environment, title, intro, questions, closing, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $8) RETURNING ${COLUMNS}`,
    [
      newId('interview'),
      owner.accountId,
      owner.environment,
      interview.title,
      interview.intro,
      JSON.stringify(interview.questions),
      interview.closing,
      now,
    ],
  );
  return toInterview(row!);
}

/** The owner's interview; 404 for anyone else's. */
export async function findInterview(db: Queryable, owner: Owner, id: string): Promise<Interview> {
  const [row] = await db.query<InterviewRow>(
    `SELECT ${COLUMNS} FROM interviews WHERE id = $1 AND account_id = $2 AND environment = $3`,
    [id, owner.accountId, owner.environment],
  );
  if (!row) throw notFound(id);
  return toInterview(row);
}

/** A page of the owner's interviews, in the order they were made, after the interview `after`. */
export async function pageInterviews(
  db: Queryable,
  owner: Owner,
  { after, limit }: { after?: string | undefined; limit: number },
): Promise<InterviewList> {
  const params: unknown[] = [owner.accountId, owner.environment, limit + 1];
  let where = 'account_id = $1 AND environment = $2';
  if (after) {
    const [cursor] = await db.query<{ position: string }>(
      'SELECT position FROM interviews WHERE id = $1 AND account_id = $2 AND environment = $3',
      [after, owner.accountId, owner.environment],
    );
    if (!cursor)
      throw new ParleyError(
        'invalid_request',
        `The cursor ${after} is not an interview of this key (was it deleted?); read again from the start.`,
      );
    where += ` AND position > $${params.push(cursor.position)}`;
  }
  // One more than the page: whether there is more is known without another question.
  const rows = await db.query<InterviewRow>(
    `SELECT ${COLUMNS} FROM interviews WHERE ${where} ORDER BY position LIMIT $3`,
    params,
  );
  const interviews = rows.slice(0, limit).map(toInterview);
  return { interviews, next: interviews.at(-1)?.id ?? after ?? null, has_more: rows.length > limit };
}

/** Changes what is given of an interview; the sessions already running keep what they opened with. */
export async function updateInterview(
  db: Queryable,
  owner: Owner,
  id: string,
  change: UpdateInterviewRequest,
  now: Date,
): Promise<Interview> {
  const [row] = await db.query<InterviewRow>(
    `UPDATE interviews SET title = COALESCE($4, title), intro = COALESCE($5, intro),
       questions = COALESCE($6::jsonb, questions), closing = COALESCE($7, closing), updated_at = $8
     WHERE id = $1 AND account_id = $2 AND environment = $3 RETURNING ${COLUMNS}`,
    [
      id,
      owner.accountId,
      owner.environment,
      change.title ?? null,
      change.intro ?? null,
      change.questions ? JSON.stringify(change.questions) : null,
      change.closing ?? null,
      now,
    ],
  );
  if (!row) throw notFound(id);
  return toInterview(row);
}

/**
 * Deletes an interview with its sessions and their answers (ON DELETE CASCADE, migration 016). The
 * conversations stay; one in the middle of the interview goes on with the AI.
 */
export async function deleteInterview(db: Queryable, owner: Owner, id: string): Promise<void> {
  const rows = await db.query(
    'DELETE FROM interviews WHERE id = $1 AND account_id = $2 AND environment = $3 RETURNING id',
    [id, owner.accountId, owner.environment],
  );
  if (rows.length === 0) throw notFound(id);
}
