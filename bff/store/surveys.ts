import type { WidgetMessage } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { ConversationRecord } from './conversations.ts';
import { insertMessage } from './messages.ts';

export async function saveSurvey(
  db: Queryable,
  conversationId: number,
  rating: number,
  comment: string,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO surveys (conversation_id, rating, comment, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (conversation_id) DO UPDATE SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, updated_at = EXCLUDED.updated_at`,
    [conversationId, rating, comment, now],
  );
}

/** The question a resolve adds to the conversation, for Client API clients (Chatwoot's `input_csat` message). */
const SURVEY_QUESTION = 'Please rate this conversation.';

/**
 * Asks for a rating: adds the survey question to a resolved conversation when its inbox asks for
 * surveys and the question is not there yet. Gives the new message, or nothing.
 */
export async function askSurvey(
  db: Queryable,
  conversation: ConversationRecord,
  now: Date,
): Promise<WidgetMessage | undefined> {
  const [wanted] = await db.query<{ yes: boolean }>(
    `SELECT true AS yes FROM inboxes i WHERE i.id = $1 AND i.survey_enabled
       AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = $2 AND m.content_type = 'input_csat')`,
    [conversation.inboxId, conversation.id],
  );
  if (!wanted) return undefined;
  const { message } = await insertMessage(
    db,
    conversation,
    { author: 'system', text: SURVEY_QUESTION, contentType: 'input_csat' },
    now,
  );
  return message;
}

/** The survey question of a conversation (its id and when it was asked), if one was asked. */
export async function surveyQuestion(
  db: Queryable,
  conversationId: number,
): Promise<{ id: number; askedAt: Date } | undefined> {
  const [row] = await db.query<{ id: number; created_at: Date }>(
    "SELECT id, created_at FROM messages WHERE conversation_id = $1 AND content_type = 'input_csat' ORDER BY id DESC LIMIT 1",
    [conversationId],
  );
  return row && { id: row.id, askedAt: row.created_at };
}

/** Keeps the answer on the question too, as Chatwoot's `submitted_values` does. */
export async function saveSurveyAnswer(
  db: Queryable,
  questionId: number,
  rating: number,
  comment: string,
): Promise<void> {
  await db.query('UPDATE messages SET submitted_values = $2::jsonb WHERE id = $1', [
    questionId,
    JSON.stringify({ csat_survey_response: { rating, feedback_message: comment } }),
  ]);
}

/** A survey answer the engine does not have yet, with where it goes. */
export interface SurveyToForward {
  rating: number;
  comment: string;
  /** The answer's version: when it was last changed. */
  updatedAt: Date;
  conversationUuid: string;
  engineConversationId: string | null;
  environment: ConversationRecord['environment'];
  /** The conversation's inbox: whose engine account the answer goes to. */
  inboxId: string;
}

/** The conversation's survey answer when the engine does not have this version of it yet. */
export async function surveyToForward(db: Queryable, conversationId: number): Promise<SurveyToForward | undefined> {
  const [row] = await db.query<{
    rating: number;
    comment: string;
    updated_at: Date;
    uuid: string;
    engine_conversation_id: string | null;
    environment: ConversationRecord['environment'];
    inbox_id: string;
  }>(
    `SELECT s.rating, s.comment, s.updated_at, c.uuid, c.engine_conversation_id, c.environment, c.inbox_id
     FROM surveys s JOIN conversations c ON c.id = s.conversation_id
     WHERE s.conversation_id = $1 AND s.engine_forwarded_at IS DISTINCT FROM s.updated_at`,
    [conversationId],
  );
  return (
    row && {
      rating: row.rating,
      comment: row.comment,
      updatedAt: row.updated_at,
      conversationUuid: row.uuid,
      engineConversationId: row.engine_conversation_id,
      environment: row.environment,
      inboxId: row.inbox_id,
    }
  );
}

/** Notes that the engine has this version of the answer (a newer one, kept meanwhile, still waits). */
export async function markSurveyForwarded(db: Queryable, conversationId: number, updatedAt: Date): Promise<void> {
  await db.query('UPDATE surveys SET engine_forwarded_at = updated_at WHERE conversation_id = $1 AND updated_at = $2', [
    conversationId,
    updatedAt,
  ]);
}

/** Conversations whose survey answer the engine does not have yet (picked up again at start). */
export async function conversationsWithSurveyToForward(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    'SELECT conversation_id AS id FROM surveys WHERE engine_forwarded_at IS DISTINCT FROM updated_at',
  );
  return rows.map((row) => row.id);
}
