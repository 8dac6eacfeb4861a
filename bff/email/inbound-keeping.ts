/**
 * Where an e-mail reply that passed the checks of `inbound-mail.ts` is kept, with its files
 * (`inbound-attachments.ts`): as the customer's message, through the widget's own sending, a
 * resolved conversation reopened first for people as the console's reopening does (the console and
 * the helpdesk webhooks are told); or, from another sender, as a private note for the team.
 */
import type { ParsedMail } from 'mailparser';
import { ParleyError } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import { createDeskCommit } from '../helpdesk/desk-commit.ts';
import { createDeskEngineMoves, type DeskEngineMovesDeps } from '../helpdesk/desk-engine-moves.ts';
import { reopenForPeople, type DeskReopeningDeps } from '../helpdesk/desk-reopening.ts';
import type { CheckedFile } from '../attachments/attachment-service.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import { insertMessage } from '../store/messages.ts';
import { attachTo, logDropped, writeMailFiles, type InboundAttachmentService } from './inbound-attachments.ts';

export interface ReplyKeepingDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  conversations: Pick<ConversationService, 'send'>;
  publisher: Publisher;
  /** The widget uploads' checks and storage, for the files of a reply. */
  attachments: InboundAttachmentService;
  /** The engines and the recorder of their events: a reopening opens a new engine conversation, handed to people. */
  engines: DeskEngineMovesDeps['engines'];
  recorder: DeskEngineMovesDeps['recorder'];
}

/** One reply: its conversation, the mail (for its files), the id that keeps a retry harmless, and its words. */
export interface Reply {
  conversation: ConversationRecord;
  mail: ParsedMail;
  messageId: string;
  text: string;
}

/**
 * The customer's message with its files, through the widget's own sending (limits, webhooks, relay
 * to the AI). A resolved conversation takes no new message, so it is reopened for people (the AI's
 * part ended with the resolve) and the message sent again; gives whether the message was new.
 */
async function sendAsCustomer(
  { conversations, logger, attachments }: ReplyKeepingDeps,
  reopening: DeskReopeningDeps,
  { conversation, messageId, text }: Reply,
  from: string,
  files: CheckedFile[],
): Promise<boolean> {
  const attach = files.length > 0 ? attachTo(attachments, files, logger) : undefined;
  const sender = {
    inboxId: conversation.inboxId,
    customerRef: conversation.customerRef,
    environment: conversation.environment,
    verified: false,
    address: `email:${from}`,
  };
  const send = async () =>
    (await conversations.send(sender, conversation.uuid, { text, message_id: messageId }, attach)).created;
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof ParleyError) || error.code !== 'invalid_state') throw error;
    await reopenForPeople(reopening, conversation);
    logger.info({ conversation: conversation.uuid }, 'an e-mail reply reopened a resolved conversation');
    return await send();
  }
}

export function createReplyKeeping(deps: ReplyKeepingDeps) {
  const { sql, logger, now, attachments } = deps;
  const commit = createDeskCommit({ sql, publisher: deps.publisher });
  const reopening = { sql, now, commit, moves: createDeskEngineMoves(deps) };

  /** Keeps the reply with the files that pass; the files' bytes go when nothing keeps them. */
  async function withFiles(reply: Reply, keeping: (files: CheckedFile[]) => Promise<boolean>): Promise<void> {
    const { kept, dropped } = await writeMailFiles(attachments, reply.mail.attachments);
    logDropped(logger, reply.conversation.uuid, dropped);
    const keys = kept.map((file) => file.key);
    try {
      // A retry of a kept reply: the files of the first copy are the ones kept.
      if (!(await keeping(kept))) await attachments.discard(keys);
    } catch (error) {
      await attachments.discard(keys);
      throw error;
    }
  }

  return {
    /** The customer's message (reopening a resolved conversation for people). */
    message: (reply: Reply, from: string): Promise<void> =>
      withFiles(reply, (files) => sendAsCustomer(deps, reopening, reply, from, files)),

    /** A private note for the team, with the reply's files; it never reopens a resolved conversation. */
    note: (reply: Reply): Promise<void> =>
      withFiles(reply, async (files) => {
        const { conversation, messageId, text } = reply;
        const created = await commit(conversation, async (tx) => {
          const note = { author: 'human' as const, authorName: 'E-mail', text, messageId, private: true };
          const { message, created } = await insertMessage(tx, conversation, note, now());
          if (created && files.length > 0) await attachTo(attachments, files, logger)(tx, message, conversation);
          return { value: created, change: { type: 'note.created', messageId: message.id } };
        });
        return created === true;
      }),
  };
}
