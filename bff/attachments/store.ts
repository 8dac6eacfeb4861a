import type { MediaType } from '../../shared/server/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import { isConversationUuid, type ConversationOwner } from '../store/conversations.ts';

/** Who sent a file: the customer (widget or Client API), or a person of the helpdesk (`desk`). */
export type AttachmentUploader = 'widget' | 'client_api' | 'desk';

/** An attachment as the BFF keeps it: what it is (checked by its content), whose message, and where its bytes are. */
export interface AttachmentRecord {
  id: number;
  messageId: number;
  conversationId: number;
  storageKey: string;
  contentType: MediaType;
  size: number;
  width: number | null;
  height: number | null;
  name: string;
  createdAt: Date;
}

/** A file to keep with a message: its bytes are stored under `storageKey` already (`noteObjects` first). */
export interface NewAttachment {
  storageKey: string;
  contentType: MediaType;
  size: number;
  width: number | undefined;
  height: number | undefined;
  name: string;
}

interface AttachmentRow {
  id: number;
  message_id: number;
  conversation_id: number;
  storage_key: string;
  content_type: MediaType;
  size: number;
  width: number | null;
  height: number | null;
  name: string;
  created_at: Date;
}

const COLUMNS =
  'a.id, a.message_id, a.conversation_id, a.storage_key, a.content_type, a.size, a.width, a.height, a.name, a.created_at';

const toRecord = (row: AttachmentRow): AttachmentRecord => ({
  id: Number(row.id),
  messageId: Number(row.message_id),
  conversationId: Number(row.conversation_id),
  storageKey: row.storage_key,
  contentType: row.content_type,
  size: row.size,
  width: row.width,
  height: row.height,
  name: row.name,
  createdAt: row.created_at,
});

/** Notes keys about to be written to the storage, so that bytes never kept by a message are found and deleted (`unusedObjects`). */
export async function noteObjects(db: Queryable, keys: readonly string[], now: Date): Promise<void> {
  await db.query('INSERT INTO attachment_objects (storage_key, created_at) SELECT unnest($1::text[]), $2', [keys, now]);
}

/** Keeps the attachments of a new message, in the order given. */
export async function insertAttachments(
  db: Queryable,
  message: { id: number; conversationId: number; uploader: AttachmentUploader },
  files: readonly NewAttachment[],
  now: Date,
): Promise<AttachmentRecord[]> {
  const rows = await db.query<AttachmentRow>(
    `INSERT INTO attachments AS a (message_id, conversation_id, uploader, storage_key, content_type, size, width, height, name, created_at)
     SELECT $1, $2, $3, f->>'storage_key', f->>'content_type', (f->>'size')::integer, (f->>'width')::integer, (f->>'height')::integer, f->>'name', $4
     FROM jsonb_array_elements($5::jsonb) WITH ORDINALITY AS e(f, n)
     ORDER BY e.n
     RETURNING ${COLUMNS}`,
    [
      message.id,
      message.conversationId,
      message.uploader,
      now,
      JSON.stringify(
        files.map((file) => ({
          storage_key: file.storageKey,
          content_type: file.contentType,
          size: file.size,
          width: file.width ?? null,
          height: file.height ?? null,
          name: file.name,
        })),
      ),
    ],
  );
  return rows.map(toRecord).sort((a, b) => a.id - b.id);
}

/**
 * An attachment with where its conversation is: the inbox's Client API identifier and its account
 * (for the APIs' addresses), and what was heard in it for the team (a voice note's, once heard).
 */
export interface PlacedAttachment extends AttachmentRecord {
  inboxIdentifier: string | null;
  accountId: number | null;
  transcript: string | null;
}

/** The attachments of these messages, by message id, each message's in the order they were sent. */
export async function attachmentsOfMessages(
  db: Queryable,
  messageIds: readonly number[],
): Promise<Map<number, PlacedAttachment[]>> {
  const byMessage = new Map<number, PlacedAttachment[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db.query<
    AttachmentRow & { inbox_identifier: string | null; account_id: number | null; transcript: string | null }
  >(
    `SELECT ${COLUMNS}, i.identifier AS inbox_identifier, i.account_id, a.transcript
     FROM attachments a JOIN conversations c ON c.id = a.conversation_id JOIN inboxes i ON i.id = c.inbox_id
     WHERE a.message_id = ANY($1::bigint[]) ORDER BY a.id`,
    [messageIds],
  );
  for (const row of rows) {
    const placed = {
      ...toRecord(row),
      inboxIdentifier: row.inbox_identifier,
      accountId: row.account_id,
      transcript: row.transcript,
    };
    byMessage.set(placed.messageId, [...(byMessage.get(placed.messageId) ?? []), placed]);
  }
  return byMessage;
}

/** An attachment of one conversation (by the BFF's own conversation id); undefined for any other. */
export async function findAttachment(
  db: Queryable,
  conversationId: number,
  id: number,
): Promise<AttachmentRecord | undefined> {
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  const [row] = await db.query<AttachmentRow>(
    `SELECT ${COLUMNS} FROM attachments a WHERE a.id = $1 AND a.conversation_id = $2`,
    [id, conversationId],
  );
  return row && toRecord(row);
}

/**
 * Where an upload goes, asked before its bytes are stored: the customer's conversation `uuid` (its
 * status), and the message kept already with this `message_id` (an upload sent again). Undefined
 * for anyone else's conversation.
 */
export async function findUploadTarget(
  db: Queryable,
  owner: ConversationOwner,
  uuid: string,
  messageId: string,
): Promise<{ status: 'open' | 'resolved'; keptMessageId: number | undefined } | undefined> {
  if (!isConversationUuid(uuid)) return undefined;
  const [row] = await db.query<{ status: 'open' | 'resolved'; kept_id: number | null }>(
    `SELECT c.status, (SELECT m.id FROM messages m WHERE m.conversation_id = c.id AND m.message_id = $5) AS kept_id
     FROM conversations c WHERE c.uuid = $1 AND c.inbox_id = $2 AND c.customer_ref = $3 AND c.environment = $4`,
    [uuid, owner.inboxId, owner.customerRef, owner.environment, messageId],
  );
  return row && { status: row.status, keptMessageId: row.kept_id === null ? undefined : Number(row.kept_id) };
}

/**
 * Deletes the attachments of these conversations and gives their storage keys, whose bytes the
 * caller deletes next (`forgetObjects` after): an erasure, which must not wait for the sweep.
 */
export async function deleteConversationAttachments(
  db: Queryable,
  conversationIds: readonly number[],
): Promise<string[]> {
  if (conversationIds.length === 0) return [];
  const rows = await db.query<{ storage_key: string }>(
    'DELETE FROM attachments WHERE conversation_id = ANY($1::bigint[]) RETURNING storage_key',
    [conversationIds],
  );
  return rows.map((row) => row.storage_key);
}

/**
 * Keys noted before `before` that no attachment holds (its message, conversation, inbox or account
 * was deleted, or its send failed): their bytes are deleted, then `forgetObjects`. Newer keys may
 * belong to an upload still on its way.
 */
export async function unusedObjects(db: Queryable, before: Date, limit = 500): Promise<string[]> {
  const rows = await db.query<{ storage_key: string }>(
    `SELECT o.storage_key FROM attachment_objects o
     WHERE o.created_at < $1 AND NOT EXISTS (SELECT 1 FROM attachments a WHERE a.storage_key = o.storage_key)
     ORDER BY o.created_at LIMIT $2`,
    [before, limit],
  );
  return rows.map((row) => row.storage_key);
}

/** Forgets keys whose bytes are deleted; a key an attachment holds stays (the sweep raced a new upload). */
export async function forgetObjects(db: Queryable, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.query(
    'DELETE FROM attachment_objects o WHERE o.storage_key = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM attachments a WHERE a.storage_key = o.storage_key)',
    [keys],
  );
}
