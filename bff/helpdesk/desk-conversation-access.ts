/**
 * Which conversations a caller of the Application API (or the `/desk` socket) may see: administrators
 * every inbox of the account, agents the inboxes they answer, agent bots those they are connected to.
 */
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { Role } from './store/accounts.ts';
import { findDeskConversation, type DeskConversation } from './store/desk-conversations.ts';
import type { Caller } from './auth.ts';
import { deskConversationShape as conversationShape } from './shapes.ts';

export interface DeskConversationAccessDeps {
  sql: Sql;
  now: () => Date;
}

export function createDeskConversationAccess({ sql, now }: DeskConversationAccessDeps) {
  /** The inboxes the caller may see: every one (administrators), those they answer (agents), those it is connected to (bots). */
  async function visibleInboxIds(
    accountId: number,
    caller: Caller,
    standing: Role | 'bot',
  ): Promise<string[] | undefined> {
    if (caller.kind === 'agent_bot') {
      return (
        await sql.query<{ id: string }>('SELECT id FROM inboxes WHERE account_id = $1 AND agent_bot_id = $2', [
          accountId,
          caller.bot.id,
        ])
      ).map((row) => row.id);
    }
    if (standing !== 'agent') return undefined;
    const rows = await sql.query<{ id: string }>(
      'SELECT i.id FROM inboxes i JOIN inbox_members m ON m.inbox_id = i.id WHERE i.account_id = $1 AND m.user_id = $2',
      [accountId, caller.user.id],
    );
    return rows.map((row) => row.id);
  }

  /** A conversation the caller may see (404 otherwise), as the store keeps it. */
  async function find(
    accountId: number,
    caller: Caller,
    standing: Role | 'bot',
    id: number,
  ): Promise<DeskConversation> {
    const found = await findDeskConversation(sql, accountId, id, now());
    const visible = found && (await visibleInboxIds(accountId, caller, standing));
    if (!found || (visible && !visible.includes(found.record.inboxId)))
      throw new ParleyError('not_found', `No conversation ${id} for you in this account.`);
    return found;
  }

  /** The conversation as it is after a change, in the shape people's clients read. */
  const reread = async (conversation: DeskConversation) =>
    conversationShape((await findDeskConversation(sql, conversation.accountId, conversation.record.id, now()))!);

  return { visibleInboxIds, find, reread };
}

export type DeskConversationAccess = ReturnType<typeof createDeskConversationAccess>;
