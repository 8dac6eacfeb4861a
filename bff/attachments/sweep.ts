import type { Logger } from '../../shared/server/index.ts';
import type { AttachmentService } from './attachment-service.ts';

const EVERY_MS = 60 * 60_000;

/**
 * Deletes, at start and then every hour, the bytes no attachment keeps any more: those of messages
 * deleted with their inbox or account, and of sends that failed after their bytes were written.
 * Every node sweeps; a key is deleted once whichever node finds it.
 */
export function startAttachmentSweep(
  attachments: Pick<AttachmentService, 'sweep'>,
  logger: Logger,
  everyMs = EVERY_MS,
): { stop(): void } {
  const round = () =>
    void attachments.sweep().then(
      (deleted) => deleted > 0 && logger.debug({ deleted }, 'attachment bytes no message keeps were deleted'),
      (error: unknown) => logger.warn({ err: error }, 'the attachment sweep failed; it tries again next round'),
    );
  const timer = everyMs > 0 ? setInterval(round, everyMs) : undefined;
  timer?.unref();
  if (timer) round();
  return { stop: () => clearInterval(timer) };
}
