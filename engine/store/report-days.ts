import type { ReportDay } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

type Owner = Pick<Caller, 'accountId' | 'environment'>;

const DAY_MS = 24 * 3600_000;
const UTC_DAY = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

interface ConversationDayRow {
  day: string;
  opened: number;
  answered_by_ai: number;
  handed_over: number;
  resolved: number;
  first_p50: number | null;
  first_p95: number | null;
  wait_p50: number | null;
  wait_p95: number | null;
}

/**
 * Conversations by the UTC day they were opened: what became of them (as in the summary), their
 * first answer's time and, for those handed to people, how long the customer waited from the first
 * handover to a person's first answer.
 */
async function conversationDays(db: Queryable, owner: Owner, from: Date, to: Date): Promise<ConversationDayRow[]> {
  return db.query<ConversationDayRow>(
    `WITH opened AS (
       SELECT id, created_at, handover_count, resolved FROM conversations
       WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     ), handovers AS (
       SELECT conversation_id, min(created_at) AS at FROM events
       WHERE account_id = $1 AND environment = $2 AND type = 'conversation.handover' AND created_at >= $3
       GROUP BY conversation_id
     ), timed AS (
       SELECT o.*, ${UTC_DAY('o.created_at')} AS day,
              extract(epoch FROM (reply.created_at - asked.created_at)) * 1000 AS first_ms,
              extract(epoch FROM (person.created_at - h.at)) * 1000 AS wait_ms
       FROM opened o
       LEFT JOIN LATERAL (SELECT position, created_at FROM turns WHERE conversation_id = o.id AND role = 'customer' ORDER BY position LIMIT 1) asked ON true
       LEFT JOIN LATERAL (SELECT created_at FROM turns WHERE conversation_id = o.id AND role IN ('ai', 'human') AND position > asked.position ORDER BY position LIMIT 1) reply ON true
       LEFT JOIN handovers h ON h.conversation_id = o.id
       LEFT JOIN LATERAL (SELECT created_at FROM turns WHERE conversation_id = o.id AND role = 'human' AND created_at >= h.at ORDER BY position LIMIT 1) person ON true
     )
     SELECT day, count(*)::int AS opened,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM turns t WHERE t.conversation_id = timed.id AND t.role = 'ai' AND t.answered IS TRUE))::int AS answered_by_ai,
            count(*) FILTER (WHERE handover_count > 0)::int AS handed_over,
            count(*) FILTER (WHERE resolved IS TRUE)::int AS resolved,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY first_ms))::float8 AS first_p50,
            (percentile_cont(0.95) WITHIN GROUP (ORDER BY first_ms))::float8 AS first_p95,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY wait_ms))::float8 AS wait_p50,
            (percentile_cont(0.95) WITHIN GROUP (ORDER BY wait_ms))::float8 AS wait_p95
     FROM timed GROUP BY day`,
    [owner.accountId, owner.environment, from, to],
  );
}

/** Survey answers by the UTC day they were first given. */
async function csatDays(db: Queryable, owner: Owner, from: Date, to: Date) {
  return db.query<{ day: string; responses: number; average: number | null }>(
    `SELECT ${UTC_DAY('created_at')} AS day, count(*)::int AS responses, avg(rating)::float8 AS average
     FROM survey_responses WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     GROUP BY day`,
    [owner.accountId, owner.environment, from, to],
  );
}

const rounded = (value: number | null | undefined, places = 0) =>
  value === null || value === undefined ? null : Math.round(value * 10 ** places) / 10 ** places;

/**
 * Every UTC day of `[from, to)` (both 00:00 UTC), quiet days too, with the figures the console's
 * charts draw: conversations opened and what became of them, first-answer and handover-wait times
 * (p50, p95), and survey answers.
 */
export async function dailyReport(db: Queryable, owner: Owner, from: Date, to: Date): Promise<ReportDay[]> {
  const conversations = new Map((await conversationDays(db, owner, from, to)).map((row) => [row.day, row]));
  const surveys = new Map((await csatDays(db, owner, from, to)).map((row) => [row.day, row]));
  const days: ReportDay[] = [];
  for (let at = from.getTime(); at < to.getTime(); at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    const counts = conversations.get(day);
    const csat = surveys.get(day);
    days.push({
      day,
      opened: counts?.opened ?? 0,
      answered_by_ai: counts?.answered_by_ai ?? 0,
      handed_over: counts?.handed_over ?? 0,
      resolved: counts?.resolved ?? 0,
      first_answer_ms: { p50: rounded(counts?.first_p50), p95: rounded(counts?.first_p95) },
      handover_wait_ms: { p50: rounded(counts?.wait_p50), p95: rounded(counts?.wait_p95) },
      csat: { responses: csat?.responses ?? 0, average: rounded(csat?.average, 2) },
    });
  }
  return days;
}
