import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Queryable, SecretBox, Sql, TargetPolicy } from '../../shared/server/index.ts';
import type { RecordChange } from './audit-service.ts';
import { deskReceiverUrl } from './desk-webhooks.ts';
import type { AgentBotCreate, AgentBotUpdate } from '../../shared/schemas/helpdesk/index.ts';
import { agentBotShape } from './shapes.ts';
import {
  deleteAgentBot,
  findAgentBot,
  insertAgentBot,
  listAgentBots,
  updateAgentBot,
  type AgentBotRecord,
} from './store/agent-bots.ts';
import type { Actor } from './store/audit-log.ts';
import { issueAccessToken, type OnAccessChanged } from './store/credentials.ts';
import { syncBotEndpoint } from './store/desk-webhooks.ts';

export interface AgentBotServiceDeps {
  sql: Sql;
  now: () => Date;
  /** The operator's own private origins an agent bot's outgoing_url may name. */
  policy: TargetPolicy;
  secrets: SecretBox;
  record: RecordChange;
  onAccessChanged: OnAccessChanged;
}

/** An outgoing_url gets the helpdesk's webhooks, so it is checked like any webhook address. */
const botChanges = (body: z.infer<typeof AgentBotUpdate>, policy: TargetPolicy) => ({
  name: body.name,
  description: body.description,
  outgoingUrl: body.outgoing_url ? deskReceiverUrl(body.outgoing_url, policy, 'outgoing_url') : body.outgoing_url,
});

// An installation's bot is seen only by the platform token that made it, an account's only in that
// account; any other is "not found", as a missing one.
async function platformBot(db: Queryable, platformTokenId: number, id: number): Promise<AgentBotRecord> {
  const bot = await findAgentBot(db, id);
  if (!bot || bot.accountId !== null || bot.platformTokenId !== platformTokenId) {
    throw new ParleyError('not_found', `No agent bot ${id}.`);
  }
  return bot;
}

async function accountBot(db: Queryable, accountId: number, id: number): Promise<AgentBotRecord> {
  const bot = await findAgentBot(db, id);
  if (!bot || bot.accountId !== accountId) throw new ParleyError('not_found', `No agent bot ${id} in this account.`);
  return bot;
}

type BotOwner = { accountId: number; platformTokenId: null } | { accountId: null; platformTokenId: number };

/**
 * Agent bots: the installation's, which the operator keeps through the Platform API, and each
 * account's own, which its administrators keep through the Application API (audited).
 */
export function createAgentBotService({ sql, now, policy, secrets, record, onAccessChanged }: AgentBotServiceDeps) {
  async function insertBot(tx: Queryable, owner: BotOwner, body: z.infer<typeof AgentBotCreate>) {
    const bot = await insertAgentBot(tx, owner, { ...botChanges(body, policy), name: body.name }, now(), secrets);
    await syncBotEndpoint(tx, bot, now());
    return bot;
  }

  /** The bot as made: its access token and webhook secret are in this answer only. */
  async function madeBotShape(tx: Queryable, bot: AgentBotRecord & { webhookSecret: string }) {
    const accessToken = await issueAccessToken(tx, { kind: 'agent_bot', id: bot.id }, now());
    return agentBotShape(bot, { accessToken, secret: bot.webhookSecret });
  }

  async function changeBot(tx: Queryable, id: number, body: z.infer<typeof AgentBotUpdate>) {
    const after = (await updateAgentBot(tx, id, botChanges(body, policy), now()))!;
    await syncBotEndpoint(tx, after, now());
    return after;
  }

  return {
    // Platform API: the installation's agent bots.
    async listPlatformBots(platformTokenId: number) {
      return (await listAgentBots(sql, { platformTokenId })).map((bot) => agentBotShape(bot));
    },
    async createPlatformBot(platformTokenId: number, body: z.infer<typeof AgentBotCreate>) {
      return sql.transaction(async (tx) => {
        const bot = await insertBot(tx, { accountId: null, platformTokenId }, body);
        return madeBotShape(tx, bot);
      });
    },
    async getPlatformBot(platformTokenId: number, id: number) {
      return agentBotShape(await platformBot(sql, platformTokenId, id));
    },
    async patchPlatformBot(platformTokenId: number, id: number, body: z.infer<typeof AgentBotUpdate>) {
      await platformBot(sql, platformTokenId, id);
      return sql.transaction(async (tx) => agentBotShape(await changeBot(tx, id, body)));
    },
    async deletePlatformBot(platformTokenId: number, id: number) {
      await platformBot(sql, platformTokenId, id);
      await deleteAgentBot(sql, id);
      onAccessChanged({ kind: 'agent_bot', id });
    },

    // Application API: the account's agent bots.
    async listAccountBots(accountId: number) {
      return (await listAgentBots(sql, { accountId })).map((bot) => agentBotShape(bot));
    },
    async createAccountBot(accountId: number, actor: Actor, body: z.infer<typeof AgentBotCreate>) {
      return sql.transaction(async (tx) => {
        const bot = await insertBot(tx, { accountId, platformTokenId: null }, body);
        const after = agentBotShape(bot);
        await record(tx, { accountId, actor, type: 'AgentBot', id: bot.id, action: 'create', before: {}, after });
        return madeBotShape(tx, bot);
      });
    },
    async getAccountBot(accountId: number, id: number) {
      return agentBotShape(await accountBot(sql, accountId, id));
    },
    async patchAccountBot(accountId: number, actor: Actor, id: number, body: z.infer<typeof AgentBotUpdate>) {
      const before = agentBotShape(await accountBot(sql, accountId, id));
      return sql.transaction(async (tx) => {
        const after = agentBotShape(await changeBot(tx, id, body));
        await record(tx, { accountId, actor, type: 'AgentBot', id, action: 'update', before, after });
        return after;
      });
    },
    async deleteAccountBot(accountId: number, actor: Actor, id: number) {
      const before = agentBotShape(await accountBot(sql, accountId, id));
      await sql.transaction(async (tx) => {
        await deleteAgentBot(tx, id);
        await record(tx, { accountId, actor, type: 'AgentBot', id, action: 'destroy', before, after: {} });
      });
      onAccessChanged({ kind: 'agent_bot', id });
    },
  };
}

export type AgentBotService = ReturnType<typeof createAgentBotService>;
