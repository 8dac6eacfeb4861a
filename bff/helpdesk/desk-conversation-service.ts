import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ParleyError, type EngineEvent } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { ConversationService } from '../conversation-service.ts';
import { EngineCallError, type EngineClient } from '../engine-client.ts';
import type { EngineEventRecorder } from '../engine-events.ts';
import { roleIn, type Role } from '../store/accounts.ts';
import { attachEngineConversation, type ConversationRecord } from '../store/conversations.ts';
import { deskMessages, findDeskConversation, listDeskConversations, setAssignee, type DeskConversation, type DeskMessageRow } from '../store/desk-conversations.ts';
import { insertMessage } from '../store/messages.ts';
import type { Caller } from './auth.ts';
import type { ConversationListQuery, DeskConversation as DeskConversationView, DeskMessage, DeskMessageCreate } from './schemas.ts';

const PER_PAGE = 25;
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

const conversationShape = (conversation: DeskConversation): DeskConversationView => ({
  id: conversation.record.id,
  uuid: conversation.record.uuid,
  account_id: conversation.accountId,
  inbox_id: conversation.inboxDisplayId,
  status: conversation.record.status,
  handled_by: conversation.record.handledBy,
  assignee_id: conversation.assigneeId,
  contact: { name: conversation.contactName, email: conversation.contactEmail },
  last_activity_at: epoch(conversation.lastActivityAt),
  created_at: epoch(conversation.record.createdAt),
});

const messageShape = (row: DeskMessageRow): DeskMessage => ({
  id: row.id,
  content: row.text,
  message_type: row.author === 'customer' ? 0 : row.author === 'system' ? (row.content_type === 'input_csat' ? 3 : 2) : 1,
  content_type: row.content_type,
  private: row.private,
  created_at: epoch(row.created_at),
  conversation_id: row.conversation_id,
  sender:
    row.author === 'customer'
      ? { type: 'contact', name: 'Customer' }
      : row.author === 'ai'
        ? { type: 'agent_bot', name: 'AI assistant' }
        : row.author === 'human'
          ? { type: 'user', name: row.author_name ?? 'Support' }
          : null,
});

/** Engine trouble, as the people's client is told it: try again later, or the move is not allowed now. */
function engineFailure(error: unknown): never {
  if (error instanceof EngineCallError) {
    if (error.code === 'invalid_state') throw new ParleyError('invalid_state', `The AI engine refused: ${error.message}`);
    if (error.retryable) throw new ParleyError('upstream_unavailable', 'The AI engine cannot be reached just now; nothing was sent. Try again.');
  }
  throw error;
}

/**
 * Conversations for the people of an account: list them (administrators see every inbox, agents
 * the inboxes they answer), read every message (notes included), answer (a person's answer hands
 * the conversation to people first when the AI has it), write private notes, assign, hand back to
 * the AI, and resolve. A person's answer reaches the engine at once, or is refused with 503 and
 * nothing stored: the console keeps it and sends it again (with the same echo_id).
 */
export function createDeskConversationService(deps: { sql: Sql; engine: EngineClient; recorder: EngineEventRecorder; conversations: ConversationService; now: () => Date }) {
  const { sql, engine, recorder, conversations, now } = deps;

  /** The inboxes the caller may see: every one (administrators), those they answer (agents), those it is connected to (bots). */
  async function visibleInboxIds(accountId: number, caller: Caller, standing: Role | 'bot'): Promise<string[] | undefined> {
    if (caller.kind === 'agent_bot') {
      return (await sql.query<{ id: string }>('SELECT id FROM inboxes WHERE account_id = $1 AND agent_bot_id = $2', [accountId, caller.bot.id])).map((row) => row.id);
    }
    if (standing !== 'agent') return undefined;
    const rows = await sql.query<{ id: string }>(
      'SELECT i.id FROM inboxes i JOIN inbox_members m ON m.inbox_id = i.id WHERE i.account_id = $1 AND m.user_id = $2',
      [accountId, caller.user.id],
    );
    return rows.map((row) => row.id);
  }

  async function conversationFor(accountId: number, caller: Caller, standing: Role | 'bot', id: number): Promise<DeskConversation> {
    const found = await findDeskConversation(sql, accountId, id);
    const visible = found && (await visibleInboxIds(accountId, caller, standing));
    if (!found || (visible && !visible.includes(found.record.inboxId))) throw new ParleyError('not_found', `No conversation ${id} for you in this account.`);
    return found;
  }

  async function engineConversation(record: ConversationRecord): Promise<string> {
    if (record.engineConversationId) return record.engineConversationId;
    const opened = await engine.openConversation(record.customerRef, `open-${record.uuid}`).catch(engineFailure);
    return (record.engineConversationId = await attachEngineConversation(sql, record.id, opened.id));
  }

  const record = async (conversation: ConversationRecord, events: readonly EngineEvent[]) => recorder.record(conversation, events);

  return {
    async list(accountId: number, caller: Caller, standing: Role | 'bot', query: z.infer<typeof ConversationListQuery>) {
      const filter = {
        accountId,
        inboxIds: await visibleInboxIds(accountId, caller, standing),
        inboxDisplayId: query.inbox_id,
        status: query.status === 'all' ? undefined : query.status,
      };
      const me = caller.kind === 'user' ? caller.user.id : 0;
      const assignee = query.assignee_type === 'me' ? 'mine' : query.assignee_type;
      const { conversations: rows, counts } = await listDeskConversations(sql, filter, assignee, me, { number: query.page, size: PER_PAGE });
      return { data: { meta: { mine_count: counts.mine, unassigned_count: counts.unassigned, all_count: counts.all }, payload: rows.map(conversationShape) } };
    },

    async get(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      return conversationShape(await conversationFor(accountId, caller, standing, id));
    },

    async messages(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const conversation = await conversationFor(accountId, caller, standing, id);
      return { payload: (await deskMessages(sql, conversation.record.id)).map(messageShape) };
    },

    async reply(accountId: number, caller: Caller, standing: Role | 'bot', id: number, body: z.infer<typeof DeskMessageCreate>): Promise<DeskMessage> {
      const conversation = await conversationFor(accountId, caller, standing, id);
      const author = caller.kind === 'user' ? (caller.user.displayName ?? caller.user.name) : caller.bot.name;
      const key = body.echo_id ?? randomUUID();
      if (body.private) {
        const { message } = await insertMessage(sql, conversation.record, { author: 'human', authorName: author, text: body.content, messageId: `note.${key}`, private: true }, now());
        return messageShape((await deskMessages(sql, conversation.record.id, { ids: [message.id] }))[0]!);
      }
      if (conversation.record.status === 'resolved') throw new ParleyError('invalid_state', 'This conversation is resolved; the customer starts a new one.');
      const engineId = await engineConversation(conversation.record);
      if (conversation.record.handledBy === 'ai') {
        // A person who answers takes the conversation over: the AI goes quiet.
        const change = await engine.handover(engineId, 'a person answered from the helpdesk', `handover-${conversation.record.uuid}-${key}`).catch((error: unknown) => {
          // Handed over already (by another request, or the engine itself): go on.
          if (error instanceof EngineCallError && error.code === 'invalid_state') return undefined;
          return engineFailure(error);
        });
        if (change) await record(conversation.record, change.events);
      }
      const answer = await engine.humanMessage(engineId, { text: body.content, author_name: author }, `human-${conversation.record.uuid}-${key}`).catch(engineFailure);
      await record(conversation.record, answer.events);
      const event = answer.events.find((candidate) => candidate.type === 'conversation.human_message');
      const [stored] = event ? await deskMessages(sql, conversation.record.id, { eventId: event.id }) : [];
      if (!stored) throw new ParleyError('upstream_unavailable', 'The AI engine did not confirm the message; try again with the same echo_id.');
      return messageShape(stored);
    },

    async assign(accountId: number, caller: Caller, standing: Role | 'bot', id: number, assigneeId: number | null) {
      const conversation = await conversationFor(accountId, caller, standing, id);
      if (assigneeId !== null && !(await roleIn(sql, accountId, assigneeId))) {
        throw new ParleyError('unprocessable', `User ${assigneeId} is not a person of this account.`, { problems: [{ field: 'assignee_id', message: 'not a person of this account' }] });
      }
      await setAssignee(sql, conversation.record.id, assigneeId);
      return conversationShape({ ...conversation, assigneeId });
    },

    async handback(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const conversation = await conversationFor(accountId, caller, standing, id);
      if (conversation.record.status === 'resolved' || conversation.record.handledBy !== 'human') {
        throw new ParleyError('invalid_state', 'Only an open conversation that people answer can go back to the AI.');
      }
      const change = await engine.handback(await engineConversation(conversation.record), `handback-${conversation.record.uuid}-${randomUUID()}`).catch(engineFailure);
      await record(conversation.record, change.events);
      return conversationShape((await findDeskConversation(sql, accountId, id))!);
    },

    async setStatus(accountId: number, caller: Caller, standing: Role | 'bot', id: number, status: 'open' | 'resolved') {
      const conversation = await conversationFor(accountId, caller, standing, id);
      if (status === 'open') {
        if (conversation.record.status === 'resolved') throw new ParleyError('invalid_state', 'A resolved conversation stays resolved (the AI conversation has ended); the customer starts a new one.');
      } else if (conversation.record.status !== 'resolved') {
        // The same close as the customer's: a survey question when the inbox asks, and the engine told through the outbox.
        await conversations.close({ inboxId: conversation.record.inboxId, customerRef: conversation.record.customerRef, verified: false }, conversation.record.uuid);
      }
      return conversationShape((await findDeskConversation(sql, accountId, id))!);
    },
  };
}

export type DeskConversationService = ReturnType<typeof createDeskConversationService>;
