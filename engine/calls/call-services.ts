import type { Logger, Sql } from '../../shared/server/index.ts';
import type { ConversationService } from '../conversations/index.ts';
import { createMoves } from '../conversations/moves.ts';
import { createTranscriber, type SttSettings } from '../media/transcriber.ts';
import { createCalls } from './calls.ts';
import { createSpeaker, type TtsSettings } from './speaker.ts';
import { createVoiceStream } from './voice-stream.ts';

/**
 * The calls and the AI call's stream, built in order: the AI takes calls only with both a
 * transcription API (STT_BASE_URL) and a speech API (TTS_BASE_URL); it answers through the same
 * conversations as typed messages.
 */
export function createCallServices(deps: {
  sql: Sql;
  now: () => Date;
  logger: Logger;
  conversations: Pick<ConversationService, 'sendMessage'>;
  stt: SttSettings | undefined;
  tts: TtsSettings | undefined;
  /** Told when events were recorded outside a request (a stream closed): webhooks go out now. */
  onEvents: () => void;
}) {
  const { sql, now, logger, conversations, stt, tts, onEvents } = deps;
  const speech =
    stt && tts ? { transcriber: createTranscriber(stt), speaker: createSpeaker(tts), conversations } : undefined;
  const calls = createCalls({ sql, now, moves: createMoves({ sql, now }), aiCalls: speech !== undefined });
  const voiceStream = createVoiceStream({ calls, logger, speech, onEvents });
  return { calls, voiceStream };
}
