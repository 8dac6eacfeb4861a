/**
 * A conversation's messages for people: every one read (private notes included, each with who wrote
 * it and the customer's files), a private note written, and an answer sent to the customer through
 * the AI engine (handing the conversation to people first when the AI has it).
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { DeskMessage, DeskMessageCreate } from '../../shared/schemas/helpdesk/index.ts';
import { attachmentsOfMessages } from '../attachments/store.ts';
import { deskAttachmentShapes } from '../attachments/shapes.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import { insertMessage, setMessageSender, type MessageSender } from '../store/messages.ts';
import type { Role } from './store/accounts.ts';
import { assignIfUnassigned, deskMessages } from './store/desk-conversations.ts';
import type { Caller } from './auth.ts';
import type { DeskCommit } from './desk-commit.ts';
import type { DeskConversationAccess } from './desk-conversation-access.ts';
import { engineFailure, type DeskEngineMoves } from './desk-engine-moves.ts';
import { deskMessageShape as messageShape } from './shapes.ts';

export interface DeskMessageServiceDeps {
  sql: Sql;
  now: () => Date;
  /** Where people reach the BFF (PUBLIC_URL): attachments' data_url is absolute with it, a path without. */
  publicUrl: string;
  access: DeskConversationAccess;
  commit: DeskCommit;
  moves: DeskEngineMoves;
}

/** What a person (or bot) writes, with who wrote it and the key that makes a retry harmless. */
interface Writing {
  author: string;
  sender: MessageSender;
  key: string;
  text: string;
}

/** A private note: stored here for people only; the engine and the customer never see it. */
async function writeNote(
  { sql, now, commit }: DeskMessageServiceDeps,
  conversation: ConversationRecord,
  { author, sender, key, text }: Writing,
): Promise<DeskMessage> {
  const note = { author: 'human' as const, authorName: author, text, messageId: `note.${key}`, private: true, sender };
  const id = await commit(conversation, async (tx) => {
    const { message } = await insertMessage(tx, conversation, note, now());
    return { value: message.id, change: { type: 'note.created', messageId: message.id } };
  });
  return messageShape((await deskMessages(sql, conversation.id, { ids: [id] }))[0]!);
}

/** An answer: made in the engine first, then read back as the engine's event stored it. */
async function answerCustomer(
  { sql, moves }: DeskMessageServiceDeps,
  conversation: ConversationRecord,
  { author, sender, key, text }: Writing,
): Promise<DeskMessage> {
  if (conversation.status === 'resolved')
    throw new ParleyError('invalid_state', 'This conversation is resolved; reopen it (toggle_status open) to answer.');
  // A person who answers takes the conversation over: the AI goes quiet.
  if (conversation.handledBy === 'ai') await moves.handOver(conversation, 'a person answered from the helpdesk', key);
  const engineId = await moves.engineConversation(conversation);
  const authorRef = 'userId' in sender ? `user:${sender.userId}` : `agent_bot:${sender.agentBotId}`;
  const answer = await (
    await moves.engineOf(conversation)
  )
    .humanMessage(engineId, { text, author_name: author, author_ref: authorRef }, `human-${conversation.uuid}-${key}`)
    .catch(engineFailure);
  await moves.recordEvents(conversation, answer.events);
  const event = answer.events.find((candidate) => candidate.type === 'conversation.human_message');
  if (!event)
    throw new ParleyError(
      'upstream_unavailable',
      'The AI engine did not confirm the message; try again with the same echo_id.',
    );
  // An engine that does not echo author_ref leaves the sender to be filled in here.
  await setMessageSender(sql, event.id, sender);
  const [stored] = await deskMessages(sql, conversation.id, { eventId: event.id });
  if (!stored)
    throw new ParleyError(
      'upstream_unavailable',
      'The AI engine did not confirm the message; try again with the same echo_id.',
    );
  return messageShape(stored);
}

/** The conversation becomes the person's, unless someone has it meanwhile. */
async function takeOver({ commit }: DeskMessageServiceDeps, conversation: ConversationRecord, userId: number) {
  await commit(conversation, async (tx) => {
    const taken = await assignIfUnassigned(tx, conversation.id, userId);
    const [row] = await tx.query<{ assignee_id: number | null }>(
      'SELECT assignee_id FROM conversations WHERE id = $1',
      [conversation.id],
    );
    return { value: taken, change: { type: 'assigned', assigneeId: row?.assignee_id ?? userId } };
  });
}

export function createDeskMessageService(deps: DeskMessageServiceDeps) {
  const { sql, publicUrl, access } = deps;
  return {
    async messages(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const conversation = await access.find(accountId, caller, standing, id);
      const rows = await deskMessages(sql, conversation.record.id);
      // Customers and people send files (people's: bff/attachments/desk-files.ts); the AI never does.
      const senders = rows.filter((row) => row.author === 'customer' || row.author === 'human').map((row) => row.id);
      const files = await attachmentsOfMessages(sql, senders);
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
      const conversation = await access.find(accountId, caller, standing, id);
      const writing: Writing = {
        author: caller.kind === 'user' ? (caller.user.displayName ?? caller.user.name) : caller.bot.name,
        sender: caller.kind === 'user' ? { userId: caller.user.id } : { agentBotId: caller.bot.id },
        key: body.echo_id ?? randomUUID(),
        text: body.content,
      };
      if (body.private) return writeNote(deps, conversation.record, writing);
      const answer = await answerCustomer(deps, conversation.record, writing);
      // A person who answers an unassigned conversation takes it (Chatwoot's): others see who has it.
      if (caller.kind === 'user' && conversation.assigneeId === null)
        await takeOver(deps, conversation.record, caller.user.id);
      return answer;
    },
  };
}
