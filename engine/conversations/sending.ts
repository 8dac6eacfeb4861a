/** A customer's message: kept, then answered by the brain in the same move. */
import type { EngineEvent, SendMessageRequest, SendMessageResponse } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { ActionDefinition } from '../brain/actions.ts';
import type { AccountBrainTime } from '../brain/account-brain-time.ts';
import type { Think } from '../brain/bounds.ts';
import { decide } from '../brain/brain.ts';
import { applyHandoverRules } from '../brain/handover-rules.ts';
import type { KnowledgeBase } from '../brain/knowledge-base.ts';
import type { KnowledgeCache } from '../brain/knowledge-cache.ts';
import type { LlmClient } from '../brain/llm-client.ts';
import { maskCodes } from '../brain/masking.ts';
import { embedQuestion } from '../brain/question-vector.ts';
import type { Meaning } from '../brain/semantic.ts';
import { nextState } from '../conversation-states.ts';
import { KILL_SWITCH_REASON, readAgent } from '../store/agent.ts';
import { listActions } from '../store/actions.ts';
import { findTurnByMessageId, insertTurn, updateConversation } from '../store/conversations.ts';
import type { Caller } from '../store/environment.ts';
import { eventsCausedBy } from '../store/events.ts';
import { addLlmUsage } from '../store/llm.ts';
import { findRunningSession } from '../store/interview-sessions.ts';
import { carryOut, greet, handOver } from './acts.ts';
import { continueInterview } from './interview-moves.ts';
import type { EarlyBrain, EarlyDecision } from './early-brain.ts';
import type { Move, Moves } from './moves.ts';

export interface SendingDeps {
  sql: Sql;
  knowledge: KnowledgeCache;
  now: () => Date;
  llm: LlmClient | undefined;
  /**
   * Told a message's events once they are committed: the action requests an action's URL runs are
   * called then (engine/actions/live-actions.ts).
   */
  onCommitted: ((events: readonly EngineEvent[]) => void) | undefined;
  /** Each message's brain time, and each account's a minute. */
  brainTime: AccountBrainTime;
  moves: Moves;
  earlyBrain: EarlyBrain;
}

/** What the brain answers from: the masked message, what was read before the move, and the early decision if any. */
export interface Asked {
  text: string;
  kb: KnowledgeBase;
  actions: ActionDefinition[];
  think: Think;
  early: EarlyDecision | undefined;
  /** The sections' and the question's vectors, with an embeddings API and when both could be had. */
  meaning?: Meaning | undefined;
}

/** Keeps the customer's turn (at its arrival) and the language they write in; the move's events are caused by it. */
async function keepCustomerTurn(move: Move, text: string, request: SendMessageRequest, receivedAt: Date) {
  const id = move.record.conversation.id;
  nextState(move.record.conversation.state, 'message');
  move.causedBy = await insertTurn(move.tx, id, { role: 'customer', text, messageId: request.message_id }, receivedAt);
  // The customer's language, when the caller says it, is kept for the AI's own words from now on.
  if (request.locale && request.locale !== move.record.locale) {
    await updateConversation(move.tx, id, { locale: request.locale }, move.at);
    move.record.locale = request.locale;
  }
}

/**
 * The knowledge and actions of the conversation's environment, read before a move's transaction so that the conversation's
 * lock is held only for writes.
 */
export async function readAnswerSources(
  sql: Sql,
  knowledge: KnowledgeCache,
  owner: Pick<Caller, 'accountId' | 'environment'>,
  question?: string,
): Promise<Pick<Asked, 'kb' | 'actions' | 'meaning'>> {
  // With an embeddings API the question is embedded meanwhile (never failing: words alone rank without it).
  const embedding = question === undefined ? undefined : embedQuestion(knowledge.embeddings, question);
  const [{ knowledge: kb, sectionVectors }, actions, questionVector] = await Promise.all([
    knowledge.read(sql, owner),
    listActions(sql, owner),
    embedding,
  ]);
  const meaning = sectionVectors && questionVector ? { sectionVectors, questionVector } : undefined;
  return { kb, actions, meaning };
}

/**
 * The AI's answer to the customer's turn, inside the move: a customer's message as it arrives, or
 * the one left unanswered while people had the conversation, when they hand it back (people-moves.ts).
 */
export async function answer(move: Move, { text, kb, actions, think, early, meaning }: Asked): Promise<void> {
  // Asked inside the move (the conversation locked): the kill switch counts from the moment it is on.
  const agent = await readAgent(move.tx, move.caller);
  if (agent.killSwitch) {
    await handOver(move, KILL_SWITCH_REASON, 'ai');
    return;
  }
  // A conversation in a running interview: its question decides, not the brain (interview-moves.ts).
  const interview = await findRunningSession(move.tx, move.record.conversation.id);
  if (interview) return continueInterview(move, interview, text, agent);
  // The early decision stands unless the conversation moved on meanwhile; then the retrieval brain
  // decides on what is there now.
  const { memory } = move.record;
  const current = early && JSON.stringify(early.memory) === JSON.stringify(memory) ? early.decision : undefined;
  const locale = move.record.locale ?? undefined;
  const retrieval = { knowledge: kb, actions, locale, agent: agent.profile, meaning };
  const decision = current ?? think((budget) => decide(text, memory, { ...retrieval, budget }));
  await greet(move, agent);
  await carryOut(move, applyHandoverRules(decision, text, move.record.memory, agent.profile));
}

export function createSending({ sql, knowledge, now, llm, onCommitted, brainTime, moves, earlyBrain }: SendingDeps) {
  return {
    /** Whether the account's replies are written by an LLM, which can stream them (retrieval's come whole). */
    async streams(caller: Caller): Promise<boolean> {
      if (!llm) return false;
      const agent = await readAgent(sql, caller);
      return agent.chosenBrain !== 'retrieval' && !agent.killSwitch;
    },

    /**
     * Refuses now (404, 409, 429) what sendMessage would refuse, so that a streamed answer starts
     * only for a message that can be taken.
     */
    async checkCanSend(caller: Caller, id: string): Promise<void> {
      brainTime.refuseWhenSpent(caller.accountId);
      nextState((await moves.conversationOf(caller, id)).conversation.state, 'message');
    },

    /**
     * Takes what the customer said and gives the events it caused. A `message_id` already seen in
     * this conversation replays the first answer's events instead of adding anything.
     *
     * `onDelta` gets the reply's text as an LLM writes it (nothing with the retrieval brain, whose
     * reply comes whole); the events, and what is kept, are the same either way. An account that
     * spent its brain time for the minute is refused (429) before anything is kept.
     */
    async sendMessage(
      caller: Caller,
      id: string,
      request: SendMessageRequest,
      onDelta?: (text: string) => void,
    ): Promise<SendMessageResponse> {
      const think = brainTime.forMessage(caller.accountId);
      // The customer's turn is kept at its arrival, so the first answer's time in reports includes a model's wait.
      const receivedAt = now();
      // Masking reads the whole message (all of it is kept): its time is the account's too.
      const text = think(() => maskCodes(request.text));
      const { kb, actions, meaning } = await readAnswerSources(sql, knowledge, caller, text);
      // No model is asked about a reply to an interview's question.
      const interviewing = llm !== undefined && (await findRunningSession(sql, id)) !== undefined;
      const early = interviewing
        ? undefined
        : await earlyBrain.decideEarly({ caller, id, text, request, kb, actions, think, onDelta });
      const { result: replayed, events } = await moves.withConversation(caller, id, undefined, async (move) => {
        if (request.message_id) {
          const earlier = await findTurnByMessageId(move.tx, id, request.message_id);
          if (earlier) return eventsCausedBy(move.tx, earlier);
        }
        await keepCustomerTurn(move, text, request, receivedAt);
        if (early && early.usage.promptTokens + early.usage.completionTokens > 0) {
          await addLlmUsage(move.tx, caller, early.usage, move.at);
        }
        // With people, the AI stays silent until a handback.
        if (move.record.conversation.state === 'ai') await answer(move, { text, kb, actions, think, early, meaning });
        return undefined;
      });
      if (!replayed) onCommitted?.(events);
      return { conversation_id: id, message_id: request.message_id ?? null, events: replayed ?? events };
    },
  };
}
