import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ParleyError, type EngineEvent } from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import { EngineCallError } from '../engine-link/engine-client.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { EngineEventRecorder } from '../engine-link/engine-events.ts';
import { givenCustomerRef } from '../widget/customer-refs.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import { roleIn, type Role } from './store/accounts.ts';
import {
  attachEngineConversation,
  findConversationById,
  reopenConversation,
  UNTIL_CUSTOMER_WRITES,
  updateConversation,
  type ConversationRecord,
} from '../store/conversations.ts';
import {
  deskMessages,
  findDeskConversation,
  listDeskConversations,
  markReadByPeople,
  setAssignee,
  type DeskConversation,
} from './store/desk-conversations.ts';
import { insertMessage, setMessageSender, type MessageSender } from '../store/messages.ts';
import { attachmentsOfMessages } from '../attachments/store.ts';
import { deskAttachmentShapes } from '../attachments/shapes.ts';
import type { Caller } from './auth.ts';
import type {
  ConversationListQuery,
  DeskMessage,
  DeskMessageCreate,
  StatusChange,
} from '../../shared/schemas/helpdesk/index.ts';
import { deskConversationShape as conversationShape, deskMessageShape as messageShape } from './shapes.ts';

const PER_PAGE = 25;

/** Engine trouble, as the people's client is told it: try again later, or the move is not allowed now. */
function engineFailure(error: unknown): never {
  if (error instanceof EngineCallError) {
    if (error.code === 'invalid_state')
      throw new ParleyError('invalid_state', `The AI engine refused: ${error.message}`);
    if (error.code === 'idempotency_key_in_use')
      throw new ParleyError(
        'conflict',
        'The same change is being made by another request just now; read the conversation again.',
      );
    if (error.retryable)
      throw new ParleyError(
        'upstream_unavailable',
        'The AI engine cannot be reached just now; nothing was changed. Try again.',
      );
  }
  throw error;
}

/** A move the engine says is made already (by another request, or the engine itself): nothing left to do. */
function unlessMadeAlready(error: unknown): undefined {
  if (error instanceof EngineCallError && error.code === 'invalid_state') return undefined;
  return engineFailure(error);
}

export interface DeskConversationDeps {
  sql: Sql;
  engines: Pick<EngineAccounts, 'forInbox'>;
  recorder: EngineEventRecorder;
  conversations: ConversationService;
  now: () => Date;
  /** Where the changes people make (notes, assignments, snoozes, a reopening) are recorded (webhooks) and published (sockets). */
  publisher: Pick<Publisher, 'record' | 'publish'>;
  /** Where people reach the BFF (PUBLIC_URL): attachments' data_url is absolute with it, a path without. */
  publicUrl?: string | undefined;
}

/**
 * Conversations for the people of an account: list them by their status as people see it
 * (administrators see every inbox, agents the inboxes they answer), read every message (notes
 * included, each with who wrote it), answer (a person's answer hands the conversation to people
 * first when the AI has it), write private notes, assign, hand over and back, snooze, resolve and
 * reopen. A move that needs the engine is made there first, and refused with 503 and nothing
 * stored when it cannot be reached: the console sends it again (an answer with the same echo_id).
 */
export function createDeskConversationService(deps: DeskConversationDeps) {
  const { sql, engines, recorder, conversations, publisher, now, publicUrl = '' } = deps;
  // Each conversation goes to the engine with the key of its account's engine account and its own environment.
  const engineOf = (record: ConversationRecord) => engines.forInbox(record.inboxId, record.environment);

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

  async function conversationFor(
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

  const reread = async (conversation: DeskConversation) =>
    conversationShape((await findDeskConversation(sql, conversation.accountId, conversation.record.id, now()))!);

  async function engineConversation(record: ConversationRecord): Promise<string> {
    if (record.engineConversationId) return record.engineConversationId;
    const opened = await (
      await engineOf(record)
    )
      .openConversation(givenCustomerRef(record.customerRef), `open-${record.uuid}`)
      .catch(engineFailure);
    return (record.engineConversationId = await attachEngineConversation(sql, record.id, opened.id));
  }

  const record = async (conversation: ConversationRecord, events: readonly EngineEvent[], then?: readonly Change[]) =>
    recorder.record(conversation, events, then ? { then } : {});

  /** A change people made: written and recorded for the webhooks in one transaction, then pushed to the sockets. */
  async function commit<T>(
    conversation: ConversationRecord,
    write: (tx: Queryable) => Promise<{ value: T; change: Change }>,
  ): Promise<T> {
    const { value, change } = await sql.transaction(async (tx) => {
      const made = await write(tx);
      await publisher.record(tx, conversation, [made.change]);
      return made;
    });
    publisher.publish(conversation, change);
    return value;
  }

  /** People take the conversation from the AI (the AI goes quiet). */
  async function handOver(conversation: ConversationRecord, reason: string, key: string): Promise<void> {
    const change = await (
      await engineOf(conversation)
    )
      .handover(await engineConversation(conversation), reason, `handover-${conversation.uuid}-${key}`)
      .catch(unlessMadeAlready);
    if (change) await record(conversation, change.events);
  }

  async function handBack(conversation: ConversationRecord): Promise<void> {
    const change = await (
      await engineOf(conversation)
    )
      .handback(await engineConversation(conversation), `handback-${conversation.uuid}-${randomUUID()}`)
      .catch(engineFailure);
    await record(conversation, change.events);
  }

  /** A person's snooze: until a time, until the customer writes, or (null) ended now. */
  async function snooze(
    conversation: ConversationRecord,
    until: Date | typeof UNTIL_CUSTOMER_WRITES | null,
  ): Promise<void> {
    const at = now();
    await commit(conversation, async (tx) => {
      await updateConversation(tx, conversation.id, { snoozedUntil: until }, at);
      return {
        value: undefined,
        change: { type: 'snoozed', until: until === UNTIL_CUSTOMER_WRITES ? null : (until ?? at) },
      };
    });
  }

  /** Back to the AI (Chatwoot's `pending`): handed back when people have it, and no longer snoozed. */
  async function toPending(conversation: DeskConversation): Promise<void> {
    if (conversation.record.handledBy === 'human') await handBack(conversation.record);
    if (conversation.status === 'snoozed') await snooze(conversation.record, null);
  }

  /**
   * Opens a resolved conversation again, for people. Its engine conversation has ended for good
   * (closed there now if the resolve has not reached it yet), so a new one is opened and handed
   * over at once; only then is the conversation changed here, in one transaction. The new one's
   * key is the old one's id: fresh for each reopening, the same for a retry, which goes on with
   * the conversation the first attempt opened.
   */
  async function reopen(conversation: ConversationRecord): Promise<void> {
    const from = conversation.engineConversationId;
    if (from && !conversation.engineClosed) {
      // The relay's own key: whichever of us comes second gets the same answer.
      const closed = await (
        await engineOf(conversation)
      )
        .close(from, `close-${conversation.uuid}`)
        .catch(unlessMadeAlready);
      if (closed) await record(conversation, closed.events);
    }
    const opened = await (
      await engineOf(conversation)
    )
      .openConversation(givenCustomerRef(conversation.customerRef), `reopen-${conversation.uuid}-${from ?? 'none'}`)
      .catch(engineFailure);
    const handover = await (
      await engineOf(conversation)
    )
      .handover(
        opened.id,
        'a person reopened the conversation from the helpdesk',
        `handover-${conversation.uuid}-${opened.id}`,
      )
      .catch(unlessMadeAlready);
    const outcome = await commit(conversation, async (tx) => ({
      value: await reopenConversation(tx, conversation.id, from, opened.id, now()),
      change: { type: 'reopened' },
    }));
    if (outcome === 'relay_busy')
      throw new ParleyError(
        'upstream_unavailable',
        'The close of this conversation is still on its way to the AI engine; try again in a moment.',
      );
    if (outcome === 'changed') {
      // The same reopening sent twice reaches the same engine conversation: done already.
      if ((await findConversationById(sql, conversation.id))?.engineConversationId === opened.id) return;
      throw new ParleyError('invalid_state', 'The conversation changed meanwhile; read it again.');
    }
    Object.assign(conversation, {
      status: 'open',
      handledBy: 'human',
      engineConversationId: opened.id,
      engineClosed: false,
      closeRequested: false,
    });
    await record(conversation, handover?.events ?? []);
  }

  return {
    visibleInboxIds,

    /** A conversation the caller may see (404 otherwise), as the store keeps it. */
    find: conversationFor,

    async list(
      accountId: number,
      caller: Caller,
      standing: Role | 'bot',
      query: z.infer<typeof ConversationListQuery>,
    ) {
      const filter = {
        accountId,
        now: now(),
        inboxIds: await visibleInboxIds(accountId, caller, standing),
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
      const conversation = await conversationFor(accountId, caller, standing, id);
      const filter = {
        accountId,
        now: now(),
        inboxIds: await visibleInboxIds(accountId, caller, standing),
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
      const conversation = await conversationFor(accountId, caller, standing, id);
      const read = await sql.transaction(async (tx) => {
        const ids = await markReadByPeople(tx, conversation.record.id, now());
        const changes: Change[] = ids.map((messageId) => ({ type: 'message.status', messageId, status: 'read' }));
        await publisher.record(tx, conversation.record, changes);
        return changes;
      });
      publisher.publish(conversation.record, ...read);
      return reread(conversation);
    },

    async get(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      return conversationShape(await conversationFor(accountId, caller, standing, id));
    },

    async messages(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const conversation = await conversationFor(accountId, caller, standing, id);
      const rows = await deskMessages(sql, conversation.record.id);
      // Only customers send files: their attachments are read when the conversation has customer messages.
      const customers = rows.filter((row) => row.author === 'customer').map((row) => row.id);
      const files = await attachmentsOfMessages(sql, customers);
      const place = { accountId, conversationId: conversation.record.id, base: publicUrl };
      return {
        payload: rows.map((row) =>
          messageShape(row, deskAttachmentShapes(files.get(row.id) ?? [], { ...place, messageId: row.id })),
        ),
      };
    },

    async reply(
      accountId: number,
      caller: Caller,
      standing: Role | 'bot',
      id: number,
      body: z.infer<typeof DeskMessageCreate>,
    ): Promise<DeskMessage> {
      const conversation = await conversationFor(accountId, caller, standing, id);
      const author = caller.kind === 'user' ? (caller.user.displayName ?? caller.user.name) : caller.bot.name;
      const sender: MessageSender = caller.kind === 'user' ? { userId: caller.user.id } : { agentBotId: caller.bot.id };
      const key = body.echo_id ?? randomUUID();
      if (body.private) {
        const note = {
          author: 'human' as const,
          authorName: author,
          text: body.content,
          messageId: `note.${key}`,
          private: true,
          sender,
        };
        const id = await commit(conversation.record, async (tx) => {
          const { message } = await insertMessage(tx, conversation.record, note, now());
          return { value: message.id, change: { type: 'note.created', messageId: message.id } };
        });
        return messageShape((await deskMessages(sql, conversation.record.id, { ids: [id] }))[0]!);
      }
      if (conversation.record.status === 'resolved')
        throw new ParleyError(
          'invalid_state',
          'This conversation is resolved; reopen it (toggle_status open) to answer.',
        );
      // A person who answers takes the conversation over: the AI goes quiet.
      if (conversation.record.handledBy === 'ai')
        await handOver(conversation.record, 'a person answered from the helpdesk', key);
      const engineId = await engineConversation(conversation.record);
      const authorRef = 'userId' in sender ? `user:${sender.userId}` : `agent_bot:${sender.agentBotId}`;
      const answer = await (
        await engineOf(conversation.record)
      )
        .humanMessage(
          engineId,
          { text: body.content, author_name: author, author_ref: authorRef },
          `human-${conversation.record.uuid}-${key}`,
        )
        .catch(engineFailure);
      await record(conversation.record, answer.events);
      const event = answer.events.find((candidate) => candidate.type === 'conversation.human_message');
      if (!event)
        throw new ParleyError(
          'upstream_unavailable',
          'The AI engine did not confirm the message; try again with the same echo_id.',
        );
      // An engine that does not echo author_ref leaves the sender to be filled in here.
      await setMessageSender(sql, event.id, sender);
      const [stored] = await deskMessages(sql, conversation.record.id, { eventId: event.id });
      if (!stored)
        throw new ParleyError(
          'upstream_unavailable',
          'The AI engine did not confirm the message; try again with the same echo_id.',
        );
      return messageShape(stored);
    },

    async assign(accountId: number, caller: Caller, standing: Role | 'bot', id: number, assigneeId: number | null) {
      const conversation = await conversationFor(accountId, caller, standing, id);
      if (assigneeId !== null && !(await roleIn(sql, accountId, assigneeId))) {
        throw new ParleyError('unprocessable', `User ${assigneeId} is not a person of this account.`, {
          problems: [{ field: 'assignee_id', message: 'not a person of this account' }],
        });
      }
      await commit(conversation.record, async (tx) => {
        await setAssignee(tx, conversation.record.id, assigneeId);
        return { value: undefined, change: { type: 'assigned', assigneeId } };
      });
      return conversationShape({ ...conversation, assigneeId });
    },

    async handback(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const conversation = await conversationFor(accountId, caller, standing, id);
      if (conversation.record.status === 'resolved' || conversation.record.handledBy !== 'human') {
        throw new ParleyError('invalid_state', 'Only an open conversation that people answer can go back to the AI.');
      }
      await toPending(conversation);
      return reread(conversation);
    },

    /**
     * Chatwoot's toggle_status: `resolved` closes it as the customer's close does (a survey question
     * when the inbox asks, the engine told through the outbox); `pending` gives it back to the AI;
     * `snoozed` snoozes it; `open` hands it to people, ends a snooze, or reopens a resolved one.
     * Asking for the status it has changes nothing; without a status it is resolved, or reopened.
     */
    async setStatus(
      accountId: number,
      caller: Caller,
      standing: Role | 'bot',
      id: number,
      change: z.infer<typeof StatusChange>,
    ) {
      const conversation = await conversationFor(accountId, caller, standing, id);
      const { record: current, status } = conversation;
      const wanted = change.status ?? (status === 'resolved' ? 'open' : 'resolved');
      if (status === 'resolved' && (wanted === 'pending' || wanted === 'snoozed')) {
        throw new ParleyError(
          'invalid_state',
          `A resolved conversation is not made ${wanted}; reopen it with status open (people answer it then).`,
        );
      }
      switch (wanted) {
        case 'resolved':
          if (status === 'resolved') break;
          await conversations.close(
            {
              inboxId: current.inboxId,
              customerRef: current.customerRef,
              environment: current.environment,
              verified: false,
            },
            current.uuid,
          );
          break;
        case 'pending':
          await toPending(conversation);
          break;
        case 'snoozed':
          await snooze(
            current,
            change.snoozed_until == null ? UNTIL_CUSTOMER_WRITES : new Date(change.snoozed_until * 1000),
          );
          break;
        case 'open':
          if (status === 'resolved') {
            await reopen(current);
            break;
          }
          if (current.handledBy === 'ai')
            await handOver(current, 'a person took the conversation from the helpdesk', randomUUID());
          if (status === 'snoozed') await snooze(current, null);
          break;
      }
      return reread(conversation);
    },
  };
}

export type DeskConversationService = ReturnType<typeof createDeskConversationService>;
