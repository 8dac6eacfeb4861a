import { ParleyError, type InterviewAnswer, type InterviewCompletedData } from '../../shared/index.ts';
import type { Interview, InterviewResponse, InterviewResponseList } from '../../shared/schemas/interviews.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';
import { findInterview } from './interviews.ts';

/**
 * Conversations in interview mode: where each is in its interview, the customer's answers, and the
 * responses (sessions that ended) of an interview, a page at a time. Every write here runs in a
 * move on the conversation, which holds its lock.
 */

type Owner = Pick<Caller, 'accountId' | 'environment'>;
export type InterviewOutcome = InterviewCompletedData['outcome'];

/** The most characters of an answer kept with the response (the transcript keeps all of the message). */
export const INTERVIEW_ANSWER_MAX = 2000;

/** A running session: the interview as it opened, the question being asked, and whether it was asked again. */
export interface InterviewSession {
  conversationId: string;
  interviewId: string;
  questions: Interview['questions'];
  closing: string;
  current: number;
  askedAgain: boolean;
}

interface SessionRow {
  conversation_id: string;
  interview_id: string;
  questions: Interview['questions'];
  closing: string;
  current_question: number;
  asked_again: boolean;
}

/** Opens a session of `interview` on a conversation just opened, at its first question. */
export async function insertInterviewSession(
  tx: Queryable,
  owner: Owner,
  conversationId: string,
  interview: Interview,
  now: Date,
): Promise<InterviewSession> {
  await tx.query(
    `INSERT INTO interview_sessions (conversation_id, interview_id, account_id, environment, questions, closing, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
    [
      conversationId,
      interview.id,
      owner.accountId,
      owner.environment,
      JSON.stringify(interview.questions),
      interview.closing,
      now,
    ],
  );
  const { id: interviewId, questions, closing } = interview;
  return { conversationId, interviewId, questions, closing, current: 0, askedAgain: false };
}

/** The conversation's session while it runs; undefined for a conversation in no interview, or one that ended. */
export async function findRunningSession(db: Queryable, conversationId: string): Promise<InterviewSession | undefined> {
  const [row] = await db.query<SessionRow>(
    `SELECT conversation_id, interview_id, questions, closing, current_question, asked_again
     FROM interview_sessions WHERE conversation_id = $1 AND outcome IS NULL`,
    [conversationId],
  );
  return (
    row && {
      conversationId: row.conversation_id,
      interviewId: row.interview_id,
      questions: row.questions,
      closing: row.closing,
      current: row.current_question,
      askedAgain: row.asked_again,
    }
  );
}

/** Keeps where the session is: the question now asked, and whether it was asked again. */
export async function moveSession(tx: Queryable, session: InterviewSession): Promise<void> {
  await tx.query('UPDATE interview_sessions SET current_question = $2, asked_again = $3 WHERE conversation_id = $1', [
    session.conversationId,
    session.current,
    session.askedAgain,
  ]);
}

/** Keeps the customer's answer to the question asked now (an empty one when skipped). */
export async function recordInterviewAnswer(
  tx: Queryable,
  session: InterviewSession,
  answer: { text: string; skipped: boolean },
  now: Date,
): Promise<void> {
  const question = session.questions[session.current]!;
  await tx.query(
    `INSERT INTO interview_answers (conversation_id, question_id, question_index, answer, skipped, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (conversation_id, question_id) DO UPDATE SET answer = EXCLUDED.answer, skipped = EXCLUDED.skipped`,
    [
      session.conversationId,
      question.id,
      session.current,
      answer.text.slice(0, INTERVIEW_ANSWER_MAX),
      answer.skipped,
      now,
    ],
  );
}

/** The answers of sessions, each's in the order of its questions. */
async function answersOf(db: Queryable, conversationIds: readonly string[]): Promise<Map<string, InterviewAnswer[]>> {
  const rows = await db.query<{ conversation_id: string; question_id: string; answer: string; skipped: boolean }>(
    `SELECT conversation_id, question_id, answer, skipped FROM interview_answers
     WHERE conversation_id = ANY($1::text[]) ORDER BY conversation_id, question_index`,
    [conversationIds],
  );
  const answers = new Map<string, InterviewAnswer[]>(conversationIds.map((id) => [id, []]));
  for (const row of rows)
    answers.get(row.conversation_id)!.push({ question_id: row.question_id, answer: row.answer, skipped: row.skipped });
  return answers;
}

/**
 * Ends a session and gives its answers. Its place among the interview's responses is the next of
 * the interview's count, taken with `UPDATE … RETURNING`: that locks the interview's row until the
 * commit, so sessions commit in that order and a reader paging responses never skips one.
 */
export async function endSession(
  tx: Queryable,
  session: InterviewSession,
  outcome: InterviewOutcome,
  now: Date,
): Promise<InterviewAnswer[]> {
  const [counted] = await tx.query<{ responses: number }>(
    'UPDATE interviews SET responses = responses + 1 WHERE id = $1 RETURNING responses',
    [session.interviewId],
  );
  await tx.query(
    'UPDATE interview_sessions SET outcome = $2, ended_at = $3, response_seq = $4 WHERE conversation_id = $1',
    [session.conversationId, outcome, now, counted?.responses ?? null],
  );
  return (await answersOf(tx, [session.conversationId])).get(session.conversationId)!;
}

interface ResponseRow {
  conversation_id: string;
  customer_ref: string;
  outcome: InterviewOutcome;
  created_at: Date;
  ended_at: Date;
}

/** A page of an interview's responses in the order they ended, after the response of the conversation `after`. */
export async function pageResponses(
  db: Queryable,
  owner: Owner,
  interviewId: string,
  { after, limit }: { after?: string | undefined; limit: number },
): Promise<InterviewResponseList> {
  await findInterview(db, owner, interviewId);
  const params: unknown[] = [interviewId, limit + 1];
  let where = 's.interview_id = $1 AND s.response_seq IS NOT NULL';
  if (after) {
    const [cursor] = await db.query<{ response_seq: number | null }>(
      'SELECT response_seq FROM interview_sessions WHERE conversation_id = $1 AND interview_id = $2',
      [after, interviewId],
    );
    if (cursor?.response_seq == null)
      throw new ParleyError(
        'invalid_request',
        `The cursor ${after} is not a response of interview ${interviewId}; read again from the start.`,
      );
    where += ` AND s.response_seq > $${params.push(cursor.response_seq)}`;
  }
  const rows = await db.query<ResponseRow>(
    `SELECT s.conversation_id, c.customer_ref, s.outcome, s.created_at, s.ended_at
     FROM interview_sessions s JOIN conversations c ON c.id = s.conversation_id
     WHERE ${where} ORDER BY s.response_seq LIMIT $2`,
    params,
  );
  const page = rows.slice(0, limit);
  const answers = await answersOf(
    db,
    page.map((row) => row.conversation_id),
  );
  const responses: InterviewResponse[] = page.map((row) => ({
    conversation_id: row.conversation_id,
    customer_ref: row.customer_ref,
    outcome: row.outcome,
    started_at: row.created_at.toISOString(),
    ended_at: row.ended_at.toISOString(),
    answers: answers.get(row.conversation_id)!,
  }));
  return { responses, next: responses.at(-1)?.conversation_id ?? after ?? null, has_more: rows.length > limit };
}
