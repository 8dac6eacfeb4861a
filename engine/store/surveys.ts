import { ParleyError, type SurveyResponseRecord, type SurveyResponseRequest } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { findConversation } from './conversations.ts';
import type { Caller } from './environment.ts';
import { appendEvents } from './events.ts';

interface SurveyRow {
  conversation_id: string;
  rating: number;
  comment: string | null;
  created_at: Date;
  updated_at: Date;
}

const toRecord = (row: SurveyRow, customerRef: string): SurveyResponseRecord => ({
  conversation_id: row.conversation_id,
  customer_ref: customerRef,
  rating: row.rating,
  comment: row.comment,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/**
 * Keeps a customer's answer to a conversation's survey and emits `survey.response`, in one
 * transaction on the locked conversation. The latest answer counts (a customer may change it);
 * the same answer again changes nothing and emits nothing, so a caller may send it as often as it
 * likes. An empty comment is no comment.
 */
export async function recordSurveyResponse(
  sql: Sql,
  caller: Caller,
  conversationId: string,
  answer: SurveyResponseRequest,
  now: Date,
): Promise<SurveyResponseRecord> {
  const comment = answer.comment || null;
  return sql.transaction(async (tx) => {
    const conversation = await findConversation(tx, caller, conversationId, true, { remembered: true });
    if (!conversation) throw new ParleyError('not_found', `No conversation ${conversationId} for this key.`);
    const customerRef = conversation.conversation.customer_ref;
    const [earlier] = await tx.query<SurveyRow>(
      'SELECT conversation_id, rating, comment, created_at, updated_at FROM survey_responses WHERE conversation_id = $1',
      [conversationId],
    );
    if (earlier && earlier.rating === answer.rating && earlier.comment === comment)
      return toRecord(earlier, customerRef);
    const [row] = await tx.query<SurveyRow>(
      `INSERT INTO survey_responses (conversation_id, account_id, environment, rating, comment, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (conversation_id) DO UPDATE SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, updated_at = EXCLUDED.updated_at
       RETURNING conversation_id, rating, comment, created_at, updated_at`,
      [conversationId, caller.accountId, caller.environment, answer.rating, comment, now],
    );
    await appendEvents(
      tx,
      caller,
      [
        {
          type: 'survey.response',
          conversationId,
          data: { rating: answer.rating, ...(comment ? { comment } : {}), customer_ref: customerRef },
        },
      ],
      now,
    );
    return toRecord(row!, customerRef);
  });
}
