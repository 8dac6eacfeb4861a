import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { Relay } from '../engine-link/relay.ts';
import type { Customer } from './sessions.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import { saveSurvey, saveSurveyAnswer, surveyQuestion } from '../store/surveys.ts';

/** A survey takes answers (and changes) for 14 days after it was asked, as Chatwoot's does. */
const SURVEY_LOCK_MS = 14 * 24 * 3600_000;

export interface SurveyAnswersDeps {
  sql: Sql;
  relay: Pick<Relay, 'surveyAnswered'>;
  publisher: Publisher;
  now: () => Date;
  /** The customer's own conversation, or not_found. */
  mine: (customer: Customer, uuid: string) => Promise<ConversationRecord>;
}

/** The customer's rating of a resolved conversation (the survey Chatwoot calls CSAT). */
export function createSurveyAnswers({ sql, relay, publisher, now, mine }: SurveyAnswersDeps) {
  /**
   * The one way a survey is answered (widget, Client API, survey page): the conversation must have
   * been asked, and the answer may change until 14 days after the question.
   */
  async function rate(conversation: ConversationRecord, rating: number, comment: string): Promise<void> {
    if (conversation.status !== 'resolved')
      throw new ParleyError('invalid_state', 'The survey opens when the conversation is resolved.');
    const question = await surveyQuestion(sql, conversation.id);
    if (!question) throw new ParleyError('invalid_state', 'This conversation was not asked for a rating.');
    if (now().getTime() - question.askedAt.getTime() > SURVEY_LOCK_MS)
      throw new ParleyError('unprocessable', 'The survey is locked 14 days after it was asked.');
    await sql.transaction(async (tx) => {
      await saveSurvey(tx, conversation.id, rating, comment, now());
      await saveSurveyAnswer(tx, question.id, rating, comment);
      await publisher.record(tx, conversation, [{ type: 'message.answered', messageId: question.id }]);
    });
    publisher.publish(conversation, { type: 'message.answered', messageId: question.id });
    // The engine gets the answer through the relay (after the close), so it is not lost while the engine is away.
    relay.surveyAnswered(conversation.id);
  }

  return {
    rate,
    async answerSurvey(
      customer: Customer,
      uuid: string,
      answer: { rating: number; comment?: string | undefined },
    ): Promise<{ conversation_id: string; rating: number; comment: string }> {
      const comment = answer.comment ?? '';
      await rate(await mine(customer, uuid), answer.rating, comment);
      return { conversation_id: uuid, rating: answer.rating, comment };
    },
  };
}
