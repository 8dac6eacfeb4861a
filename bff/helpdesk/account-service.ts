import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import type { EngineAccountProvisioning } from '../engine-link/engine-account-provisioning.ts';
import type { RecordChange } from './audit-service.ts';
import { platformAccount } from './platform-ownership.ts';
import type {
  AccountUpdate,
  PlatformAccountCreate,
  PlatformAccountUpdate,
} from '../../shared/schemas/helpdesk/index.ts';
import { accountViewShape, platformAccountShape } from './shapes.ts';
import {
  deleteAccount,
  findAccount,
  inboxIdsOf,
  insertAccount,
  updateAccount,
  type AccountChanges,
  type AccountRecord,
  type Role,
} from './store/accounts.ts';
import type { Actor } from './store/audit-log.ts';

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

async function knownAccount(db: Queryable, accountId: number): Promise<AccountRecord> {
  const account = await findAccount(db, accountId);
  if (!account) throw new ParleyError('not_found', `No account ${accountId}.`);
  return account;
}

export interface AccountServiceDeps {
  sql: Sql;
  now: () => Date;
  /** Each account's own engine account: made, suspended, resumed and deleted with it. */
  engineAccounts: EngineAccountProvisioning;
  record: RecordChange;
  /**
   * An account was suspended or deleted: whoever is connected to it (widgets, contacts, the console)
   * is disconnected, on every node.
   */
  onAccountClosed?: ((accountId: number, inboxIds: string[]) => void) | undefined;
}

/**
 * Accounts: the operator makes, changes, suspends and deletes them through the Platform API; an
 * account's people see it and its administrators change it through the Application API. Every
 * change runs in one transaction with its audit entry.
 */
export function createAccountService({ sql, now, engineAccounts, record, onAccountClosed }: AccountServiceDeps) {
  async function changeAccount(before: AccountRecord, actor: Actor, changes: AccountChanges): Promise<AccountRecord> {
    return sql.transaction(async (tx) => {
      const after = (await updateAccount(tx, before.id, changes, now()))!;
      const shown = { before: platformAccountShape(before), after: platformAccountShape(after) };
      await record(tx, { accountId: before.id, actor, type: 'Account', id: before.id, action: 'update', ...shown });
      return after;
    });
  }

  return {
    // Platform API.
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
          const shown = { before: {}, after: platformAccountShape(made) };
          await record(tx, { accountId: made.id, actor, type: 'Account', id: made.id, action: 'create', ...shown });
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
      return platformAccountShape(await platformAccount(sql, platformTokenId, id));
    },
    /**
     * A change of status reaches the account's engine account first; a suspension disconnects
     * everyone connected to the account.
     */
    async patchAccount(platformTokenId: number, actor: Actor, id: number, body: AccountFields) {
      const before = await platformAccount(sql, platformTokenId, id);
      const statusChanges = body.status !== undefined && body.status !== before.status;
      if (statusChanges) await engineAccounts.setSuspended(id, body.status === 'suspended');
      const after = platformAccountShape(await changeAccount(before, actor, accountChanges(body)));
      if (statusChanges && body.status === 'suspended') onAccountClosed?.(id, await inboxIdsOf(sql, id));
      if (statusChanges && body.status === 'active') await engineAccounts.connectWebhooks(id);
      return after;
    },
    /**
     * Deletes the account's engine account (with everything it holds there), then the account;
     * everyone connected to it is disconnected.
     */
    async deleteAccount(platformTokenId: number, id: number) {
      await platformAccount(sql, platformTokenId, id);
      const inboxIds = await inboxIdsOf(sql, id);
      await engineAccounts.remove(id);
      await sql.transaction((tx) => deleteAccount(tx, id));
      onAccountClosed?.(id, inboxIds);
    },

    // Application API.
    async accountView(accountId: number, role: Role | 'bot') {
      return accountViewShape(await knownAccount(sql, accountId), role === 'bot' ? undefined : role);
    },
    async updateAccount(accountId: number, actor: Actor, body: z.infer<typeof AccountUpdate>) {
      const before = await knownAccount(sql, accountId);
      const settings = body.settings && { ...before.settings, ...body.settings };
      const changes = { ...accountChanges(body), settings };
      return accountViewShape(await changeAccount(before, actor, changes), 'administrator');
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
