import type { ReportKind } from '../../shared/index.ts';
import { interviewRows } from './report-interview-rows.ts';
import { monitorRows } from './report-monitor-rows.ts';
import type { Gather } from './report-table.ts';

const iso = (value: Date | null) => value?.toISOString() ?? null;
const whole = (value: number | null) => (value === null ? null : Math.round(value));

/**
 * One row per conversation opened in the period: when, its state, whether the AI answered, whether
 * and when it was handed to people and how long the customer waited for a person, its first
 * answer's time (as in the summary: the first reply after the customer's first message), how it
 * closed, its quality score and survey rating.
 */
const conversations: Gather = async (db, owner, from, to, limit) => {
  const rows = await db.query<{
    id: string;
    created_at: Date;
    state: string;
    closed_at: Date | null;
    resolved: boolean | null;
    handover_count: number;
    ai_answered: boolean;
    customer_messages: number;
    first_answer_ms: number | null;
    handed_over_at: Date | null;
    handover_wait_ms: number | null;
    quality_score: number | null;
    csat_rating: number | null;
  }>(
    `WITH opened AS (
       SELECT id, created_at, state, closed_at, resolved, handover_count, quality FROM conversations
       WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
       ORDER BY created_at, id LIMIT $5
     ), handovers AS (
       SELECT conversation_id, min(created_at) AS at FROM events
       WHERE account_id = $1 AND environment = $2 AND type = 'conversation.handover' AND created_at >= $3
         AND conversation_id IN (SELECT id FROM opened)
       GROUP BY conversation_id
     )
     SELECT o.id, o.created_at, o.state, o.closed_at, o.resolved, o.handover_count,
            EXISTS (SELECT 1 FROM turns t WHERE t.conversation_id = o.id AND t.role = 'ai' AND t.answered IS TRUE) AS ai_answered,
            (SELECT count(*) FROM turns t WHERE t.conversation_id = o.id AND t.role = 'customer')::int AS customer_messages,
            (extract(epoch FROM (reply.created_at - asked.created_at)) * 1000)::float8 AS first_answer_ms,
            h.at AS handed_over_at,
            (extract(epoch FROM (person.created_at - h.at)) * 1000)::float8 AS handover_wait_ms,
            (o.quality ->> 'score')::int AS quality_score,
            s.rating AS csat_rating
     FROM opened o
     LEFT JOIN LATERAL (SELECT position, created_at FROM turns WHERE conversation_id = o.id AND role = 'customer' ORDER BY position LIMIT 1) asked ON true
     LEFT JOIN LATERAL (SELECT created_at FROM turns WHERE conversation_id = o.id AND role IN ('ai', 'human') AND position > asked.position ORDER BY position LIMIT 1) reply ON true
     LEFT JOIN handovers h ON h.conversation_id = o.id
     LEFT JOIN LATERAL (SELECT created_at FROM turns WHERE conversation_id = o.id AND role = 'human' AND created_at >= h.at ORDER BY position LIMIT 1) person ON true
     LEFT JOIN survey_responses s ON s.conversation_id = o.id
     ORDER BY o.created_at, o.id`,
    [owner.accountId, owner.environment, from, to, limit],
  );
  return {
    columns: CONVERSATION_COLUMNS,
    rows: rows.map((row) => ({
      conversation_id: row.id,
      opened_at: iso(row.created_at),
      state: row.state,
      ai_answered: row.ai_answered,
      customer_messages: row.customer_messages,
      first_answer_ms: whole(row.first_answer_ms),
      handed_over: row.handover_count > 0,
      handovers: row.handover_count,
      handed_over_at: iso(row.handed_over_at),
      handover_wait_ms: whole(row.handover_wait_ms),
      closed_at: iso(row.closed_at),
      resolved: row.resolved,
      quality_score: row.quality_score,
      csat_rating: row.csat_rating,
    })),
  };
};

const CONVERSATION_COLUMNS = [
  'conversation_id',
  'opened_at',
  'state',
  'ai_answered',
  'customer_messages',
  'first_answer_ms',
  'handed_over',
  'handovers',
  'handed_over_at',
  'handover_wait_ms',
  'closed_at',
  'resolved',
  'quality_score',
  'csat_rating',
] as const;

/** The quality score of each conversation closed in the period, with the reasons behind it. */
const quality: Gather = async (db, owner, from, to, limit) => {
  const rows = await db.query<{ id: string; closed_at: Date; resolved: boolean | null; quality: QualityJson }>(
    `SELECT id, closed_at, resolved, quality FROM conversations
     WHERE account_id = $1 AND environment = $2 AND closed_at >= $3 AND closed_at < $4 AND quality IS NOT NULL
     ORDER BY closed_at, id LIMIT $5`,
    [owner.accountId, owner.environment, from, to, limit],
  );
  return {
    columns: ['conversation_id', 'closed_at', 'resolved', 'score', 'reasons'],
    rows: rows.map((row) => ({
      conversation_id: row.id,
      closed_at: iso(row.closed_at),
      resolved: row.resolved,
      score: row.quality.score,
      reasons: row.quality.reasons
        .map(({ code, effect, description }) => `${code} (${effect}): ${description}`)
        .join('; '),
    })),
  };
};

interface QualityJson {
  score: number;
  reasons: { code: string; effect: number; description: string }[];
}

/** Survey answers first given in the period, with their latest rating and comment. */
const csat: Gather = async (db, owner, from, to, limit) => {
  const rows = await db.query<{
    conversation_id: string;
    rating: number;
    comment: string | null;
    created_at: Date;
    updated_at: Date;
  }>(
    `SELECT conversation_id, rating, comment, created_at, updated_at FROM survey_responses
     WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     ORDER BY created_at, conversation_id LIMIT $5`,
    [owner.accountId, owner.environment, from, to, limit],
  );
  return {
    columns: ['conversation_id', 'rating', 'comment', 'answered_at', 'changed_at'],
    rows: rows.map((row) => ({
      conversation_id: row.conversation_id,
      rating: row.rating,
      comment: row.comment,
      answered_at: iso(row.created_at),
      changed_at: iso(row.updated_at),
    })),
  };
};

/** What each kind of report gathers. */
export const REPORT_GATHERERS: Record<ReportKind, Gather> = {
  conversations,
  quality,
  csat,
  monitors: monitorRows,
  interviews: interviewRows,
};
