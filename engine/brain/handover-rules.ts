import { saysHandoverKeyword, voiceOf, type AgentProfile } from './agent-profile.ts';
import type { BrainMemory, Decision } from './brain.ts';

/**
 * The agent's handover rules (`/v1/agent` `handover`), over whichever brain decided: a message that
 * says one of the keywords goes to people at once; and with `after_failed_answers: n`, the n-th
 * "not sure" answer in a row becomes a handover instead (a handover resets the count). A person the
 * customer asked for is handed over anyway.
 *
 * @example applyHandoverRules(decide(text, memory, kb, actions), text, memory, agent)
 */
export function applyHandoverRules(
  decision: Decision,
  text: string,
  memory: BrainMemory,
  agent: AgentProfile,
): Decision {
  if (decision.kind === 'handover') return decision;
  const voice = voiceOf(agent.tone);
  if (saysHandoverKeyword(text, agent.handover.keywords))
    return { kind: 'handover', text: voice.handover, reason: 'keyword' };
  const limit = agent.handover.afterFailedAnswers;
  const notSure = decision.kind === 'reply' && !decision.answered && !decision.neutral;
  if (limit !== null && notSure && memory.unansweredStreak + 1 >= limit)
    return { kind: 'handover', text: voice.noAnswerHandover, reason: 'no_answer' };
  return decision;
}
