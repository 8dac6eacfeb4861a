/**
 * The files of an e-mail reply (issue 32: "attachments kept, same checks as the widget's"): each
 * is checked by its bytes and written as a widget upload is (`AttachmentService.write`: kind,
 * size, decompression bombs), one at a time, so that a refused file is dropped with its reason
 * logged while the others and the words still land. They are kept with the customer's message in
 * its own transaction (`attachTo`), as the widget's are.
 */
import type { Attachment } from 'mailparser';
import { ParleyError } from '../../shared/index.ts';
import type { Logger } from '../../shared/server/index.ts';
import type { AttachmentService, CheckedFile } from '../attachments/attachment-service.ts';
import { MAX_FILES_PER_MESSAGE } from '../attachments/attachment-service.ts';
import type { Attach } from '../widget/message-sending.ts';

/** What the reply's files need: the widget's checks and storage, and the largest total one message may carry. */
export type InboundAttachmentService = Pick<AttachmentService, 'write' | 'discard' | 'keep' | 'maxBytes'>;

/** A file left out, and why (logged for the team; the customer is not answered). */
export interface DroppedFile {
  name: string;
  reason: string;
}

/**
 * Checks and writes the files of a mail; gives those kept and those dropped. Inline parts that are
 * not files (a signature's logo is still a file: it is checked like any other) come as mailparser
 * gives them.
 */
export async function writeMailFiles(
  attachments: InboundAttachmentService,
  files: readonly Attachment[],
): Promise<{ kept: CheckedFile[]; dropped: DroppedFile[] }> {
  const kept: CheckedFile[] = [];
  const dropped: DroppedFile[] = [];
  let total = 0;
  for (const file of files) {
    const name = file.filename ?? 'attachment';
    if (kept.length >= MAX_FILES_PER_MESSAGE) {
      dropped.push({ name, reason: `at most ${MAX_FILES_PER_MESSAGE} files go with one message` });
      continue;
    }
    if (total + file.content.length > attachments.maxBytes) {
      dropped.push({ name, reason: `the files of one message may together be at most ${attachments.maxBytes} bytes` });
      continue;
    }
    try {
      const [checked] = await attachments.write([{ field: 'file', name, bytes: file.content }]);
      kept.push(checked!);
      total += checked!.size;
    } catch (error) {
      if (!(error instanceof ParleyError)) throw error;
      dropped.push({ name, reason: `${error.code}: ${error.message}` });
    }
  }
  return { kept, dropped };
}

/**
 * Keeps the written files with the customer's new message, in its transaction, as the widget shows
 * them. When the account's file storage is full (`storage_full`) the words still land without the
 * files, which are logged as dropped; their bytes go with the sweep.
 */
export function attachTo(
  attachments: InboundAttachmentService,
  checked: readonly CheckedFile[],
  logger: Logger,
): Attach {
  return async (tx, created, conversation) => {
    try {
      return await attachments.keep(tx, created, conversation, 'widget', checked);
    } catch (error) {
      if (!(error instanceof ParleyError) || error.code !== 'storage_full') throw error;
      const dropped = checked.map((file) => ({ name: file.name, reason: `${error.code}: ${error.message}` }));
      logDropped(logger, conversation.uuid, dropped);
      return [];
    }
  };
}

/** Logs the files left out of a reply, so the team can tell the customer why. */
export function logDropped(logger: Logger, conversation: string, dropped: readonly DroppedFile[]): void {
  for (const file of dropped)
    logger.warn({ conversation, file: file.name, reason: file.reason }, 'a file of an e-mail reply was dropped');
}
