import type { Logger, Sql } from '../../shared/server/index.ts';
import { deleteConversationAttachments, forgetObjects, unusedObjects } from './store.ts';
import type { AttachmentStorage } from './storage.ts';

/** Bytes not kept by any message are deleted once this old (an upload still on its way is younger). */
export const UNUSED_OBJECT_AGE_MS = 60 * 60_000;

export interface AttachmentDisposalDeps {
  sql: Sql;
  storage: AttachmentStorage;
  logger: Logger;
  now: () => Date;
}

/**
 * Deleting attachments' bytes: after an erasure, for uploads no message kept, and in the sweep.
 * It needs only the store and the storage, so it is built before the conversations (the erasure
 * of a forgotten customer, which the engine link runs, uses it) and the attachment service uses it.
 */
export function createAttachmentDisposal({ sql, storage, logger, now }: AttachmentDisposalDeps) {
  /** Deletes bytes that no message kept; a key whose bytes could not be deleted stays noted, for the sweep. */
  async function discard(keys: readonly string[]): Promise<void> {
    const deleted = await Promise.all(
      keys.map((key) =>
        storage.delete(key).then(
          () => key,
          (error: unknown) => {
            logger.warn({ err: error }, 'an attachment could not be deleted from its storage; the sweep tries again');
            return undefined;
          },
        ),
      ),
    );
    await forgetObjects(
      sql,
      deleted.filter((key): key is string => key !== undefined),
    );
  }

  return {
    discard,

    /** Deletes the attachments of these conversations, rows and bytes, at once (an erasure); gives how many. */
    async erase(conversationIds: readonly number[]): Promise<number> {
      const keys = await deleteConversationAttachments(sql, conversationIds);
      await discard(keys);
      return keys.length;
    },

    /** Deletes bytes no attachment keeps any more (deleted with an inbox or an account, or never kept); gives how many. */
    async sweep(): Promise<number> {
      const keys = await unusedObjects(sql, new Date(now().getTime() - UNUSED_OBJECT_AGE_MS));
      await discard(keys);
      return keys.length;
    },
  };
}

export type AttachmentDisposal = ReturnType<typeof createAttachmentDisposal>;
