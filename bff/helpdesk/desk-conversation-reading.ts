/**
 * People reading conversations: the list by status (with the counts mine / unassigned / all), one
 * conversation, the customer's other conversations, and marking one read.
 */
import type { z } from 'zod';
import type { Sql } from '../../shared/server/index.ts';
import type { ConversationListQuery } from '../../shared/schemas/helpdesk/index.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import type { Role } from './store/accounts.ts';
import { markReadByPeople } from './store/desk-conversations.ts';
import { ensureCustomerContact } from './store/desk-contacts.ts';
import { listDeskConversations } from './store/desk-conversation-list.ts';
import { labelFilter, readCursor, writeCursor } from './desk-conversation-cursor.ts';
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

type ListQuery = z.infer<typeof ConversationListQuery>;

/** One page of the list as the caller may see it, in the order and from the cursor asked. */
async function listForPeople(
  { sql, now, access }: Pick<DeskConversationReadingDeps, 'sql' | 'now' | 'access'>,
  { accountId, caller, standing }: { accountId: number; caller: Caller; standing: Role | 'bot' },
  query: ListQuery,
) {
  const filter = {
    accountId,
    now: now(),
    inboxIds: await access.visibleInboxIds(accountId, caller, standing),
    inboxDisplayId: query.inbox_id,
    status: query.status === 'all' ? undefined : query.status,
    labels: labelFilter(query.labels, query['labels[]']),
    teamId: query.team_id,
  };
  const me = caller.kind === 'user' ? caller.user.id : 0;
  const assignee = query.assignee_type === 'me' ? 'mine' : query.assignee_type;
  const after = readCursor(query.after, query.sort_by);
  const page = { sort: query.sort_by, size: PER_PAGE, number: query.page, after };
  const { conversations: rows, counts, next } = await listDeskConversations(sql, filter, assignee, me, page);
  return {
    data: {
      meta: {
        mine_count: counts.mine,
        unassigned_count: counts.unassigned,
        all_count: counts.all,
        next_cursor: next ? writeCursor(query.sort_by, next) : null,
      },
      payload: rows.map(conversationShape),
    },
  };
}

export function createDeskConversationReading({ sql, now, publisher, access }: DeskConversationReadingDeps) {
  return {
    list: (accountId: number, caller: Caller, standing: Role | 'bot', query: ListQuery) =>
      listForPeople({ sql, now, access }, { accountId, caller, standing }, query),

    /** The other conversations of the same customer (the console's sidebar), newest first. */
    async contactConversations(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const conversation = await access.find(accountId, caller, standing, id);
      const filter = {
        accountId,
        now: now(),
        inboxIds: await access.visibleInboxIds(accountId, caller, standing),
        sameCustomerAs: conversation.record.id,
      };
      const page = { sort: 'latest' as const, number: 1, size: PER_PAGE };
      const { conversations: rows } = await listDeskConversations(sql, filter, 'all', 0, page);
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

    /** One conversation; a widget customer's contact is made the first time people open it (its contact.id). */
    async get(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const conversation = await access.find(accountId, caller, standing, id);
      if (conversation.contactId !== null) return conversationShape(conversation);
      const { inboxId, customerRef } = conversation.record;
      const customer = { inboxId, customerRef, name: conversation.contactName, email: conversation.contactEmail };
      await ensureCustomerContact(sql, customer, now());
      return access.reread(conversation);
    },
  };
}
