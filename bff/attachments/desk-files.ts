/**
 * A person's files (issue 31): an agent attaches photos or PDFs to an answer from the console, or
 * through the Application API as Chatwoot does (multipart `attachments[]` on `POST …/messages`).
 * The files are checked by their bytes as the customer's are (`AttachmentService.write`: kind,
 * size, decompression bombs), and kept with the message in one transaction, so the customer's
 * widget is pushed the message with its files at once.
 *
 * The message is the BFF's own, as a private note is: the AI engine is not told of it (its
 * human-message event has no files, and its echo would come back as a second message). When the AI
 * has the conversation, it is handed to people first, as an answer in words is.
 */
import { randomUUID } from 'node:crypto';
import { ParleyError } from '../../shared/index.ts';
import type { Queryable, Sql, UploadedFile } from '../../shared/server/index.ts';
import type { DeskMessage } from '../../shared/schemas/helpdesk/index.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import { insertMessage, widgetAttachment } from '../store/messages.ts';
import type { Caller } from '../helpdesk/auth.ts';
import type { Role } from '../helpdesk/store/accounts.ts';
import { assignIfUnassigned, deskMessages, type DeskConversation } from '../helpdesk/store/desk-conversations.ts';
import {
  createDeskEngineMoves,
  type DeskEngineMoves,
  type DeskEngineMovesDeps,
} from '../helpdesk/desk-engine-moves.ts';
import type { DeskConversationService } from '../helpdesk/desk-conversation-service.ts';
import { deskMessageShape } from '../helpdesk/shapes.ts';
import type { AttachmentService, CheckedFile } from './attachment-service.ts';
import { deskAttachmentShapes } from './shapes.ts';
import { attachmentsOfMessages, insertAttachments } from './store.ts';

export interface DeskFilesDeps {
  sql: Sql;
  now: () => Date;
  attachments: Pick<AttachmentService, 'write' | 'discard' | 'makeRoom' | 'bodyLimit'>;
  publisher: Pick<Publisher, 'record' | 'publish'>;
  /** The conversation the caller may see (404 otherwise). */
  desk: Pick<DeskConversationService, 'find'>;
  /** The engines of the inboxes and the recorder of their events: a handover to people is made there first. */
  engines: DeskEngineMovesDeps['engines'];
  recorder: DeskEngineMovesDeps['recorder'];
  /** Where people reach the BFF (PUBLIC_URL): data_url is absolute with it, a path without. */
  publicUrl?: string | undefined;
}

/** The words that go with the files (optional), a private note or not, and the key that makes a retry harmless. */
export interface DeskFileMessage {
  content?: string | undefined;
  private: boolean;
  echo_id?: string | undefined;
}

export function createDeskFiles(deps: DeskFilesDeps) {
  const { sql, attachments, publicUrl = '' } = deps;
  const moves: Pick<DeskEngineMoves, 'handOver'> = createDeskEngineMoves(deps);
  return {
    /** The largest body read: the files of one message, and its words. */
    bodyLimit: attachments.bodyLimit,

    /** Sends files (with words or without) into a conversation; the same echo_id again gives the first copy. */
    async send(
      accountId: number,
      caller: Caller,
      standing: Role | 'bot',
      id: number,
      message: DeskFileMessage,
      files: readonly UploadedFile[],
    ): Promise<DeskMessage> {
      const conversation = await deps.desk.find(accountId, caller, standing, id);
      if (conversation.record.status === 'resolved' && !message.private)
        throw new ParleyError(
          'invalid_state',
          'This conversation is resolved; reopen it (toggle_status open) to answer.',
        );
      const checked = await attachments.write(files);
      const keys = checked.map((file) => file.key);
      const key = message.echo_id ?? randomUUID();
      let kept: { id: number; created: boolean };
      try {
        if (!message.private && conversation.record.handledBy === 'ai')
          await moves.handOver(conversation.record, 'a person sent a file from the helpdesk', key);
        kept = await keep(deps, conversation, caller, { ...message, echo_id: key }, checked);
      } catch (error) {
        await attachments.discard(keys);
        throw error;
      }
      // A retry: the files of the first copy are the ones kept.
      if (!kept.created) await attachments.discard(keys);
      const [row] = await deskMessages(sql, conversation.record.id, { ids: [kept.id] });
      const place = { accountId, conversationId: conversation.record.id, messageId: kept.id, base: publicUrl };
      const stored = (await attachmentsOfMessages(sql, [kept.id])).get(kept.id) ?? [];
      return deskMessageShape(row!, deskAttachmentShapes(stored, place));
    },
  };
}

export type DeskFiles = ReturnType<typeof createDeskFiles>;

/** The message and its files in one transaction, then pushed: to the customer with its files, or to people as a note. */
async function keep(
  { sql, now, publisher, attachments }: DeskFilesDeps,
  conversation: DeskConversation,
  caller: Caller,
  message: DeskFileMessage & { echo_id: string },
  checked: readonly CheckedFile[],
): Promise<{ id: number; created: boolean }> {
  const { record } = conversation;
  const at = now();
  const { kept, changes } = await sql.transaction(async (tx) => {
    const { message: stored, created } = await insertMessage(
      tx,
      record,
      {
        author: 'human',
        authorName: caller.kind === 'user' ? (caller.user.displayName ?? caller.user.name) : caller.bot.name,
        text: message.content ?? '',
        messageId: `desk.${message.echo_id}`,
        private: message.private,
        sender: caller.kind === 'user' ? { userId: caller.user.id } : { agentBotId: caller.bot.id },
      },
      at,
    );
    if (!created) return { kept: { id: stored.id, created }, changes: [] };
    await attachments.makeRoom(tx, record.id, checked);
    const rows = await insertAttachments(
      tx,
      { id: stored.id, conversationId: record.id, uploader: 'desk' },
      checked.map((file) => ({ storageKey: file.key, contentType: file.type, ...sizeOf(file), name: file.name })),
      at,
    );
    const files = rows.map((row) => widgetAttachment(record.uuid, { ...row, content_type: row.contentType }));
    const made: Change[] = message.private
      ? [{ type: 'note.created', messageId: stored.id }]
      : [{ type: 'message.created', message: { ...stored, attachments: files } }];
    if (!message.private) made.push(...(await takeOver(tx, conversation, caller)));
    await publisher.record(tx, record, made);
    return { kept: { id: stored.id, created }, changes: made };
  });
  if (changes.length > 0) publisher.publish(record, ...changes);
  return kept;
}

const sizeOf = (file: CheckedFile) => ({ size: file.size, width: file.width, height: file.height });

/** A person who answers an unassigned conversation takes it (Chatwoot's), as with an answer in words. */
async function takeOver(tx: Queryable, conversation: DeskConversation, caller: Caller): Promise<Change[]> {
  if (caller.kind !== 'user' || conversation.assigneeId !== null) return [];
  const taken = await assignIfUnassigned(tx, conversation.record.id, caller.user.id);
  return taken ? [{ type: 'assigned', assigneeId: caller.user.id }] : [];
}
