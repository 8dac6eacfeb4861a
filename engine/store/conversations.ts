import { newId, type Conversation, type ConversationState, type Turn } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { BrainMemory } from '../brain/brain.ts';
import type { Caller } from './environment.ts';

/** A conversation as the engine keeps it: the public record, the AI's memory and the close. */
export interface ConversationRecord {
  conversation: Conversation;
  memory: BrainMemory;
  handoverCount: number;
  quality: unknown;
  /** The customer's language, when the caller said it (the AI's own words use it). */
  locale: string | null;
}

interface ConversationRow {
  id: string;
  customer_ref: string;
  state: ConversationState;
  created_at: Date;
  closed_at: Date | null;
  resolved: boolean | null;
  unanswered_streak: number;
  last_reply_answered: boolean;
  awaiting_action: BrainMemory['awaitingAction'];
  last_answer: BrainMemory['lastAnswer'];
  last_question: string | null;
  customer_language: string | null;
  locale: string | null;
  handover_count: number;
  quality: unknown;
}

const COLUMNS =
  'id, customer_ref, state, created_at, closed_at, resolved, unanswered_streak, last_reply_answered, awaiting_action, last_answer, last_question, customer_language, locale, handover_count, quality';

const toRecord = (row: ConversationRow): ConversationRecord => ({
  conversation: {
    id: row.id,
    customer_ref: row.customer_ref,
    state: row.state,
    created_at: row.created_at.toISOString(),
    closed_at: row.closed_at?.toISOString() ?? null,
    resolved: row.resolved,
  },
  memory: {
    unansweredStreak: row.unanswered_streak,
    lastReplyAnswered: row.last_reply_answered,
    awaitingAction: row.awaiting_action,
    lastAnswer: row.last_answer,
    lastQuestion: row.last_question,
    customerLanguage: row.customer_language,
  },
  handoverCount: row.handover_count,
  quality: row.quality,
  locale: row.locale,
});

export async function insertConversation(
  tx: Queryable,
  caller: Caller,
  customerRef: string,
  now: Date,
): Promise<Conversation> {
  const [row] = await tx.query<ConversationRow>(
    `INSERT INTO conversations (id, account_id, environment, customer_ref, state, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'ai', $5, $5) RETURNING ${COLUMNS}`,
    [newId('conversation'), caller.accountId, caller.environment, customerRef, now],
  );
  return toRecord(row!).conversation;
}

/**
 * The caller's conversation (locked until the transaction ends when `lock`); undefined for anyone
 * else's. With `remembered`, undefined for a forgotten customer's too: what adds words or files
 * (a survey comment, a medium) may not reach a conversation that stays only as counts.
 */
export async function findConversation(
  db: Queryable,
  caller: Caller,
  id: string,
  lock = false,
  { remembered = false } = {},
): Promise<ConversationRecord | undefined> {
  const [row] = await db.query<ConversationRow>(
    `SELECT ${COLUMNS} FROM conversations WHERE id = $1 AND account_id = $2 AND environment = $3${remembered ? ' AND forgotten_at IS NULL' : ''}${lock ? ' FOR UPDATE' : ''}`,
    [id, caller.accountId, caller.environment],
  );
  return row && toRecord(row);
}

export interface ConversationUpdate {
  state?: ConversationState;
  memory?: BrainMemory;
  handoverCount?: number;
  locale?: string;
  closed?: { resolved: boolean; quality: unknown };
}

/** The customer's answer to "did that help?", kept for reports. */
export async function recordAnswerFeedback(
  tx: Queryable,
  caller: Pick<Caller, 'accountId' | 'environment'>,
  conversationId: string,
  feedback: { helpful: boolean; source: { id: string; title: string } },
  now: Date,
): Promise<void> {
  await tx.query(
    'INSERT INTO answer_feedback (account_id, environment, conversation_id, source_id, source_title, helpful, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [
      caller.accountId,
      caller.environment,
      conversationId,
      feedback.source.id,
      feedback.source.title,
      feedback.helpful,
      now,
    ],
  );
}

export async function updateConversation(
  tx: Queryable,
  id: string,
  update: ConversationUpdate,
  now: Date,
): Promise<void> {
  const sets: string[] = ['updated_at = $2'];
  const params: unknown[] = [id, now];
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (update.state) set('state', update.state);
  if (update.memory) {
    set('unanswered_streak', update.memory.unansweredStreak);
    set('last_reply_answered', update.memory.lastReplyAnswered);
    set(
      'awaiting_action',
      update.memory.awaitingAction ? JSON.stringify(update.memory.awaitingAction) : null,
      '::jsonb',
    );
    set('last_answer', update.memory.lastAnswer ? JSON.stringify(update.memory.lastAnswer) : null, '::jsonb');
    set('last_question', update.memory.lastQuestion);
    set('customer_language', update.memory.customerLanguage);
  }
  if (update.handoverCount !== undefined) set('handover_count', update.handoverCount);
  if (update.locale !== undefined) set('locale', update.locale);
  if (update.closed) {
    set('resolved', update.closed.resolved);
    set('quality', JSON.stringify(update.closed.quality), '::jsonb');
    set('closed_at', now);
  }
  await tx.query(`UPDATE conversations SET ${sets.join(', ')} WHERE id = $1`, params);
}

export type TurnRole = Turn['role'];

export async function insertTurn(
  tx: Queryable,
  conversationId: string,
  turn: { role: TurnRole; text: string; messageId?: string | undefined; answered?: boolean | undefined },
  now: Date,
): Promise<string> {
  const id = newId('turn');
  await tx.query(
    'INSERT INTO turns (id, conversation_id, role, text, message_id, answered, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [id, conversationId, turn.role, turn.text, turn.messageId ?? null, turn.answered ?? null, now],
  );
  return id;
}

export async function findTurnByMessageId(
  tx: Queryable,
  conversationId: string,
  messageId: string,
): Promise<string | undefined> {
  const [row] = await tx.query<{ id: string }>('SELECT id FROM turns WHERE conversation_id = $1 AND message_id = $2', [
    conversationId,
    messageId,
  ]);
  return row?.id;
}

export async function listTurns(db: Queryable, conversationId: string): Promise<Turn[]> {
  const rows = await db.query<{ role: TurnRole; text: string; created_at: Date }>(
    'SELECT role, text, created_at FROM turns WHERE conversation_id = $1 ORDER BY position',
    [conversationId],
  );
  return rows.map((row) => ({ role: row.role, text: row.text, created_at: row.created_at.toISOString() }));
}

/** Counts for the quality score. */
export async function turnCounts(
  db: Queryable,
  conversationId: string,
): Promise<{ customer: number; answered: number; unanswered: number }> {
  const [row] = await db.query<{ customer: number; answered: number; unanswered: number }>(
    `SELECT count(*) FILTER (WHERE role = 'customer')::int AS customer,
            count(*) FILTER (WHERE role = 'ai' AND answered IS TRUE)::int AS answered,
            count(*) FILTER (WHERE role = 'ai' AND answered IS FALSE)::int AS unanswered
     FROM turns WHERE conversation_id = $1`,
    [conversationId],
  );
  return row ?? { customer: 0, answered: 0, unanswered: 0 };
}
