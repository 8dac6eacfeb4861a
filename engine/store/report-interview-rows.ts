import type { Queryable } from '../../shared/server/index.ts';
import type { Owner, ReportTable } from './report-table.ts';

/**
 * Interview responses (sessions that ended) in the period, by when they ended: one row per answer,
 * in the order the questions were asked, with the question as it was asked and whether the customer
 * skipped it; a response without an answer (stopped, or handed over, at once) is one row with no
 * question. Answers are the customer's words: a CSV opens those that look like formulas with an
 * apostrophe, and a customer's forget deletes the file (it names the conversation).
 */
export async function interviewRows(
  db: Queryable,
  owner: Owner,
  from: Date,
  to: Date,
  limit: number,
): Promise<ReportTable> {
  const rows = await db.query<{
    interview_id: string;
    interview_title: string;
    conversation_id: string;
    customer_ref: string;
    outcome: string;
    ended_at: Date;
    question_id: string | null;
    question: string | null;
    answer: string | null;
    skipped: boolean | null;
  }>(
    `SELECT s.interview_id, i.title AS interview_title, s.conversation_id, c.customer_ref, s.outcome, s.ended_at,
            a.question_id, s.questions -> a.question_index ->> 'text' AS question, a.answer, a.skipped
     FROM interview_sessions s
     JOIN interviews i ON i.id = s.interview_id
     JOIN conversations c ON c.id = s.conversation_id
     LEFT JOIN interview_answers a ON a.conversation_id = s.conversation_id
     WHERE s.account_id = $1 AND s.environment = $2 AND s.ended_at >= $3 AND s.ended_at < $4
     ORDER BY i.position, s.response_seq, a.question_index LIMIT $5`,
    [owner.accountId, owner.environment, from, to, limit],
  );
  return {
    columns: INTERVIEW_COLUMNS,
    rows: rows.map((row) => ({ ...row, ended_at: row.ended_at.toISOString() })),
  };
}

const INTERVIEW_COLUMNS = [
  'interview_id',
  'interview_title',
  'conversation_id',
  'customer_ref',
  'outcome',
  'ended_at',
  'question_id',
  'question',
  'answer',
  'skipped',
] as const;
