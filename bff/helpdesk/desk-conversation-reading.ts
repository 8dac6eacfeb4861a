/**
 * People reading conversations: the list by status (with the counts mine / unassigned / all), one
 * conversation, the customer's other conversations, and marking one read.
 */
import type { z } from 'zod';
import type { Sql } from '../../shared/server/index.ts';
import type { ConversationListQuery } from '../../shared/schemas/helpdesk/index.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import type { Role } from './store/accounts.ts';
import { listDeskConversations, markReadByPeople } from './store/desk-conversations.ts';
import type { Caller } from './auth.ts';
import type { DeskConversationAccess } from './desk-conversation-access.ts';
import { deskConversationShape as conversationShape } from './shapes.ts';

const PER_PAGE = 25;

export interface DeskConversationReadingDeps {
  sql: Sql;
  now: () => Date;
  publisher: Pick<Publisher, 'record' | 'publish'>;
  access: DeskConversationAccess;
}

export function createDeskConversationReading({ sql, now, publisher, access }: DeskConversationReadingDeps) {
  return {
    async list(
      accountId: number,
      caller: Caller,
      standing: Role | 'bot',
      query: z.infer<typeof ConversationListQuery>,
    ) {
      const filter = {
        accountId,
        now: now(),
        inboxIds: await access.visibleInboxIds(accountId, caller, standing),
        inboxDisplayId: query.inbox_id,
        status: query.status === 'all' ? undefined : query.status,
      };
      const me = caller.kind === 'user' ? caller.user.id : 0;
      const assignee = query.assignee_type === 'me' ? 'mine' : query.assignee_type;
      const { conversations: rows, counts } = await listDeskConversations(sql, filter, assignee, me, {
        number: query.page,
        size: PER_PAGE,
      });
      return {
        data: {
          meta: { mine_count: counts.mine, unassigned_count: counts.unassigned, all_count: counts.all },
          payload: rows.map(conversationShape),
        },
      };
    },

    /** The other conversations of the same customer (the console's sidebar), newest first. */
    async contactConversations(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const conversation = await access.find(accountId, caller, standing, id);
      const filter = {
        accountId,
        now: now(),
        inboxIds: await access.visibleInboxIds(accountId, caller, standing),
        sameCustomerAs: conversation.record.id,
      };
      const { conversations: rows } = await listDeskConversations(sql, filter, 'all', 0, { number: 1, size: PER_PAGE });
      return {
        payload: rows
          .filter((row) => row.record.id !== id)
          .sort((a, b) => b.record.id - a.record.id)
          .map(conversationShape),
      };
    },

    /** People read the conversation: its unread count starts again, and the customer's widget shows their messages read. */
    async markRead(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const conversation = await access.find(accountId, caller, standing, id);
      const read = await sql.transaction(async (tx) => {
        const ids = await markReadByPeople(tx, conversation.record.id, now());
        const changes: Change[] = ids.map((messageId) => ({ type: 'message.status', messageId, status: 'read' }));
        await publisher.record(tx, conversation.record, changes);
        return changes;
      });
      publisher.publish(conversation.record, ...read);
      return access.reread(conversation);
    },

    async get(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      return conversationShape(await access.find(accountId, caller, standing, id));
    },
  };
}
