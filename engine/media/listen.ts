import type { MediaRecord } from '../../shared/index.ts';
import { kindOf } from '../../shared/server/index.ts';
import { maskCodes } from '../brain/masking.ts';
import type { MediaOutcome } from '../store/media.ts';
import { TranscriptionUnavailableError, type Transcriber } from './transcriber.ts';

/** Whether a medium is a voice note or other recording whose words are heard (videos are kept by their facts). */
export const isVoiceNote = (record: Pick<MediaRecord, 'type'>): boolean => kindOf(record.type) === 'audio';

/**
 * A voice note's words, by the transcription API (STT_BASE_URL), with codes masked as in a
 * customer's typed message (the transcript becomes their words). Without an API it fails as
 * `not_configured`; an API that fails makes it fail as `unavailable`, with the reason.
 */
export async function listen(
  record: MediaRecord,
  bytes: Buffer,
  transcriber: Transcriber | undefined,
): Promise<MediaOutcome> {
  if (!transcriber)
    return {
      status: 'failed',
      code: 'not_configured',
      reason: 'No transcription API is configured (STT_BASE_URL): voice notes cannot be listened to.',
    };
  try {
    const words = await transcriber.transcribe({ bytes, type: record.type, name: record.name ?? record.id });
    if (!words) return { status: 'failed', code: 'unreadable', reason: 'No words could be heard in the voice note.' };
    return { status: 'understood', text: maskCodes(words), transcribed: true };
  } catch (error) {
    if (!(error instanceof TranscriptionUnavailableError)) throw error;
    return {
      status: 'failed',
      code: 'unavailable',
      reason: `The transcription API could not transcribe the voice note: ${error.message}`,
    };
  }
}
