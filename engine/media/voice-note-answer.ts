import { ParleyError } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { ConversationService } from '../conversations/index.ts';
import { say } from '../conversations/acts.ts';
import { createMoves } from '../conversations/moves.ts';
import type { Caller } from '../store/environment.ts';
import type { MediaOutcome } from '../store/media.ts';
import { cannotListen } from './voice-note-texts.ts';

/** A voice note of a conversation, once understood or failed: whose it is, which, and how it ended. */
export interface HeardVoiceNote {
  owner: Pick<Caller, 'accountId' | 'environment'>;
  conversationId: string;
  mediaId: string;
  outcome: MediaOutcome;
}

export type AnswerVoiceNote = (note: HeardVoiceNote) => Promise<void>;

/**
 * The AI's answer to a customer's voice note (issue 30): its transcript is sent as the customer's
 * message (the `message_id` is the medium's, so a second try answers once); without a transcription
 * API the AI says, in the customer's language, that it cannot listen yet and offers a person. With
 * people on the conversation the AI stays silent, as for typed words. A conversation that cannot take
 * it now (closed, the account's brain time spent) keeps the note and its event only, and says why in the log.
 */
export function createVoiceNoteAnswer(deps: {
  sql: Sql;
  now: () => Date;
  logger: Logger;
  conversations: Pick<ConversationService, 'sendMessage'>;
}): AnswerVoiceNote {
  const moves = createMoves(deps);
  return async ({ owner, conversationId, mediaId, outcome }) => {
    const caller: Caller = { ...owner, keyId: 'engine', keyPrefix: 'engine', requestsPerMinute: 0 };
    try {
      if (outcome.status === 'understood' && outcome.transcribed && outcome.text) {
        await deps.conversations.sendMessage(caller, conversationId, { text: outcome.text, message_id: mediaId });
      } else if (outcome.status === 'failed' && outcome.code === 'not_configured') {
        await moves.withConversation(caller, conversationId, undefined, async (move) => {
          if (move.record.conversation.state !== 'ai') return;
          const { text, choices } = cannotListen(move.record.locale ?? undefined);
          await say(move, text, false, { choices });
        });
      }
    } catch (error) {
      if (!(error instanceof ParleyError)) throw error;
      deps.logger.warn({ media: mediaId, code: error.code }, 'a voice note was kept but not answered');
    }
  };
}
