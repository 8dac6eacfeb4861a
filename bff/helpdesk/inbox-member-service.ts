/**
 * The people who answer an inbox (its members), chosen among the account's people; a change to them
 * is audited as one update of the inbox's member list.
 */
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { RecordChange } from './audit-service.ts';
import { inboxMembers, setInboxMembers, type InboxRecord } from './store/account-inboxes.ts';
import { listAccountUsers } from './store/accounts.ts';
import type { Actor } from './store/audit-log.ts';
import { findUser } from './store/users.ts';
import type { OnAccessChanged } from './store/credentials.ts';
import { personShape } from './shapes.ts';
import type { Agent } from '../../shared/schemas/helpdesk/index.ts';

export interface InboxMemberServiceDeps {
  sql: Sql;
  record: RecordChange;
  /** The account's inbox of that number, or not_found. */
  inboxOf: (accountId: number, displayId: number) => Promise<InboxRecord>;
  onAccessChanged: OnAccessChanged;
}

export function createInboxMemberService({ sql, record, inboxOf, onAccessChanged }: InboxMemberServiceDeps) {
  async function agentsOf(accountId: number, userIds?: readonly number[]): Promise<Agent[]> {
    const members = await listAccountUsers(sql, accountId);
    const agents: Agent[] = [];
    for (const member of members) {
      if (userIds && !userIds.includes(member.userId)) continue;
      const user = await findUser(sql, member.userId);
      if (!user) continue;
      agents.push({ ...personShape(user), account_id: accountId, role: member.role });
    }
    return agents;
  }

  async function changeMembers(
    accountId: number,
    actor: Actor,
    inboxDisplayId: number,
    next: (current: number[]) => number[],
  ) {
    const inbox = await inboxOf(accountId, inboxDisplayId);
    const people = new Set((await listAccountUsers(sql, accountId)).map((member) => member.userId));
    const { before, after } = await sql.transaction(async (tx) => {
      const before = await inboxMembers(tx, inbox.id);
      const members = [...new Set(next(before))].sort((a, b) => a - b);
      const strangers = members.filter((id) => !people.has(id));
      if (strangers.length)
        throw new ParleyError('unprocessable', `Not people of this account: ${strangers.join(', ')}.`, {
          problems: [{ field: 'user_ids', message: 'not people of this account' }],
        });
      await setInboxMembers(tx, inbox.id, members);
      await record(tx, {
        accountId,
        actor,
        type: 'InboxMember',
        id: inbox.displayId,
        action: 'update',
        before: { user_ids: before },
        after: { user_ids: members },
      });
      return { before, after: members };
    });
    // Whoever joined or left the inbox hears of it from now on, or no longer.
    for (const id of new Set([...before, ...after]))
      if (before.includes(id) !== after.includes(id)) onAccessChanged({ kind: 'user', id });
    // After the commit: the embedded store has one connection, which the transaction held.
    return { payload: await agentsOf(accountId, after) };
  }

  return {
    agentsOf,
    async members(accountId: number, displayId: number) {
      const inbox = await inboxOf(accountId, displayId);
      return { payload: await agentsOf(accountId, await inboxMembers(sql, inbox.id)) };
    },
    addMembers: (accountId: number, actor: Actor, displayId: number, userIds: number[]) =>
      changeMembers(accountId, actor, displayId, (current) => [...current, ...userIds]),
    setMembers: (accountId: number, actor: Actor, displayId: number, userIds: number[]) =>
      changeMembers(accountId, actor, displayId, () => userIds),
    removeMembers: (accountId: number, actor: Actor, displayId: number, userIds: number[]) =>
      changeMembers(accountId, actor, displayId, (current) => current.filter((id) => !userIds.includes(id))),
  };
}
