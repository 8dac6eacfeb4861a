import type { Queryable, Sql } from '../shared/server/index.ts';

/**
 * What deleting an account erases, one statement per table, each table's rows before the rows they
 * point at. Unlike a customer's forget (customer-erasure.ts), nothing is kept for counting: the
 * account itself goes, so every row that names it, or names one of its conversations, keys or
 * endpoints, goes too. A table a later migration adds that names an account needs its line here
 * (engine/operator-routes.test.ts reads every table and fails until it has one); a table that is
 * not there (yet) is skipped, as the forget's rules do.
 */
const ACCOUNT_ERASURE: readonly { table: string; statement: string }[] = [
  // Attempts go with their deliveries (ON DELETE CASCADE), bytes with their media.
  {
    table: 'webhook_deliveries',
    statement:
      'DELETE FROM webhook_deliveries WHERE endpoint_id IN (SELECT id FROM webhook_endpoints WHERE account_id = $1)',
  },
  { table: 'webhook_endpoints', statement: 'DELETE FROM webhook_endpoints WHERE account_id = $1' },
  {
    table: 'idempotency_keys',
    statement: 'DELETE FROM idempotency_keys WHERE key_id IN (SELECT id FROM api_keys WHERE account_id = $1)',
  },
  { table: 'media', statement: 'DELETE FROM media WHERE account_id = $1' },
  { table: 'reports', statement: 'DELETE FROM reports WHERE account_id = $1' },
  { table: 'survey_responses', statement: 'DELETE FROM survey_responses WHERE account_id = $1' },
  // Interviews: the answers, then the sessions (before their conversations), then the interviews.
  {
    table: 'interview_answers',
    statement:
      'DELETE FROM interview_answers WHERE conversation_id IN (SELECT conversation_id FROM interview_sessions WHERE account_id = $1)',
  },
  { table: 'interview_sessions', statement: 'DELETE FROM interview_sessions WHERE account_id = $1' },
  { table: 'interviews', statement: 'DELETE FROM interviews WHERE account_id = $1' },
  // Monitors: their checks and findings first, then the cursors on the conversations, then the monitors.
  { table: 'monitor_checks', statement: 'DELETE FROM monitor_checks WHERE account_id = $1' },
  { table: 'monitor_findings', statement: 'DELETE FROM monitor_findings WHERE account_id = $1' },
  {
    table: 'monitor_cursors',
    statement:
      'DELETE FROM monitor_cursors WHERE conversation_id IN (SELECT id FROM conversations WHERE account_id = $1)',
  },
  { table: 'monitors', statement: 'DELETE FROM monitors WHERE account_id = $1' },
  {
    table: 'voice_sessions',
    statement:
      'DELETE FROM voice_sessions WHERE conversation_id IN (SELECT id FROM conversations WHERE account_id = $1)',
  },
  { table: 'calls', statement: 'DELETE FROM calls WHERE account_id = $1' },
  {
    table: 'action_requests',
    statement:
      'DELETE FROM action_requests WHERE conversation_id IN (SELECT id FROM conversations WHERE account_id = $1)',
  },
  {
    table: 'turns',
    statement: 'DELETE FROM turns WHERE conversation_id IN (SELECT id FROM conversations WHERE account_id = $1)',
  },
  { table: 'answer_feedback', statement: 'DELETE FROM answer_feedback WHERE account_id = $1' },
  { table: 'conversations', statement: 'DELETE FROM conversations WHERE account_id = $1' },
  { table: 'events', statement: 'DELETE FROM events WHERE account_id = $1' },
  { table: 'feeds', statement: 'DELETE FROM feeds WHERE account_id = $1' },
  { table: 'llm_usage', statement: 'DELETE FROM llm_usage WHERE account_id = $1' },
  { table: 'knowledge_section_vectors', statement: 'DELETE FROM knowledge_section_vectors WHERE account_id = $1' },
  { table: 'knowledge_documents', statement: 'DELETE FROM knowledge_documents WHERE account_id = $1' },
  { table: 'knowledge_versions', statement: 'DELETE FROM knowledge_versions WHERE account_id = $1' },
  { table: 'sandbox_fixtures', statement: 'DELETE FROM sandbox_fixtures WHERE account_id = $1' },
  { table: 'actions', statement: 'DELETE FROM actions WHERE account_id = $1' },
  { table: 'agent_settings', statement: 'DELETE FROM agent_settings WHERE account_id = $1' },
  { table: 'api_keys', statement: 'DELETE FROM api_keys WHERE account_id = $1' },
];

/** The tables account deletion empties of an account (for the test that every such table is one of them). */
export const ERASED_TABLES: readonly string[] = [...ACCOUNT_ERASURE.map((rule) => rule.table), 'accounts'];

/**
 * Deletes an account and everything it holds, in one transaction: its keys stop working at once
 * (they are gone), its conversations, turns, events, media, knowledge, actions, webhooks and
 * settings are erased. Gives false when there was no such account.
 */
export async function eraseAccount(sql: Sql, accountId: string): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const [found] = await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    if (!found) return false;
    for (const rule of ACCOUNT_ERASURE)
      if (await tableExists(tx, rule.table)) await tx.query(rule.statement, [accountId]);
    await tx.query('DELETE FROM accounts WHERE id = $1', [accountId]);
    return true;
  });
}

async function tableExists(db: Queryable, table: string): Promise<boolean> {
  const [row] = await db.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [table]);
  return Boolean(row?.found);
}
