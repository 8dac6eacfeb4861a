/**
 * The CSAT survey of a conversation by its UUID, for the survey page and the `csat_survey` routes:
 * reading it and answering it.
 */
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { findConversationById } from '../store/conversations.ts';
import { findInbox } from '../store/inboxes.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import { findSurveyByUuid } from './store/client-views.ts';

export function createSurveyService({ sql, conversations }: { sql: Sql; conversations: ConversationService }) {
  /** The survey of a conversation by its UUID (the page and the csat_survey routes); 404 when none was asked for. */
  async function survey(uuid: string) {
    const row = /^[0-9a-f-]{36}$/i.test(uuid) ? await findSurveyByUuid(sql, uuid) : undefined;
    if (!row || row.csat_id === null) throw new ParleyError('not_found', 'No survey for this conversation.');
    const inbox = await findInbox(sql, row.inbox_id);
    return { row, inbox: inbox! };
  }

  return {
    survey,

    async answerSurvey(uuid: string, rating: number, feedback: string) {
      const { row } = await survey(uuid);
      const conversation = await findConversationById(sql, row.id);
      await conversations.rate(conversation!, rating, feedback);
      return survey(uuid);
    },
  };
}
