/** A voice session on a conversation: a single-use token; its use begins a call (engine/calls/calls.ts). */
import type { Sql } from '../../shared/server/index.ts';
import type { Caller } from '../store/environment.ts';
import { createVoiceSession } from '../store/voice-sessions.ts';
import type { Moves } from './moves.ts';

const VOICE_TOKEN_TTL_MS = 10 * 60_000;

export interface VoiceDeps {
  sql: Sql;
  now: () => Date;
  moves: Moves;
}

export function createVoice({ moves }: VoiceDeps) {
  return {
    async voiceSession(caller: Caller, id: string) {
      const { result } = await moves.withConversation(caller, id, 'voice_session', async (move) => {
        const { token, expiresAt } = await createVoiceSession(move.tx, id, move.at, VOICE_TOKEN_TTL_MS);
        return { token, conversation_id: id, expires_at: expiresAt.toISOString() };
      });
      return result;
    },
  };
}
