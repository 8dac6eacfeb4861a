/** What people do to a conversation: take it (one, or all the AI has), give it back, write in it, close it. */
import { ParleyError, type ConversationChange, type EngineEvent } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { AccountBrainTime } from '../brain/account-brain-time.ts';
import { FRESH_MEMORY } from '../brain/brain.ts';
import type { KnowledgeCache } from '../brain/knowledge-cache.ts';
import { nextState } from '../conversation-states.ts';
import { readAgent } from '../store/agent.ts';
import { findConversation, insertTurn, updateConversation } from '../store/conversations.ts';
import type { Caller } from '../store/environment.ts';
import { appendEvents, type EventDraft } from '../store/events.ts';
import { recentTurns } from '../store/llm.ts';
import { close, handOver, note } from './acts.ts';
import { newMove, type Move, type Moves } from './moves.ts';
import { answer, readAnswerSources, type Asked } from './sending.ts';

export interface PeopleMovesDeps {
  sql: Sql;
  now: () => Date;
  moves: Moves;
  /** What the AI answers from when a hand-back finds the customer's last message unanswered. */
  knowledge: KnowledgeCache;
  brainTime: AccountBrainTime;
  /** Told a hand-back's events once they are committed, as a message's are (an action's URL is called then). */
  onCommitted: ((events: readonly EngineEvent[]) => void) | undefined;
}

/** Who wrote a human message, as the caller names them. */
export interface Author {
  name?: string | undefined;
  ref?: string | undefined;
}

const HAND_OVER_BATCH = 100;

/**
 * Answers the customer's last message if nothing answered it: it came while people had the
 * conversation, and no person wrote after it (issue 28). The brain time is counted as a message's:
 * an account that spent its minute is refused (429) and the hand-back is not made.
 */
async function answerUnansweredMessage(
  move: Move,
  sources: Pick<Asked, 'kb' | 'actions'>,
  brainTime: AccountBrainTime,
): Promise<void> {
  const [last] = await recentTurns(move.tx, move.record.conversation.id, 1);
  if (last?.role !== 'customer') return;
  const think = brainTime.forMessage(move.caller.accountId);
  await answer(move, { text: last.text, ...sources, think, early: undefined });
}

/** Hands over the next batch of conversations the AI has; gives how many it locked. */
async function handOverBatch(
  { sql, now }: Pick<PeopleMovesDeps, 'sql' | 'now'>,
  caller: Caller,
  reason: string,
): Promise<number> {
  return sql.transaction(async (tx) => {
    const ids = await tx.query<{ id: string }>(
      "SELECT id FROM conversations WHERE account_id = $1 AND environment = $2 AND state = 'ai' ORDER BY id LIMIT $3 FOR UPDATE",
      [caller.accountId, caller.environment, HAND_OVER_BATCH],
    );
    const at = now();
    const drafts: EventDraft[] = [];
    for (const { id } of ids) {
      const record = await findConversation(tx, caller, id, true);
      if (record?.conversation.state !== 'ai') continue;
      const move = newMove(tx, caller, record, at);
      await handOver(move, reason, 'ai');
      drafts.push(...move.drafts);
    }
    await appendEvents(tx, caller, drafts, at);
    return ids.length;
  });
}

export function createPeopleMoves({ sql, now, moves, knowledge, brainTime, onCommitted }: PeopleMovesDeps) {
  const { changeOf } = moves;

  return {
    /**
     * Hands every conversation the AI has in the caller's environment to people, a hundred per
     * transaction (the kill switch). A conversation being answered is waited for, then handed
     * over; one that moved on meanwhile is left. Gives how many were handed over.
     */
    async handOverAll(caller: Caller, reason: string): Promise<number> {
      let total = 0;
      for (;;) {
        const count = await handOverBatch({ sql, now }, caller, reason);
        total += count;
        if (count < HAND_OVER_BATCH) return total;
      }
    },

    handover: (caller: Caller, id: string, reason: string | undefined) =>
      changeOf(caller, id, 'handover', (move) => handOver(move, reason ?? 'requested', 'caller')),

    /**
     * Gives the conversation back to the AI, which answers at once, in the same move, the
     * customer's message that no one answered while people had it.
     */
    async handback(caller: Caller, id: string): Promise<ConversationChange> {
      // Read before the transaction, as for a message, so the lock is held only for writes.
      const sources = await readAnswerSources(sql, knowledge, caller);
      const change = await changeOf(caller, id, 'handback', async (move) => {
        if ((await readAgent(move.tx, caller)).killSwitch) {
          throw new ParleyError(
            'invalid_state',
            'The AI is switched off (the kill switch is on): people keep the conversation until it is switched on again.',
          );
        }
        const state = nextState(move.record.conversation.state, 'handback');
        await updateConversation(move.tx, id, { state, memory: FRESH_MEMORY }, move.at);
        move.record.conversation.state = 'ai';
        move.record.memory = FRESH_MEMORY;
        await note(move, 'The conversation was handed back to the AI.');
        move.emit('conversation.handback', { type: 'handback' });
        await answerUnansweredMessage(move, sources, brainTime);
      });
      onCommitted?.(change.events);
      return change;
    },

    close: (caller: Caller, id: string, resolved: boolean | undefined) =>
      changeOf(caller, id, 'close', async (move) => {
        const { conversation, memory, handoverCount } = move.record;
        const answeredByAi = conversation.state === 'ai' && memory.lastReplyAnswered && handoverCount === 0;
        await close(move, resolved ?? answeredByAi, 'caller');
      }),

    humanMessage: (caller: Caller, id: string, text: string, author: Author = {}) =>
      changeOf(caller, id, 'human_message', async (move) => {
        await insertTurn(move.tx, id, { role: 'human', text }, move.at);
        move.emit('conversation.human_message', {
          text,
          ...(author.name ? { author_name: author.name } : {}),
          ...(author.ref ? { author_ref: author.ref } : {}),
        });
      }),
  };
}
