import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Queryable, SecretBox, Sql, TargetPolicy } from '../../shared/server/index.ts';
import {
  accountsOf,
  deleteAccount,
  deleteAccountUser,
  findAccount,
  inboxIdsOf,
  insertAccount,
  listAccountUsers,
  updateAccount,
  upsertAccountUser,
  type AccountChanges,
  type AccountRecord,
  type Role,
} from './store/accounts.ts';
import { deleteAgentBot, findAgentBot, insertAgentBot, listAgentBots, updateAgentBot, type AgentBotRecord } from './store/agent-bots.ts';
import { syncBotEndpoint } from './store/desk-webhooks.ts';
import { changesBetween, listAudit, writeAudit, type Actor } from './store/audit-log.ts';
import { createSignInLink, hashPassword, issueAccessToken, issueSession, passwordMatches, useSignInLink } from './store/credentials.ts';
import { deleteUser, findUser, findUserByEmail, insertUser, updateUser, type UserRecord } from './store/users.ts';
import type { AccountUpdate, AgentBotCreate, AgentBotUpdate, AuditLogQuery, PlatformAccountCreate, PlatformAccountUpdate, UserCreate, UserUpdate } from './schemas.ts';
import { deskReceiverUrl } from './desk-webhooks.ts';
import { accountViewShape, agentBotShape, auditLogShape, platformAccountShape, userShape } from './shapes.ts';
import type { EngineAccountProvisioning } from '../engine-link/engine-account-provisioning.ts';

/** How long a one-time sign-in link works. */
export const SIGN_IN_LINK_TTL_MS = 5 * 60_000;
/**
 * The agent console's address that signs a person in with a one-time link's token. The token is in
 * the fragment: a browser does not send it to any server, and it stays out of logs.
 */
export const consoleSignInUrl = (baseUrl: string, token: string): string => `${baseUrl}/console/#sign_in_token=${token}`;

/** How long a console session lasts. */
export const SESSION_TTL_MS = 12 * 3600_000;
/** Audit log entries per page, as Chatwoot's. */
export const AUDIT_PER_PAGE = 15;

type AccountFields = z.infer<typeof PlatformAccountUpdate>;

const accountChanges = (body: AccountFields): AccountChanges => ({
  name: body.name,
  locale: body.locale,
  domain: body.domain,
  supportEmail: body.support_email,
  status: body.status,
  customAttributes: body.custom_attributes,
  features: body.features,
});

const botChanges = (body: z.infer<typeof AgentBotUpdate>, policy: TargetPolicy) => ({
  name: body.name,
  description: body.description,
  outgoingUrl: body.outgoing_url ? deskReceiverUrl(body.outgoing_url, policy, 'outgoing_url') : body.outgoing_url,
});

/**
 * The helpdesk's administration: accounts, people, agent bots, sign-in, and the audit log. Every
 * change to an account runs in one transaction with its audit entry (who, what, when, before and
 * after). The Platform API reaches only what its token created; others are "not found".
 */
export interface HelpdeskServiceDeps {
  sql: Sql;
  now: () => Date;
  /** The operator's own private origins an agent bot's outgoing_url may name. */
  policy: TargetPolicy;
  secrets: SecretBox;
  /** Each account's own engine account: made, suspended, resumed and deleted with it. */
  engineAccounts: EngineAccountProvisioning;
  /** An account was suspended or deleted: whoever is connected to it (widgets, contacts, the console) is disconnected, on every node. */
  onAccountClosed?: ((accountId: number, inboxIds: string[]) => void) | undefined;
}

export function createHelpdeskService({ sql, now, policy, secrets, engineAccounts, onAccountClosed }: HelpdeskServiceDeps) {
  const audit = (db: Queryable, accountId: number, actor: Actor, type: string, id: string | number, action: 'create' | 'update' | 'destroy', before?: object, after?: object) =>
    writeAudit(db, { accountId, actor, auditableType: type, auditableId: id, action, changes: changesBetween(before as Record<string, unknown>, after as Record<string, unknown>) }, now());

  async function platformAccount(platformTokenId: number, id: number): Promise<AccountRecord> {
    const account = await findAccount(sql, id);
    if (!account || account.platformTokenId !== platformTokenId) throw new ParleyError('not_found', `No account ${id}.`);
    return account;
  }

  async function platformUser(platformTokenId: number, id: number): Promise<UserRecord> {
    const user = await findUser(sql, id);
    if (!user || user.platformTokenId !== platformTokenId) throw new ParleyError('not_found', `No user ${id}.`);
    return user;
  }

  async function platformBot(platformTokenId: number, id: number): Promise<AgentBotRecord> {
    const bot = await findAgentBot(sql, id);
    if (!bot || bot.accountId !== null || bot.platformTokenId !== platformTokenId) throw new ParleyError('not_found', `No agent bot ${id}.`);
    return bot;
  }

  async function accountBot(accountId: number, id: number): Promise<AgentBotRecord> {
    const bot = await findAgentBot(sql, id);
    if (!bot || bot.accountId !== accountId) throw new ParleyError('not_found', `No agent bot ${id} in this account.`);
    return bot;
  }

  const userView = async (user: UserRecord, accessToken?: string) => userShape(user, await accountsOf(sql, user.id), accessToken);

  return {
    // Platform API: accounts.
    /**
     * Makes the account with an engine account of its own (made first: without it, nothing is made
     * here), then has the engine post its events here.
     */
    async createAccount(platformTokenId: number, actor: Actor, body: z.infer<typeof PlatformAccountCreate>) {
      const opened = await engineAccounts.open(body.name, body.status === 'suspended');
      let account: AccountRecord;
      try {
        account = await sql.transaction(async (tx) => {
          const made = await insertAccount(tx, { ...accountChanges(body), name: body.name }, platformTokenId, now());
          await engineAccounts.keep(tx, made.id, opened);
          await audit(tx, made.id, actor, 'Account', made.id, 'create', {}, platformAccountShape(made));
          return made;
        });
      } catch (error) {
        await engineAccounts.abandon(opened);
        throw error;
      }
      await engineAccounts.connectWebhooks(account.id);
      return platformAccountShape(account);
    },
    async getAccount(platformTokenId: number, id: number) {
      return platformAccountShape(await platformAccount(platformTokenId, id));
    },
    /** A change of status reaches the account's engine account first; a suspension disconnects everyone connected to the account. */
    async patchAccount(platformTokenId: number, actor: Actor, id: number, body: AccountFields) {
      const before = await platformAccount(platformTokenId, id);
      const statusChanges = body.status !== undefined && body.status !== before.status;
      if (statusChanges) await engineAccounts.setSuspended(id, body.status === 'suspended');
      const after = await changeAccount(before, actor, accountChanges(body));
      if (statusChanges && body.status === 'suspended') onAccountClosed?.(id, await inboxIdsOf(sql, id));
      if (statusChanges && body.status === 'active') await engineAccounts.connectWebhooks(id);
      return after;
    },
    /** Deletes the account's engine account (with everything it holds there), then the account; everyone connected to it is disconnected. */
    async deleteAccount(platformTokenId: number, id: number) {
      await platformAccount(platformTokenId, id);
      const inboxIds = await inboxIdsOf(sql, id);
      await engineAccounts.remove(id);
      await sql.transaction((tx) => deleteAccount(tx, id));
      onAccountClosed?.(id, inboxIds);
    },

    // Platform API: account users.
    async listAccountUsers(platformTokenId: number, accountId: number) {
      await platformAccount(platformTokenId, accountId);
      return (await listAccountUsers(sql, accountId)).map((member) => ({ account_id: member.accountId, user_id: member.userId, role: member.role }));
    },
    async addAccountUser(platformTokenId: number, actor: Actor, accountId: number, userId: number, role: Role) {
      await platformAccount(platformTokenId, accountId);
      await platformUser(platformTokenId, userId);
      return sql.transaction(async (tx) => {
        const { record, before } = await upsertAccountUser(tx, accountId, userId, role, now());
        await audit(tx, accountId, actor, 'AccountUser', userId, before ? 'update' : 'create', before ? { user_id: userId, role: before } : {}, { user_id: userId, role });
        return { account_id: record.accountId, user_id: record.userId, role: record.role };
      });
    },
    async removeAccountUser(platformTokenId: number, actor: Actor, accountId: number, userId: number) {
      await platformAccount(platformTokenId, accountId);
      await sql.transaction(async (tx) => {
        const role = await deleteAccountUser(tx, accountId, userId);
        if (!role) throw new ParleyError('not_found', `User ${userId} is not in account ${accountId}.`);
        await audit(tx, accountId, actor, 'AccountUser', userId, 'destroy', { user_id: userId, role }, {});
      });
    },

    // Platform API: users.
    async createUser(platformTokenId: number, body: z.infer<typeof UserCreate>) {
      return sql.transaction(async (tx) => {
        const passwordHash = body.password ? await hashPassword(body.password) : undefined;
        const fields = { name: body.name, email: body.email, displayName: body.display_name, passwordHash, customAttributes: body.custom_attributes };
        const user = await insertUser(tx, fields, platformTokenId, now());
        if (!user) throw new ParleyError('unprocessable', 'That e-mail address belongs to another user.', { problems: [{ field: 'email', message: 'is taken' }] });
        const token = await issueAccessToken(tx, { kind: 'user', id: user.id }, now());
        return userShape(user, [], token);
      });
    },
    async getUser(platformTokenId: number, id: number) {
      return userView(await platformUser(platformTokenId, id));
    },
    async patchUser(platformTokenId: number, id: number, body: z.infer<typeof UserUpdate>) {
      await platformUser(platformTokenId, id);
      const passwordHash = body.password ? await hashPassword(body.password) : undefined;
      const user = await updateUser(sql, id, { name: body.name, email: body.email, displayName: body.display_name, passwordHash, customAttributes: body.custom_attributes }, now());
      if (user === 'taken') throw new ParleyError('unprocessable', 'That e-mail address belongs to another user.', { problems: [{ field: 'email', message: 'is taken' }] });
      if (!user) throw new ParleyError('not_found', `No user ${id}.`);
      return userView(user);
    },
    async deleteUser(platformTokenId: number, id: number) {
      await platformUser(platformTokenId, id);
      await deleteUser(sql, id);
    },
    /** A one-time link that signs the person in to the console; short-lived, useless after its first use. */
    async signInLink(platformTokenId: number, id: number, baseUrl: string) {
      await platformUser(platformTokenId, id);
      const token = await createSignInLink(sql, id, now(), SIGN_IN_LINK_TTL_MS);
      return { url: consoleSignInUrl(baseUrl, token) };
    },

    // Platform API: the installation's agent bots.
    async listPlatformBots(platformTokenId: number) {
      return (await listAgentBots(sql, { platformTokenId })).map((bot) => agentBotShape(bot));
    },
    async createPlatformBot(platformTokenId: number, body: z.infer<typeof AgentBotCreate>) {
      return sql.transaction(async (tx) => {
        const bot = await insertAgentBot(tx, { accountId: null, platformTokenId }, { ...botChanges(body, policy), name: body.name }, now(), secrets);
        await syncBotEndpoint(tx, bot, now());
        return agentBotShape(bot, { accessToken: await issueAccessToken(tx, { kind: 'agent_bot', id: bot.id }, now()), secret: bot.webhookSecret });
      });
    },
    async getPlatformBot(platformTokenId: number, id: number) {
      return agentBotShape(await platformBot(platformTokenId, id));
    },
    async patchPlatformBot(platformTokenId: number, id: number, body: z.infer<typeof AgentBotUpdate>) {
      await platformBot(platformTokenId, id);
      return sql.transaction(async (tx) => {
        const after = (await updateAgentBot(tx, id, botChanges(body, policy), now()))!;
        await syncBotEndpoint(tx, after, now());
        return agentBotShape(after);
      });
    },
    async deletePlatformBot(platformTokenId: number, id: number) {
      await platformBot(platformTokenId, id);
      await deleteAgentBot(sql, id);
    },

    // Application API: the account.
    async accountView(accountId: number, role: Role | 'bot') {
      const account = await findAccount(sql, accountId);
      if (!account) throw new ParleyError('not_found', `No account ${accountId}.`);
      return accountViewShape(account, role === 'bot' ? undefined : role);
    },
    async updateAccount(accountId: number, actor: Actor, body: z.infer<typeof AccountUpdate>) {
      const before = await findAccount(sql, accountId);
      if (!before) throw new ParleyError('not_found', `No account ${accountId}.`);
      return accountViewShape(await changeAccountRecord(before, actor, accountChanges(body)), 'administrator');
    },

    // Application API: the account's agent bots.
    async listAccountBots(accountId: number) {
      return (await listAgentBots(sql, { accountId })).map((bot) => agentBotShape(bot));
    },
    async createAccountBot(accountId: number, actor: Actor, body: z.infer<typeof AgentBotCreate>) {
      return sql.transaction(async (tx) => {
        const bot = await insertAgentBot(tx, { accountId, platformTokenId: null }, { ...botChanges(body, policy), name: body.name }, now(), secrets);
        await syncBotEndpoint(tx, bot, now());
        await audit(tx, accountId, actor, 'AgentBot', bot.id, 'create', {}, agentBotShape(bot));
        return agentBotShape(bot, { accessToken: await issueAccessToken(tx, { kind: 'agent_bot', id: bot.id }, now()), secret: bot.webhookSecret });
      });
    },
    async getAccountBot(accountId: number, id: number) {
      return agentBotShape(await accountBot(accountId, id));
    },
    async patchAccountBot(accountId: number, actor: Actor, id: number, body: z.infer<typeof AgentBotUpdate>) {
      const before = await accountBot(accountId, id);
      return sql.transaction(async (tx) => {
        const after = (await updateAgentBot(tx, id, botChanges(body, policy), now()))!;
        await syncBotEndpoint(tx, after, now());
        await audit(tx, accountId, actor, 'AgentBot', id, 'update', agentBotShape(before), agentBotShape(after));
        return agentBotShape(after);
      });
    },
    async deleteAccountBot(accountId: number, actor: Actor, id: number) {
      const before = await accountBot(accountId, id);
      await sql.transaction(async (tx) => {
        await deleteAgentBot(tx, id);
        await audit(tx, accountId, actor, 'AgentBot', id, 'destroy', agentBotShape(before), {});
      });
    },

    // Application API: the audit log.
    async auditLogs(accountId: number, query: z.infer<typeof AuditLogQuery>) {
      const account = await findAccount(sql, accountId);
      if (!account) throw new ParleyError('not_found', `No account ${accountId}.`);
      if (account.features['audit_logs'] === false) throw new ParleyError('unprocessable', 'The audit_logs feature is not enabled for this account.');
      const named = [query.types, query['types[]']].flat().filter((value): value is string => typeof value === 'string');
      const types = named.flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean);
      const page = await listAudit(sql, accountId, {
        page: query.page,
        perPage: AUDIT_PER_PAGE,
        q: query.q,
        types: types.length ? types : undefined,
        since: query.since === undefined ? undefined : new Date(query.since * 1000),
        until: query.until === undefined ? undefined : new Date(query.until * 1000),
        sort: query.sort,
      });
      return { per_page: AUDIT_PER_PAGE, total_entries: page.total, current_page: query.page, audit_logs: page.entries.map(auditLogShape) };
    },

    // Signing in to the console.
    async signIn(credentials: { sign_in_token: string } | { email: string; password: string }) {
      let userId: number | undefined;
      if ('sign_in_token' in credentials) {
        userId = await useSignInLink(sql, credentials.sign_in_token, now());
      } else {
        const user = await findUserByEmail(sql, credentials.email);
        if (user && (await passwordMatches(credentials.password, user.passwordHash))) userId = user.id;
      }
      if (userId === undefined) throw new ParleyError('unauthorized', 'The sign-in link is not valid (used, expired or unknown), or the e-mail address and password do not match.');
      const session = await issueSession(sql, userId, now(), SESSION_TTL_MS);
      return { access_token: session.token, expires_at: session.expiresAt.toISOString(), user: await userView((await findUser(sql, userId))!) };
    },
  };

  async function changeAccountRecord(before: AccountRecord, actor: Actor, changes: AccountChanges): Promise<AccountRecord> {
    return sql.transaction(async (tx) => {
      const after = (await updateAccount(tx, before.id, changes, now()))!;
      await audit(tx, before.id, actor, 'Account', before.id, 'update', platformAccountShape(before), platformAccountShape(after));
      return after;
    });
  }

  async function changeAccount(before: AccountRecord, actor: Actor, changes: AccountChanges) {
    return platformAccountShape(await changeAccountRecord(before, actor, changes));
  }
}

export type HelpdeskService = ReturnType<typeof createHelpdeskService>;
