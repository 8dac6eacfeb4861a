import type { Queryable } from '../shared/server/index.ts';

/**
 * What an account move (account-moves.ts) does with each table that names an account or a
 * conversation. `$1` is the account moved from, `$2` the one moved to, `$3` the conversations
 * moved. A table a later migration adds that names an account or a conversation needs its line
 * here (engine/account-moves.test.ts reads every table and fails until it has one).
 */

/** A copy's id: the original's kind (prefix) and a digest of the new account and the original, so every try of a move makes the same id. */
const copyId = (column: string): string => `split_part(${column}, '_', 1) || '_' || md5($2 || ':' || ${column})`;

/**
 * What the shop set up, copied to the new account on every try (what it has already stays as it
 * is): its knowledge, actions and monitors in both environments, its sandbox fixtures, its agent
 * profile and its interviews. Every column is copied, the account and the ids excepted (a copied
 * monitor keeps when it began, so it reads what its original would have).
 */
export const COPIED: readonly { table: string; columns?: Record<string, string> }[] = [
  { table: 'knowledge_documents', columns: { id: copyId('id'), promoted_from: copyId('promoted_from') } },
  { table: 'knowledge_versions' },
  { table: 'actions' },
  { table: 'sandbox_fixtures' },
  { table: 'agent_settings' },
  { table: 'interviews', columns: { id: copyId('id') } },
  { table: 'monitors', columns: { id: copyId('id') } },
];

/**
 * What goes with each moved conversation (the conversations and their events are moved by
 * account-moves.ts itself). Turns, action requests, voice sessions, interview answers and how far
 * the monitors read (monitor_cursors) name no account: they go with their conversation, so a
 * message a monitor read is not read again by its copy. What the old account's monitors found and
 * still have to check in them goes to their copies, so each message is still found at most once. A
 * check whose model call was under way no longer matches its claim (removeCheck): that answer is
 * dropped and the copy's check is asked again at once (its lease is cleared).
 */
export const MOVED: readonly { table: string; statement: string }[] = [
  { table: 'media', statement: 'UPDATE media SET account_id = $2 WHERE account_id = $1 AND conversation_id = ANY($3)' },
  {
    table: 'survey_responses',
    statement: 'UPDATE survey_responses SET account_id = $2 WHERE account_id = $1 AND conversation_id = ANY($3)',
  },
  {
    table: 'answer_feedback',
    statement: 'UPDATE answer_feedback SET account_id = $2 WHERE account_id = $1 AND conversation_id = ANY($3)',
  },
  { table: 'calls', statement: 'UPDATE calls SET account_id = $2 WHERE account_id = $1 AND conversation_id = ANY($3)' },
  {
    table: 'interview_sessions',
    statement: `UPDATE interview_sessions SET account_id = $2, interview_id = ${copyId('interview_id')} WHERE account_id = $1 AND conversation_id = ANY($3)`,
  },
  {
    table: 'monitor_checks',
    statement: `UPDATE monitor_checks SET account_id = $2, monitor_id = ${copyId('monitor_id')}, lease_until = NULL WHERE account_id = $1 AND conversation_id = ANY($3)`,
  },
  {
    table: 'monitor_findings',
    statement: `UPDATE monitor_findings SET account_id = $2, monitor_id = ${copyId('monitor_id')} WHERE account_id = $1 AND conversation_id = ANY($3)`,
  },
  {
    // The findings' events, before account-moves.ts moves them to the new feed: they name the copy.
    table: 'events',
    statement: `UPDATE events SET data = jsonb_set(data, '{monitor_id}', to_jsonb(${copyId("(data->>'monitor_id')")}))
      WHERE account_id = $1 AND type = 'monitor.finding' AND conversation_id = ANY($3) AND data->>'monitor_id' IS NOT NULL`,
  },
];

/** Tables that stay with the account moved from, and why. */
export const LEFT: Readonly<Record<string, string>> = {
  accounts: 'the new account is made; its limits are copied',
  conversations: 'moved by account-moves.ts',
  events: 'moved by account-moves.ts, into the new feed',
  api_keys: 'the new account gets keys of its own',
  feeds: 'the new account has its own',
  webhook_endpoints: "the operator registers the new account's own",
  llm_usage: 'what was used is counted where it was used',
  reports: 'made for the account moved from',
  knowledge_section_vectors: "made again for the copies when they are first asked (a section's id names its document)",
  idempotency_keys: 'they belong to the keys of the account moved from',
  turns: 'go with their conversation',
  action_requests: 'go with their conversation',
  voice_sessions: 'go with their conversation',
  interview_answers: 'go with their interview session',
  monitor_cursors: 'go with their conversation',
};

/** Every table the move names, for the test that each table naming an account or a conversation is among them. */
export const MOVE_TABLES: readonly string[] = [
  ...COPIED.map((rule) => rule.table),
  ...MOVED.map((rule) => rule.table),
  ...Object.keys(LEFT),
];

/** Copies the account's rows of `table` to the new account, every column as it is but the account and those given; rows the new account has stay. */
export async function copyRows(tx: Queryable, rule: (typeof COPIED)[number], from: string, to: string): Promise<void> {
  const columns = (
    await tx.query<{ name: string }>(
      'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position',
      [rule.table],
    )
  ).map((row) => row.name);
  if (columns.length === 0) return;
  const values = columns.map((column) => (column === 'account_id' ? '$2' : (rule.columns?.[column] ?? column)));
  await tx.query(
    `INSERT INTO ${rule.table} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM ${rule.table} WHERE account_id = $1 ON CONFLICT DO NOTHING`,
    [from, to],
  );
}
