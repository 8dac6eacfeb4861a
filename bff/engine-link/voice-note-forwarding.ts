/**
 * A customer's voice notes handed to the engine so that the AI hears them (issue 30): each is
 * uploaded to the engine's `POST /v1/media` in the conversation (once: the Idempotency-Key is the
 * attachment's), and the engine's medium id is kept to match the `media.understood` event that
 * carries its transcript. The engine then answers the transcript as the customer's words.
 */
import type { EngineClient } from './engine-client.ts';
import type { AttachmentStorage } from '../attachments/storage.ts';
import { setEngineMediaId, type PendingMessage } from '../store/outbox.ts';
import type { Sql } from '../../shared/server/index.ts';

export async function forwardVoiceNotes(
  deps: { sql: Sql; attachmentStorage?: AttachmentStorage | undefined },
  engine: Pick<EngineClient, 'uploadMedia'>,
  place: { conversationUuid: string; engineConversationId: string },
  pending: PendingMessage,
): Promise<void> {
  if (!deps.attachmentStorage) return;
  for (const note of pending.voiceNotes) {
    const bytes = await deps.attachmentStorage.get(note.storageKey);
    // Deleted meanwhile (the customer was forgotten): nothing left to hear.
    if (!bytes) continue;
    const medium = await engine.uploadMedia(
      place.engineConversationId,
      { bytes, name: note.name, type: note.contentType },
      `media-${place.conversationUuid}-${note.id}`,
    );
    await setEngineMediaId(deps.sql, note.id, medium.id);
  }
}

/** A message that is only voice notes: the engine takes the customer's words from their transcripts, not from a text. */
export const onlyVoiceNotes = (pending: PendingMessage): boolean => pending.voiceNotes.length > 0 && !pending.hasText;
