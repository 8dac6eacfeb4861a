import { ParleyError, randomToken, type WidgetAttachment, type WidgetMessage } from '../../shared/index.ts';
import {
  inspectMedia,
  type Logger,
  type MediaFacts,
  type Queryable,
  type RateLimiter,
  type Sql,
  type UploadedFile,
} from '../../shared/server/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import type { Sender } from '../widget/message-limits.ts';
import type { Session } from '../widget/sessions.ts';
import {
  findAttachment,
  findUploadTarget,
  insertAttachments,
  noteObjects,
  type AttachmentRecord,
  type AttachmentUploader,
} from './store.ts';
import { findMessage, widgetAttachment } from '../store/messages.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import { safeFileName } from './file-names.ts';
import type { AttachmentStorage } from './storage.ts';
import type { AttachmentDisposal } from './disposal.ts';
import { ATTACHMENTS_STORAGE_MAX_BYTES, makeRoom } from './storage-cap.ts';

/** At most this many files with one message, as Chatwoot's limit (NUMBER_OF_PERMITTED_ATTACHMENTS). */
export const MAX_FILES_PER_MESSAGE = 15;
/** Uploads one customer may make a minute (each is a message too, and counts against the message limit). */
export const UPLOADS_PER_MINUTE = 10;
/** Room for a message's text and the multipart framing, besides its files. */
const TEXT_ROOM = 640 * 1024;

export interface AttachmentServiceDeps {
  sql: Sql;
  storage: AttachmentStorage;
  /** The largest file taken (ATTACHMENTS_MAX_BYTES); all files of one message together fit in it too. */
  maxBytes: number;
  /** The most bytes of files one helpdesk account keeps (ATTACHMENTS_STORAGE_MAX_BYTES; 1 GiB when unset). */
  storageMaxBytes?: number | undefined;
  conversations: Pick<ConversationService, 'send'>;
  limiter: RateLimiter;
  logger: Logger;
  now: () => Date;
  /** Deletes bytes (built before this service: the erasure of a forgotten customer uses it too). */
  disposal: AttachmentDisposal;
}

/** The deps with the storage cap settled. */
type SettledDeps = AttachmentServiceDeps & { storageMaxBytes: number };

/** A customer's message with files: the words (optional) and the message id that makes a retry harmless. */
export interface AttachmentMessage {
  text: string | undefined;
  messageId: string;
  uploader: AttachmentUploader;
}

/** A file checked by its bytes, with the random key it is (or will be) stored under. */
export interface CheckedFile extends MediaFacts {
  key: string;
  name: string;
  bytes: Buffer;
}

/** The customer sending: whose message it is, and whether their session still stands. */
type Customer = Sender & Pick<Session, 'standingToCheck'>;

interface Sent {
  message: WidgetMessage;
  created: boolean;
}

/**
 * Attachments: a customer's files are checked by their bytes (`inspectMedia`: kind, size,
 * decompression bombs) before anything is kept, stored under random keys, and kept with a new
 * message in the transaction that keeps the message, which goes to the engine named by its files
 * (`engineText` in `bff/store/outbox.ts`). Bytes whose attachment is gone are deleted by `sweep`.
 */
export function createAttachmentService(given: AttachmentServiceDeps) {
  const deps: SettledDeps = { ...given, storageMaxBytes: given.storageMaxBytes ?? ATTACHMENTS_STORAGE_MAX_BYTES };
  const { sql, storage, maxBytes, disposal, storageMaxBytes } = deps;
  return {
    /** The largest upload body read: the files of one message, and their message's text. */
    bodyLimit: maxBytes + TEXT_ROOM,

    /** The largest file taken, and the largest total of one message's files (an e-mail reply's, `bff/email`). */
    maxBytes,

    /**
     * Keeps the customer's message with its files. The same `messageId` again gives the first
     * copy back (nothing is stored twice); a refused file keeps nothing.
     */
    async send(
      customer: Customer,
      uuid: string,
      message: AttachmentMessage,
      files: readonly UploadedFile[],
    ): Promise<{ message: WidgetMessage; created: boolean }> {
      return sendWithFiles(deps, customer, uuid, message, files);
    },

    /** An attachment of a conversation (the BFF's id of it), with its bytes; 404 for any other. */
    async open(conversationId: number, attachmentId: string): Promise<{ attachment: AttachmentRecord; bytes: Buffer }> {
      const attachment = await findAttachment(sql, conversationId, Number(attachmentId));
      const bytes = attachment && (await storage.get(attachment.storageKey));
      if (!attachment || !bytes)
        throw new ParleyError('not_found', `No attachment ${attachmentId} in this conversation.`);
      return { attachment, bytes };
    },

    /**
     * Checks files by their bytes and writes them under new keys, for a message kept elsewhere (a
     * person's, `desk-files.ts`); the caller discards the keys when no message keeps them.
     */
    async write(files: readonly UploadedFile[]): Promise<CheckedFile[]> {
      const checked = checkFiles(files, maxBytes);
      const keys = checked.map((file) => file.key);
      await noteObjects(sql, keys, deps.now());
      try {
        await Promise.all(checked.map((file) => storage.put(file.key, file.bytes, file.type)));
      } catch (error) {
        await disposal.discard(keys);
        throw error;
      }
      return checked;
    },

    /**
     * Refuses, in the transaction that keeps a message, files that would take the conversation's
     * account past its storage cap (413 `storage_full`): for files kept by another path (`desk-files.ts`).
     */
    makeRoom: (tx: Queryable, conversationId: number, files: readonly CheckedFile[]): Promise<void> =>
      makeRoom(tx, conversationId, totalSize(files), storageMaxBytes),

    /** Keeps written files with a new message, in its transaction, within the account's storage cap (an e-mail reply's, `bff/email`). */
    keep: (
      tx: Queryable,
      created: WidgetMessage,
      conversation: ConversationRecord,
      uploader: AttachmentUploader,
      checked: readonly CheckedFile[],
    ): Promise<WidgetAttachment[]> =>
      keepAttachments(tx, { created, conversation, uploader, checked, now: deps.now(), storageMaxBytes }),

    /** Deletes bytes written by `write` that no message kept. */
    discard: disposal.discard,

    /** Deletes the attachments of these conversations, rows and bytes, at once (an erasure); gives how many. */
    erase: disposal.erase,

    /** Deletes bytes no attachment keeps any more (deleted with an inbox or an account, or never kept); gives how many. */
    sweep: disposal.sweep,
  };
}

export type AttachmentService = ReturnType<typeof createAttachmentService>;

/** `send`: the files checked first, then the conversation, a retry, and the upload limit, before any byte is written. */
async function sendWithFiles(
  deps: SettledDeps,
  customer: Customer,
  uuid: string,
  message: AttachmentMessage,
  files: readonly UploadedFile[],
): Promise<Sent> {
  const { sql, maxBytes, disposal } = deps;
  const checked = checkFiles(files, maxBytes);
  const target = await findUploadTarget(sql, customer, uuid, message.messageId);
  if (!target) throw new ParleyError('not_found', `No conversation ${uuid} for this customer.`);
  if (target.keptMessageId !== undefined)
    return { message: (await findMessage(sql, target.keptMessageId))!, created: false };
  if (target.status === 'resolved')
    throw new ParleyError('invalid_state', `Conversation ${uuid} is resolved; start a new one.`);
  await consumeUpload(deps, customer);
  const sent = await storeAndSend(deps, customer, uuid, message, checked);
  if (sent.created) return sent;
  // Another request kept the same message meanwhile: its files are the ones kept.
  await disposal.discard(checked.map((file) => file.key));
  return { message: (await findMessage(sql, sent.message.id)) ?? sent.message, created: false };
}

function checkFiles(files: readonly UploadedFile[], maxBytes: number): CheckedFile[] {
  if (files.length === 0)
    throw new ParleyError('invalid_request', 'Attach a file: the form has none.', {
      problems: [{ field: 'file', message: 'required' }],
    });
  if (files.length > MAX_FILES_PER_MESSAGE)
    throw new ParleyError('invalid_request', `At most ${MAX_FILES_PER_MESSAGE} files go with one message.`);
  const checked = files.map((file) => {
    const facts = inspectMedia(file.bytes, maxBytes);
    return { ...facts, key: randomToken(32), name: safeFileName(file.name, facts.type), bytes: file.bytes };
  });
  if (totalSize(checked) > maxBytes)
    throw new ParleyError('payload_too_large', `The files of one message may together be at most ${maxBytes} bytes.`);
  return checked;
}

const totalSize = (files: readonly CheckedFile[]) => files.reduce((sum, file) => sum + file.size, 0);

async function consumeUpload({ limiter, now }: AttachmentServiceDeps, customer: Customer): Promise<void> {
  const decision = await limiter.consume(
    `attachments:${customer.inboxId}:${customer.customerRef}`,
    UPLOADS_PER_MINUTE,
    now(),
  );
  if (!decision.allowed) {
    throw new ParleyError(
      'rate_limited',
      `At most ${UPLOADS_PER_MINUTE} uploads a minute from one customer; wait a moment.`,
    ).retryAfter(decision.resetS - now().getTime() / 1000);
  }
}

/** Writes the bytes, then keeps the message with its files; when either fails, the bytes written are deleted. */
async function storeAndSend(
  { sql, storage, conversations, disposal, now, storageMaxBytes }: SettledDeps,
  customer: Customer,
  uuid: string,
  message: AttachmentMessage,
  checked: readonly CheckedFile[],
): Promise<Sent> {
  const keys = checked.map((file) => file.key);
  await noteObjects(sql, keys, now());
  try {
    await Promise.all(checked.map((file) => storage.put(file.key, file.bytes, file.type)));
    return await conversations.send(
      customer,
      uuid,
      { text: message.text ?? '', message_id: message.messageId },
      (tx, created, conversation) =>
        keepAttachments(tx, {
          created,
          conversation,
          uploader: message.uploader,
          checked,
          now: now(),
          storageMaxBytes,
        }),
    );
  } catch (error) {
    await disposal.discard(keys);
    throw error;
  }
}

/** Files to keep with a new message, and the account's storage cap they must fit in. */
interface Keeping {
  created: WidgetMessage;
  conversation: ConversationRecord;
  uploader: AttachmentUploader;
  checked: readonly CheckedFile[];
  now: Date;
  storageMaxBytes: number;
}

/** The files' rows, kept in the message's own transaction when the account has room for them, as the widget shows them. */
async function keepAttachments(
  tx: Queryable,
  { created, conversation, uploader, checked, now, storageMaxBytes }: Keeping,
): Promise<WidgetAttachment[]> {
  await makeRoom(tx, conversation.id, totalSize(checked), storageMaxBytes);
  const rows = await insertAttachments(
    tx,
    { id: created.id, conversationId: conversation.id, uploader },
    checked.map((file) => ({
      storageKey: file.key,
      contentType: file.type,
      size: file.size,
      width: file.width,
      height: file.height,
      name: file.name,
    })),
    now,
  );
  return rows.map((row) =>
    widgetAttachment(conversation.uuid, {
      id: row.id,
      content_type: row.contentType,
      name: row.name,
      size: row.size,
      width: row.width,
      height: row.height,
    }),
  );
}
