import { extractInputs, matchAction, missingInputs, type ActionDefinition, type ActionInputs } from './actions.ts';
import { asksForPerson, saysThanksOrBye } from './intents.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import type { ReplyChoice } from '../../shared/index.ts';

/** What the AI remembers of a conversation between two messages. */
export interface BrainMemory {
  unansweredStreak: number;
  lastReplyAnswered: boolean;
  /** An action the AI is collecting inputs for. */
  awaitingAction: { action: string; inputs: ActionInputs } | null;
}

/** What the AI decided to do about one customer message. */
export type Decision =
  | { kind: 'reply'; text: string; answered: boolean; neutral?: boolean; choices?: ReplyChoice[] }
  | { kind: 'ask'; text: string; action: string; inputs: ActionInputs }
  | { kind: 'action'; action: ActionDefinition; inputs: ActionInputs }
  | { kind: 'handover'; text: string; reason: 'customer_request' | 'no_answer' }
  | { kind: 'close'; text: string };

// Below this BM25 score a hit is a coincidence of words, not an answer.
const MIN_SCORE = 5;
// Hits between this and MIN_SCORE are offered as "did you mean" choices.
const SUGGEST_SCORE = 3.5;

// After this many questions in a row without an answer, the AI hands over.
const UNANSWERED_BEFORE_HANDOVER = 2;

export const NO_ANSWER_TEXT = "I'm sorry, I couldn't find an answer to that in our help articles. Could you put it another way?";
export const HANDOVER_TEXT = "Of course. I'm passing you to a person from our team; they will answer here as soon as they can.";
export const NO_ANSWER_HANDOVER_TEXT = "I'm sorry, I still couldn't find an answer. I'm passing you to a person from our team; they will answer here as soon as they can.";
export const FAREWELL_TEXT = "You're welcome! I'm glad I could help. I'll close this chat now; write again any time.";
export const WELCOME_TEXT = "You're welcome! Is there anything else I can help you with?";
export const SUGGEST_TEXT = "I'm not sure I understood. Did you mean one of these?";

export interface BrainAnswer {
  answered: boolean;
  text: string;
  sourceId?: string;
  /** When there is no sure answer but some near ones: their headings, to pick from. */
  choices?: ReplyChoice[];
}

/** Answers from the knowledge base; offers the near topics when unsure; or says plainly that it cannot. */
export function answerQuestion(knowledge: KnowledgeBase, text: string): BrainAnswer {
  const hits = knowledge.search(text, 3);
  const [best] = hits;
  if (best && best.score >= MIN_SCORE) return { answered: true, text: best.section.text, sourceId: best.section.id };
  const near = [...new Set(hits.filter((hit) => hit.score >= SUGGEST_SCORE).map((hit) => hit.section.heading))];
  if (near.length > 0) return { answered: false, text: SUGGEST_TEXT, choices: near.map((heading) => ({ label: heading, value: heading })) };
  return { answered: false, text: NO_ANSWER_TEXT };
}

/**
 * Decides what the AI does with a customer's message (already masked), in this order: hand over
 * when asked for a person; run or keep collecting an action; close after a thank-you that follows a
 * good answer; otherwise answer from the knowledge base, handing over after repeated misses.
 */
export function decide(text: string, memory: BrainMemory, knowledge: KnowledgeBase, actions: readonly ActionDefinition[]): Decision {
  if (asksForPerson(text)) return { kind: 'handover', text: HANDOVER_TEXT, reason: 'customer_request' };

  const matched = matchAction(text, actions);
  const awaited = memory.awaitingAction && actions.find((action) => action.name === memory.awaitingAction?.action);
  const action = matched ?? awaited;
  if (action) {
    const known = action === awaited ? memory.awaitingAction!.inputs : {};
    const inputs = extractInputs(action, text, known);
    const found = Object.keys(inputs).length > Object.keys(known).length;
    if (action === matched || found) {
      const [missing] = missingInputs(action, inputs);
      if (!missing) return { kind: 'action', action, inputs };
      return { kind: 'ask', text: missing.ask, action: action.name, inputs };
    }
  }

  if (saysThanksOrBye(text)) {
    return memory.lastReplyAnswered ? { kind: 'close', text: FAREWELL_TEXT } : { kind: 'reply', text: WELCOME_TEXT, answered: false, neutral: true };
  }

  const answer = answerQuestion(knowledge, text);
  if (!answer.answered && memory.unansweredStreak + 1 >= UNANSWERED_BEFORE_HANDOVER) {
    return { kind: 'handover', text: NO_ANSWER_HANDOVER_TEXT, reason: 'no_answer' };
  }
  return { kind: 'reply', text: answer.text, answered: answer.answered, ...(answer.choices ? { choices: answer.choices } : {}) };
}
