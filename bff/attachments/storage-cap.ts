import { ParleyError } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';

/** The most bytes of files one helpdesk account keeps (ATTACHMENTS_STORAGE_MAX_BYTES), 1 GiB, as the engine's media cap. */
export const ATTACHMENTS_STORAGE_MAX_BYTES = 1024 * 1024 * 1024;

/** Whose storage a conversation's files count in: its inbox's account, or (null) the inboxes of no account together. */
async function storageOwnerOf(tx: Queryable, conversationId: number): Promise<number | null> {
  const [row] = await tx.query<{ account_id: number | null }>(
    'SELECT i.account_id FROM conversations c JOIN inboxes i ON i.id = c.inbox_id WHERE c.id = $1',
    [conversationId],
  );
  return row?.account_id ?? null;
}

/**
 * The bytes of files an account keeps now, counted plainly over its attachments (every kind, every
 * uploader, both environments); a file deleted or erased is no longer counted.
 */
async function keptBytes(tx: Queryable, accountId: number | null): Promise<number> {
  const [row] = await tx.query<{ bytes: number | string }>(
    `SELECT coalesce(sum(a.size), 0)::bigint AS bytes
     FROM attachments a JOIN conversations c ON c.id = a.conversation_id JOIN inboxes i ON i.id = c.inbox_id
     WHERE ${accountId === null ? 'i.account_id IS NULL' : 'i.account_id = $1'}`,
    accountId === null ? [] : [accountId],
  );
  return Number(row?.bytes ?? 0);
}

/**
 * Refuses files that would take the account past `cap` (413 `storage_full`, so the message and
 * its files are not kept), in the transaction that keeps them. The account's storage is locked
 * until that transaction ends (an advisory lock: the inboxes of no account have no row to lock),
 * so uploads at the same instant are counted one after the other and the cap holds.
 */
export async function makeRoom(tx: Queryable, conversationId: number, adding: number, cap: number): Promise<void> {
  const accountId = await storageOwnerOf(tx, conversationId);
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`attachments-storage:${accountId ?? 'none'}`]);
  const kept = await keptBytes(tx, accountId);
  if (kept + adding <= cap) return;
  throw new ParleyError(
    'storage_full',
    `This account's file storage is full: it keeps ${kept} of ${cap} bytes, and these files have ${adding}. ` +
      'Nothing was kept; older files free their room when their conversations are deleted.',
    { kept_bytes: kept, max_bytes: cap },
  );
}
