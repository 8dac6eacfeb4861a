import type { ReportSummary } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

type Owner = Pick<Caller, 'accountId' | 'environment'>;

/**
 * The support summary of an account and environment for `[from, to)`, each number counted by when
 * it happened: conversations by when they were opened (and what became of them: answered by the
 * AI, handed over, resolved, first answered, whenever that was), survey answers by when they were
 * first given, "did that help?" answers by when they were given. One statement, so one snapshot.
 *
 * "Answered by the AI" means at least one reply that answered (`turns.answered`: from the knowledge
 * base, or an action's result), not a "not sure", a greeting or a hand-over notice. The first
 * answer is the first reply, the AI's or a person's, after the customer's first message.
 */
export async function summaryReport(
  db: Queryable,
  owner: Owner,
  from: Date,
  to: Date,
): Promise<Omit<ReportSummary, 'from' | 'to'>> {
  const [row] = await db.query<{
    opened: number;
    answered_by_ai: number;
    handed_over: number;
    resolved: number;
    measured: number;
    p50: number | null;
    p95: number | null;
    csat_responses: number;
    csat_average: number | null;
    yes: number;
    no: number;
  }>(
    `WITH opened AS (
       SELECT id, handover_count, resolved FROM conversations
       WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     ), first_answers AS (
       SELECT extract(epoch FROM (reply.created_at - asked.created_at)) * 1000 AS ms
       FROM opened o
       JOIN LATERAL (SELECT position, created_at FROM turns WHERE conversation_id = o.id AND role = 'customer' ORDER BY position LIMIT 1) asked ON true
       JOIN LATERAL (SELECT created_at FROM turns WHERE conversation_id = o.id AND role IN ('ai', 'human') AND position > asked.position ORDER BY position LIMIT 1) reply ON true
     ), conversation_counts AS (
       SELECT count(*)::int AS opened,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM turns t WHERE t.conversation_id = o.id AND t.role = 'ai' AND t.answered IS TRUE))::int AS answered_by_ai,
              count(*) FILTER (WHERE o.handover_count > 0)::int AS handed_over,
              count(*) FILTER (WHERE o.resolved IS TRUE)::int AS resolved
       FROM opened o
     ), answer_times AS (
       SELECT count(*)::int AS measured,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY ms) AS p95
       FROM first_answers
     ), csat AS (
       SELECT count(*)::int AS csat_responses, avg(rating)::float8 AS csat_average FROM survey_responses
       WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     ), feedback AS (
       SELECT count(*) FILTER (WHERE helpful)::int AS yes, count(*) FILTER (WHERE NOT helpful)::int AS no FROM answer_feedback
       WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     )
     SELECT conversation_counts.*, answer_times.measured, answer_times.p50::float8 AS p50, answer_times.p95::float8 AS p95, csat.*, feedback.*
     FROM conversation_counts, answer_times, csat, feedback`,
    [owner.accountId, owner.environment, from, to],
  );
  const r = row!;
  const rounded = (value: number | null, places: number) =>
    value === null ? null : Math.round(value * 10 ** places) / 10 ** places;
  return {
    conversations: {
      opened: r.opened,
      answered_by_ai: r.answered_by_ai,
      handed_over: r.handed_over,
      resolved: r.resolved,
    },
    csat: { responses: r.csat_responses, average: rounded(r.csat_average, 2) },
    answer_feedback: {
      yes: r.yes,
      no: r.no,
      helpful_rate: r.yes + r.no > 0 ? rounded(r.yes / (r.yes + r.no), 4) : null,
    },
    first_answer_ms: { measured: r.measured, p50: rounded(r.p50, 0), p95: rounded(r.p95, 0) },
  };
}
