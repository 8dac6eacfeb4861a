import { randomToken } from '../../../shared/index.ts';
import type { Queryable, SecretBox } from '../../../shared/server/index.ts';

export interface AgentBotRecord {
  id: number;
  /** Null for a bot of the installation (made with the Platform API). */
  accountId: number | null;
  name: string;
  description: string;
  outgoingUrl: string | null;
  platformTokenId: number | null;
}

interface AgentBotRow {
  id: number;
  account_id: number | null;
  name: string;
  description: string;
  outgoing_url: string | null;
  platform_token_id: number | null;
}

const toBot = (row: AgentBotRow): AgentBotRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  description: row.description,
  outgoingUrl: row.outgoing_url,
  platformTokenId: row.platform_token_id,
});

export interface AgentBotChanges {
  name?: string | undefined;
  description?: string | undefined;
  outgoingUrl?: string | null | undefined;
}

/** Makes a bot, with the secret its webhook deliveries are signed with (given back this once). */
export async function insertAgentBot(
  db: Queryable,
  owner: { accountId: number | null; platformTokenId: number | null },
  fields: AgentBotChanges & { name: string },
  now: Date,
  box: SecretBox,
): Promise<AgentBotRecord & { webhookSecret: string }> {
  const webhookSecret = `whsec_${randomToken(32)}`;
  const [row] = await db.query<AgentBotRow>(
    `INSERT INTO agent_bots (account_id, name, description, outgoing_url, platform_token_id, webhook_secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING *`,
    [
      owner.accountId,
      fields.name,
      fields.description ?? '',
      fields.outgoingUrl ?? null,
      owner.platformTokenId,
      box.seal(webhookSecret),
      now,
    ],
  );
  return { ...toBot(row!), webhookSecret };
}

export async function findAgentBot(db: Queryable, id: number): Promise<AgentBotRecord | undefined> {
  const [row] = await db.query<AgentBotRow>('SELECT * FROM agent_bots WHERE id = $1', [id]);
  return row && toBot(row);
}

/** Bots of one account, or (with `platformTokenId`) the installation's bots that token made. */
export async function listAgentBots(
  db: Queryable,
  where: { accountId: number } | { platformTokenId: number },
): Promise<AgentBotRecord[]> {
  const rows =
    'accountId' in where
      ? await db.query<AgentBotRow>('SELECT * FROM agent_bots WHERE account_id = $1 ORDER BY id', [where.accountId])
      : await db.query<AgentBotRow>(
          'SELECT * FROM agent_bots WHERE account_id IS NULL AND platform_token_id = $1 ORDER BY id',
          [where.platformTokenId],
        );
  return rows.map(toBot);
}

export async function updateAgentBot(
  db: Queryable,
  id: number,
  changes: AgentBotChanges,
  now: Date,
): Promise<AgentBotRecord | undefined> {
  const [row] = await db.query<AgentBotRow>(
    `UPDATE agent_bots SET name = COALESCE($2, name), description = COALESCE($3, description),
       outgoing_url = CASE WHEN $4::boolean THEN $5 ELSE outgoing_url END, updated_at = $6 WHERE id = $1 RETURNING *`,
    [
      id,
      changes.name ?? null,
      changes.description ?? null,
      changes.outgoingUrl !== undefined,
      changes.outgoingUrl ?? null,
      now,
    ],
  );
  return row && toBot(row);
}

export async function deleteAgentBot(db: Queryable, id: number): Promise<boolean> {
  return (await db.query('DELETE FROM agent_bots WHERE id = $1 RETURNING id', [id])).length > 0;
}
