import type { QualityReason } from '../../shared/index.ts';

/** How well a closed conversation went, 0 to 100, with the reasons that moved the score. */
export interface QualityFacts {
  resolved: boolean;
  customerMessages: number;
  answeredReplies: number;
  unansweredReplies: number;
  handoversForNoAnswer: number;
  otherHandovers: number;
  failedActions: number;
  succeededActions: number;
}

const BASE = 60;

export function scoreQuality(facts: QualityFacts): { score: number; reasons: QualityReason[] } {
  const reasons: QualityReason[] = [];
  const add = (condition: boolean, code: string, effect: number, description: string) => {
    if (condition && effect !== 0) reasons.push({ code, effect, description });
  };
  add(facts.resolved, 'resolved', 25, 'The AI resolved the conversation.');
  add(!facts.resolved, 'not_resolved', -10, 'The conversation ended without the AI resolving it.');
  add(
    facts.answeredReplies > 0 && facts.unansweredReplies === 0,
    'every_question_answered',
    10,
    'Every question had an answer from the knowledge base.',
  );
  add(
    facts.unansweredReplies > 0,
    'unanswered_questions',
    -Math.min(30, 10 * facts.unansweredReplies),
    `${facts.unansweredReplies} question(s) had no answer in the knowledge base.`,
  );
  add(
    facts.handoversForNoAnswer > 0,
    'handover_no_answer',
    -20,
    'The AI had to hand over because it could not answer.',
  );
  add(facts.otherHandovers > 0, 'handover', -5, 'The conversation was handed to people.');
  add(facts.succeededActions > 0, 'actions_succeeded', 5, `${facts.succeededActions} action(s) ran successfully.`);
  add(
    facts.failedActions > 0,
    'actions_failed',
    -Math.min(30, 15 * facts.failedActions),
    `${facts.failedActions} action(s) failed.`,
  );
  add(facts.customerMessages === 0, 'no_messages', -30, 'The customer never wrote.');
  const score = Math.max(0, Math.min(100, BASE + reasons.reduce((sum, reason) => sum + reason.effect, 0)));
  return { score, reasons };
}
