/**
 * The LLM's work, done before a move's transaction: a model may take seconds, and the
 * conversation's lock is not held (nor a connection taken) meanwhile. What it gives is checked
 * again inside the move, which may set it aside.
 */
import type { ActionResultRequest, SendMessageRequest } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { ActionDefinition } from '../brain/actions.ts';
import type { BrainMemory } from '../brain/brain.ts';
import { saysHandoverKeyword } from '../brain/agent-profile.ts';
import type { Think } from '../brain/bounds.ts';
import type { KnowledgeBase } from '../brain/knowledge-base.ts';
import { decideWithLlm, phraseResult, type HistoryTurn, type LlmDecision } from '../brain/llm-brain.ts';
import type { LlmClient } from '../brain/llm-client.ts';
import { readAgent } from '../store/agent.ts';
import { findActionRequest, findSandboxFixture } from '../store/actions.ts';
import { findConversation, findTurnByMessageId } from '../store/conversations.ts';
import type { Caller } from '../store/environment.ts';
import { recentTurns } from '../store/llm.ts';

export interface EarlyBrainDeps {
  sql: Sql;
  /** The LLM brain's model (LLM_BASE_URL); without it the retrieval brain answers. */
  llm: LlmClient | undefined;
}

/** A customer's message as the early decision reads it. */
export interface EarlyMessage {
  caller: Caller;
  id: string;
  /** The message, masked. */
  text: string;
  request: SendMessageRequest;
  kb: KnowledgeBase;
  actions: ActionDefinition[];
  think: Think;
  onDelta?: ((text: string) => void) | undefined;
}

/** The LLM's decision, with the memory it was made on (it stands only while that memory is the conversation's). */
export type EarlyDecision = LlmDecision & { memory: BrainMemory };

export function createEarlyBrain({ sql, llm }: EarlyBrainDeps) {
  /** The model's words for a caller's action result (undefined: the action's reply template). */
  async function phraseEarly(caller: Caller, id: string, request: ActionResultRequest, actions: ActionDefinition[]) {
    if (!llm) return undefined;
    const agent = await readAgent(sql, caller);
    if (agent.chosenBrain === 'retrieval' || agent.killSwitch) return undefined;
    const record = await findConversation(sql, caller, id);
    if (!record || record.conversation.state !== 'ai') return undefined;
    const pending = await findActionRequest(sql, id, request.action_request_id);
    const action =
      pending?.status === 'pending' ? actions.find((candidate) => candidate.name === pending.action) : undefined;
    if (!action || !pending) return undefined;
    const history = await recentTurns(sql, id, 8);
    const locale = record.locale ?? undefined;
    const { inputs } = pending;
    return phraseResult(llm, { action, inputs, result: request.result, history, locale, agent: agent.profile });
  }

  /**
   * The LLM brain's decision on a customer's message, from the conversation as read now.
   * Undefined when the retrieval brain decides: no model, the agent chose retrieval, the AI does
   * not have the conversation, the message was seen before, or it goes to people anyway (the kill
   * switch, a handover keyword).
   */
  async function decideEarly(message: EarlyMessage): Promise<EarlyDecision | undefined> {
    const { caller, id, text, request, kb, actions, think, onDelta } = message;
    if (!llm) return undefined;
    const record = await findConversation(sql, caller, id);
    if (!record || record.conversation.state !== 'ai') return undefined;
    if (request.message_id && (await findTurnByMessageId(sql, id, request.message_id))) return undefined;
    const agent = await readAgent(sql, caller);
    if (agent.chosenBrain === 'retrieval' || agent.killSwitch) return undefined;
    if (saysHandoverKeyword(text, agent.profile.handover.keywords)) return undefined;
    const history = await recentTurns(sql, id, 8);
    const locale = request.locale ?? record.locale ?? undefined;
    const { memory } = record;
    const asked = { text, memory, knowledge: kb, actions, locale, history, agent: agent.profile, think };
    const early = await decideWithLlm(llm, asked, onDelta);
    const { decision, usage } = early;
    // A sandbox fixture answers the tool call at once: its result goes back to the model, which tells the customer.
    if (decision.kind === 'action' && caller.environment === 'sandbox') {
      const fixture = await findSandboxFixture(sql, caller.accountId, decision.action.name);
      if (fixture) {
        const { action, inputs } = decision;
        const told: HistoryTurn[] = [...history, { role: 'customer', text }];
        const asked = { action, inputs, result: fixture, history: told, locale, agent: agent.profile };
        const phrased = await phraseResult(llm, asked);
        if (phrased) {
          decision.phrased = phrased.text;
          usage.promptTokens += phrased.usage.promptTokens;
          usage.completionTokens += phrased.usage.completionTokens;
        }
      }
    }
    return { ...early, memory };
  }

  return { phraseEarly, decideEarly };
}

export type EarlyBrain = ReturnType<typeof createEarlyBrain>;
