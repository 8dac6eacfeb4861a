import { join } from 'node:path';
import type { Logger } from '../../shared/server/index.ts';
import { FileAttachmentStorage } from './file-storage.ts';
import { S3AttachmentStorage, type S3Settings } from './s3-storage.ts';
import { MemoryAttachmentStorage, type AttachmentStorage } from './storage.ts';

/**
 * Where attachments go (ATTACHMENTS_S3_*, else DATA_DIR), the largest file taken
 * (ATTACHMENTS_MAX_BYTES) and the most one account keeps (ATTACHMENTS_STORAGE_MAX_BYTES, 1 GiB when unset).
 */
export interface AttachmentSettings {
  s3: S3Settings | undefined;
  maxBytes: number;
  storageMaxBytes?: number | undefined;
}

/** What createBff takes: the storage, the largest file a customer may attach, and the most one account keeps. */
export interface Attachments {
  storage: AttachmentStorage;
  maxBytes: number;
  storageMaxBytes?: number | undefined;
}

/**
 * The attachment storage the settings choose: the bucket when one is set, else files under
 * `DATA_DIR/attachments/`, else (`DATA_DIR=memory://`) memory. Files under DATA_DIR are this node's
 * own: with several nodes (REDIS_URL) they must share DATA_DIR, or use a bucket, which is said in
 * the log at start.
 */
export function openAttachments(
  settings: { dataDir: string; redisUrl?: string | undefined; attachments: AttachmentSettings },
  logger: Logger,
): Attachments {
  const { s3, maxBytes, storageMaxBytes } = settings.attachments;
  if (s3) return { storage: new S3AttachmentStorage(s3), maxBytes, storageMaxBytes };
  if (settings.dataDir.startsWith('memory://'))
    return { storage: new MemoryAttachmentStorage(), maxBytes, storageMaxBytes };
  const dir = join(settings.dataDir, 'attachments');
  if (settings.redisUrl) {
    logger.warn(
      { dir },
      "attachments are kept in this node's DATA_DIR: with several nodes, give them one shared DATA_DIR or set ATTACHMENTS_S3_URL",
    );
  }
  return { storage: new FileAttachmentStorage(dir), maxBytes, storageMaxBytes };
}
