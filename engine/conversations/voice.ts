/** A voice session on a conversation: a single-use token, then its one connection. */
import { ParleyError, type Conversation } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { Caller } from '../store/environment.ts';
import { createVoiceSession, redeemVoiceSession } from '../store/voice-sessions.ts';
import type { Moves } from './moves.ts';

const VOICE_TOKEN_TTL_MS = 10 * 60_000;

export interface VoiceDeps {
  sql: Sql;
  now: () => Date;
  moves: Moves;
}

export function createVoice({ sql, now, moves }: VoiceDeps) {
  return {
    async voiceSession(caller: Caller, id: string) {
      const { result } = await moves.withConversation(caller, id, 'voice_session', async (move) => {
        const { token, expiresAt } = await createVoiceSession(move.tx, id, move.at, VOICE_TOKEN_TTL_MS);
        return { token, conversation_id: id, expires_at: expiresAt.toISOString() };
      });
      return result;
    },

    /** Uses a single-use voice token: the first use connects, any later one is refused. */
    async connectVoice(token: string) {
      const outcome = await redeemVoiceSession(sql, token, now());
      if (outcome === 'used') throw new ParleyError('token_used', 'This voice session token has already been used.');
      if (!outcome) throw new ParleyError('unauthorized', 'The voice session token is not valid or has expired.');
      const [row] = await sql.query<Pick<Conversation, 'customer_ref' | 'state'>>(
        'SELECT customer_ref, state FROM conversations WHERE id = $1',
        [outcome.conversationId],
      );
      return { conversation_id: outcome.conversationId, customer_ref: row!.customer_ref, state: row!.state };
    },
  };
}
