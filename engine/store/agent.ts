import type { UpdateAgentRequest } from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import { DEFAULT_AGENT, type AgentProfile, type AgentTone } from '../brain/agent-profile.ts';
import type { Caller } from './environment.ts';

type Owner = Pick<Caller, 'accountId' | 'environment'>;
type Brain = 'retrieval' | 'llm';

/** An environment's agent as kept (`agent_settings`, or the defaults when it has no row yet). */
export interface AgentRecord {
  profile: AgentProfile;
  /** The environment's own brain; null: the account's (`accounts.brain`), else the engine's default. */
  brain: Brain | null;
  /** The brain that decides: the environment's, else the account's; null: the engine's default. */
  chosenBrain: Brain | null;
  killSwitch: { since: Date; reason: string | null } | null;
  updatedAt: Date | null;
}

interface AgentRow {
  account_brain: Brain | null;
  name: string | null;
  greeting: Record<string, string> | null;
  tone: AgentTone | null;
  handover_after_failed_answers: number | null;
  handover_keywords: string[] | null;
  brain: Brain | null;
  kill_switch_since: Date | null;
  kill_switch_reason: string | null;
  updated_at: Date | null;
}

const toRecord = (row: AgentRow | undefined): AgentRecord => ({
  profile: {
    name: row?.name ?? DEFAULT_AGENT.name,
    tone: row?.tone ?? DEFAULT_AGENT.tone,
    greeting: row?.greeting ?? {},
    handover: {
      afterFailedAnswers: row?.handover_after_failed_answers ?? null,
      keywords: row?.handover_keywords ?? [],
    },
  },
  brain: row?.brain ?? null,
  chosenBrain: row?.brain ?? row?.account_brain ?? null,
  killSwitch: row?.kill_switch_since ? { since: row.kill_switch_since, reason: row.kill_switch_reason } : null,
  updatedAt: row?.updated_at ?? null,
});

const SELECT_AGENT = `SELECT a.brain AS account_brain, s.name, s.greeting, s.tone, s.handover_after_failed_answers, s.handover_keywords, s.brain,
         s.kill_switch_since, s.kill_switch_reason, s.updated_at
  FROM accounts a LEFT JOIN agent_settings s ON s.account_id = a.id AND s.environment = $2
  WHERE a.id = $1`;

/** The agent of the owner's environment: one statement, asked for each message (so a change, the kill switch above all, counts at once on every engine process). */
export async function readAgent(db: Queryable, owner: Owner): Promise<AgentRecord> {
  const [row] = await db.query<AgentRow>(SELECT_AGENT, [owner.accountId, owner.environment]);
  return toRecord(row);
}

/** Makes sure the environment has its row, so that it can be locked and changed. */
async function ensureRow(tx: Queryable, owner: Owner, now: Date): Promise<void> {
  await tx.query(
    'INSERT INTO agent_settings (account_id, environment, updated_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [owner.accountId, owner.environment, now],
  );
}

/** Applies a change (only the fields sent; greetings merged by language, null removing one; handover merged by field). */
export async function updateAgent(sql: Sql, owner: Owner, change: UpdateAgentRequest, now: Date): Promise<AgentRecord> {
  return sql.transaction(async (tx) => {
    await ensureRow(tx, owner, now);
    const [locked] = await tx.query<{ greeting: Record<string, string> }>(
      'SELECT greeting FROM agent_settings WHERE account_id = $1 AND environment = $2 FOR UPDATE',
      [owner.accountId, owner.environment],
    );
    const greeting = { ...locked!.greeting };
    for (const [tag, text] of Object.entries(change.greeting ?? {})) {
      if (text === null) delete greeting[tag.toLowerCase()];
      else greeting[tag.toLowerCase()] = text;
    }
    const sets: string[] = ['updated_at = $3', 'greeting = $4::jsonb'];
    const params: unknown[] = [owner.accountId, owner.environment, now, JSON.stringify(greeting)];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (change.name !== undefined) set('name', change.name);
    if (change.tone !== undefined) set('tone', change.tone);
    if (change.brain !== undefined) set('brain', change.brain);
    if (change.handover?.after_failed_answers !== undefined)
      set('handover_after_failed_answers', change.handover.after_failed_answers);
    // Each keyword once, as it was first written.
    if (change.handover?.keywords !== undefined) {
      const keywords = change.handover.keywords;
      set(
        'handover_keywords',
        keywords.filter(
          (keyword, index) => keywords.findIndex((other) => other.toLowerCase() === keyword.toLowerCase()) === index,
        ),
      );
    }
    await tx.query(`UPDATE agent_settings SET ${sets.join(', ')} WHERE account_id = $1 AND environment = $2`, params);
    return readAgent(tx, owner);
  });
}

/**
 * Switches the AI off (`on`, with the reason given) or on again (null). Switching off again while
 * it is off keeps when it began and takes the new reason, if one is given.
 */
export async function setKillSwitch(
  db: Queryable,
  owner: Owner,
  on: { reason: string | undefined } | null,
  now: Date,
): Promise<AgentRecord['killSwitch']> {
  const [row] = await db.query<{ kill_switch_since: Date | null; kill_switch_reason: string | null }>(
    `INSERT INTO agent_settings (account_id, environment, kill_switch_since, kill_switch_reason, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, environment) DO UPDATE SET
       kill_switch_since = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE COALESCE(agent_settings.kill_switch_since, $3) END,
       kill_switch_reason = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE COALESCE($4, agent_settings.kill_switch_reason) END,
       updated_at = $5
     RETURNING kill_switch_since, kill_switch_reason`,
    [owner.accountId, owner.environment, on ? now : null, on?.reason ?? null, now],
  );
  return row?.kill_switch_since ? { since: row.kill_switch_since, reason: row.kill_switch_reason } : null;
}

/** The reason of the handovers the kill switch makes (in `conversation.handover` events). */
export const KILL_SWITCH_REASON = 'kill_switch';

/** Whether the AI has said anything in the conversation yet (its greeting comes before its first words). */
export async function aiHasSpoken(db: Queryable, conversationId: string): Promise<boolean> {
  const rows = await db.query("SELECT 1 FROM turns WHERE conversation_id = $1 AND role = 'ai' LIMIT 1", [
    conversationId,
  ]);
  return rows.length > 0;
}
