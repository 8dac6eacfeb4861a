import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { RecordChange } from './audit-service.ts';
import { platformAccount, platformUser } from './platform-ownership.ts';
import { deleteAccountUser, listAccountUsers, upsertAccountUser, type Role } from './store/accounts.ts';
import type { Actor } from './store/audit-log.ts';
import type { OnAccessChanged } from './store/credentials.ts';

/**
 * Who works in which account, and as what (Platform API). Adding, changing and removing a person is
 * audited in the account.
 */
export function createAccountUserService({
  sql,
  now,
  record,
  onAccessChanged,
}: {
  sql: Sql;
  now: () => Date;
  record: RecordChange;
  onAccessChanged: OnAccessChanged;
}) {
  return {
    async listAccountUsers(platformTokenId: number, accountId: number) {
      await platformAccount(sql, platformTokenId, accountId);
      const members = await listAccountUsers(sql, accountId);
      return members.map((member) => ({ account_id: member.accountId, user_id: member.userId, role: member.role }));
    },
    /** Adds the person, or changes the role of one already in the account. */
    async addAccountUser(platformTokenId: number, actor: Actor, accountId: number, userId: number, role: Role) {
      await platformAccount(sql, platformTokenId, accountId);
      await platformUser(sql, platformTokenId, userId);
      const added = await sql.transaction(async (tx) => {
        const { record: member, before } = await upsertAccountUser(tx, accountId, userId, role, now());
        await record(tx, {
          accountId,
          actor,
          type: 'AccountUser',
          id: userId,
          action: before ? 'update' : 'create',
          before: before ? { user_id: userId, role: before } : {},
          after: { user_id: userId, role },
        });
        return { account_id: member.accountId, user_id: member.userId, role: member.role };
      });
      onAccessChanged({ kind: 'user', id: userId });
      return added;
    },
    async removeAccountUser(platformTokenId: number, actor: Actor, accountId: number, userId: number) {
      await platformAccount(sql, platformTokenId, accountId);
      await sql.transaction(async (tx) => {
        const role = await deleteAccountUser(tx, accountId, userId);
        if (!role) throw new ParleyError('not_found', `User ${userId} is not in account ${accountId}.`);
        const before = { user_id: userId, role };
        await record(tx, { accountId, actor, type: 'AccountUser', id: userId, action: 'destroy', before, after: {} });
      });
      onAccessChanged({ kind: 'user', id: userId });
    },
  };
}

export type AccountUserService = ReturnType<typeof createAccountUserService>;
