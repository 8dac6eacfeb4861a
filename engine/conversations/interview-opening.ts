/** A conversation opened in interview mode: the intro and the first question are its first words. */
import { ParleyError, type ConversationChange } from '../../shared/index.ts';
import type { OpenInterviewSessionRequest } from '../../shared/schemas/interviews.ts';
import type { Sql } from '../../shared/server/index.ts';
import { FRESH_MEMORY } from '../brain/brain.ts';
import { readAgent } from '../store/agent.ts';
import { insertConversation, updateConversation } from '../store/conversations.ts';
import type { Caller } from '../store/environment.ts';
import { appendEvents } from '../store/events.ts';
import { insertInterviewSession } from '../store/interview-sessions.ts';
import { findInterview } from '../store/interviews.ts';
import { say } from './acts.ts';
import { askQuestion } from './interview-moves.ts';
import { newMove } from './moves.ts';

export interface InterviewOpeningDeps {
  sql: Sql;
  now: () => Date;
}

export function createInterviewOpening({ sql, now }: InterviewOpeningDeps) {
  return {
    /**
     * Opens a conversation for the customer in which the AI runs the interview: `conversation.opened`,
     * then the intro and the first question as replies. While the AI is switched off (the kill
     * switch) no interview can run: 409, and nothing is opened.
     */
    async openInterviewSession(
      caller: Caller,
      interviewId: string,
      { customer_ref: customerRef, locale }: OpenInterviewSessionRequest,
    ): Promise<ConversationChange> {
      return sql.transaction(async (tx) => {
        const interview = await findInterview(tx, caller, interviewId);
        if ((await readAgent(tx, caller)).killSwitch)
          throw new ParleyError(
            'invalid_state',
            'The AI is switched off (the kill switch is on): no interview can run until it is switched on again.',
          );
        const at = now();
        const conversation = await insertConversation(tx, caller, customerRef, at);
        if (locale) await updateConversation(tx, conversation.id, { locale }, at);
        const record = { conversation, memory: FRESH_MEMORY, handoverCount: 0, quality: null, locale: locale ?? null };
        const move = newMove(tx, caller, record, at);
        move.emit('conversation.opened', { customer_ref: customerRef });
        const session = await insertInterviewSession(tx, caller, conversation.id, interview, at);
        await say(move, interview.intro);
        await askQuestion(move, session);
        const events = await appendEvents(tx, caller, move.drafts, at);
        return { conversation: move.record.conversation, events };
      });
    },
  };
}
