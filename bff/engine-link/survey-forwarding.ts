import type { Logger, Sql } from '../../shared/server/index.ts';
import { EngineCallError } from './engine-client.ts';
import type { EngineAccounts } from './engine-accounts.ts';
import { markSurveyForwarded, surveyToForward } from '../store/surveys.ts';

export interface SurveyForwardingDeps {
  sql: Sql;
  engines: Pick<EngineAccounts, 'forInbox'>;
  logger: Logger;
}

/**
 * Gives the engine a conversation's survey answer when it does not have that version yet, so that
 * `survey.response` is in its feed and its reports count the rating. The relay calls it after the
 * conversation's messages and close have gone, so the answer follows the close there too. The
 * answer stays in the store until the engine has it: a failure the engine may get over (it is
 * away, busy, slow) is thrown for the relay to try again later; the Idempotency-Key names the
 * answer's version, and the engine takes the same answer twice as once. An answer the engine
 * refuses for good (its conversation is gone) is logged and not sent again; a conversation the
 * engine never had (the customer closed it before writing) has no answer to give it.
 */
export async function forwardSurvey(
  { sql, engines, logger }: SurveyForwardingDeps,
  conversationId: number,
): Promise<void> {
  const answer = await surveyToForward(sql, conversationId);
  if (!answer) return;
  if (answer.engineConversationId) {
    try {
      await (
        await engines.forInbox(answer.inboxId, answer.environment)
      ).surveyResponse(
        answer.engineConversationId,
        { rating: answer.rating, ...(answer.comment ? { comment: answer.comment } : {}) },
        `survey-${answer.conversationUuid}-${answer.updatedAt.getTime()}`,
      );
    } catch (error) {
      if (!(error instanceof EngineCallError) || error.retryable) throw error;
      logger.warn(
        { conversation: answer.conversationUuid, code: error.code },
        'the engine refused a survey answer for good',
      );
    }
  }
  await markSurveyForwarded(sql, conversationId, answer.updatedAt);
}
