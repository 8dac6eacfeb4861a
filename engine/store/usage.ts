import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

type Owner = Pick<Caller, 'accountId' | 'environment'>;

export interface MonthUsage {
  conversations: number;
  messages: { customer: number; ai: number; human: number };
  llm: { prompt_tokens: number; completion_tokens: number; total_tokens: number; requests: number };
  media: { uploads: number; bytes: number };
}

/**
 * What an account used in one environment during `[from, to)` (a UTC month): conversations opened,
 * turns taken (the customer's messages, the AI's replies, people's answers), the LLM's tokens (kept
 * per month in `llm_usage`, `month` as `YYYY-MM`) and uploads. One statement, so one snapshot.
 */
export async function monthUsage(
  db: Queryable,
  owner: Owner,
  month: string,
  from: Date,
  to: Date,
): Promise<MonthUsage> {
  const [row] = await db.query<{
    conversations: number;
    customer: number;
    ai: number;
    human: number;
    prompt_tokens: string | number;
    completion_tokens: string | number;
    requests: number;
    uploads: number;
    bytes: string | number;
  }>(
    `WITH opened AS (
       SELECT count(*)::int AS conversations FROM conversations WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     ), taken AS (
       SELECT count(*) FILTER (WHERE t.role = 'customer')::int AS customer,
              count(*) FILTER (WHERE t.role = 'ai')::int AS ai,
              count(*) FILTER (WHERE t.role = 'human')::int AS human
       FROM turns t JOIN conversations c ON c.id = t.conversation_id
       WHERE c.account_id = $1 AND c.environment = $2 AND t.created_at >= $3 AND t.created_at < $4
     ), tokens AS (
       SELECT coalesce(sum(prompt_tokens), 0)::bigint AS prompt_tokens, coalesce(sum(completion_tokens), 0)::bigint AS completion_tokens, coalesce(sum(requests), 0)::int AS requests
       FROM llm_usage WHERE account_id = $1 AND environment = $2 AND month = $5
     ), uploads AS (
       SELECT count(*)::int AS uploads, coalesce(sum(size), 0)::bigint AS bytes FROM media WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
     )
     SELECT * FROM opened, taken, tokens, uploads`,
    [owner.accountId, owner.environment, from, to, month],
  );
  const r = row!;
  // bigint sums come as text from pg; they stay far below 2^53.
  const prompt = Number(r.prompt_tokens);
  const completion = Number(r.completion_tokens);
  return {
    conversations: r.conversations,
    messages: { customer: r.customer, ai: r.ai, human: r.human },
    llm: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      requests: r.requests,
    },
    media: { uploads: r.uploads, bytes: Number(r.bytes) },
  };
}
