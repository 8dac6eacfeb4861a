import type { Queryable } from '../../shared/server/index.ts';

/**
 * Keeps what the engine heard in a customer's voice note (its `media.understood` transcript) with
 * the attachment it was uploaded from (outbox: `engine_media_id`), for the team to read under the
 * note. An event of a medium this conversation did not send changes nothing.
 */
export async function keepTranscript(
  db: Queryable,
  conversationId: number,
  engineMediaId: string,
  transcript: string,
): Promise<void> {
  await db.query('UPDATE attachments SET transcript = $3 WHERE conversation_id = $1 AND engine_media_id = $2', [
    conversationId,
    engineMediaId,
    transcript.slice(0, 20_000),
  ]);
}
