import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

/** The brain an account's agent chose ('retrieval' or 'llm'), or undefined for the engine's default. */
export async function accountBrain(db: Queryable, accountId: string): Promise<'retrieval' | 'llm' | undefined> {
  const [row] = await db.query<{ brain: 'retrieval' | 'llm' | null }>('SELECT brain FROM accounts WHERE id = $1', [
    accountId,
  ]);
  return row?.brain ?? undefined;
}

/** The last turns of a conversation that a model should see (the customer's, the AI's and people's), oldest first. */
export async function recentTurns(
  db: Queryable,
  conversationId: string,
  limit: number,
): Promise<{ role: 'customer' | 'ai' | 'human'; text: string }[]> {
  const rows = await db.query<{ role: 'customer' | 'ai' | 'human'; text: string }>(
    "SELECT role, text FROM turns WHERE conversation_id = $1 AND role IN ('customer', 'ai', 'human') ORDER BY position DESC LIMIT $2",
    [conversationId, limit],
  );
  return rows.reverse();
}

/** Adds a model call's tokens to the account's month (UTC). */
export async function addLlmUsage(
  db: Queryable,
  caller: Pick<Caller, 'accountId' | 'environment'>,
  usage: { promptTokens: number; completionTokens: number },
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO llm_usage (account_id, environment, month, prompt_tokens, completion_tokens, requests) VALUES ($1, $2, $3, $4, $5, 1)
     ON CONFLICT (account_id, environment, month) DO UPDATE SET prompt_tokens = llm_usage.prompt_tokens + EXCLUDED.prompt_tokens,
       completion_tokens = llm_usage.completion_tokens + EXCLUDED.completion_tokens, requests = llm_usage.requests + 1`,
    [caller.accountId, caller.environment, at.toISOString().slice(0, 7), usage.promptTokens, usage.completionTokens],
  );
}
