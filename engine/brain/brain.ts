import { extractInputs, matchAction, missingInputs, type ActionDefinition, type ActionInputs } from './actions.ts';
import { answersHelped, asksForPerson, saysThanksOrBye } from './intents.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { customerLanguage, readQuestion } from './reading.ts';
import type { Meaning } from './semantic.ts';

import { feedbackChoicesIn, personRequestIn, textsFor } from './texts.ts';
import { DEFAULT_AGENT, voiceOf, type AgentProfile } from './agent-profile.ts';
import { NO_DEADLINE, readPart, type BrainBudget } from './bounds.ts';
import type { ReplyChoice } from '../../shared/index.ts';

/** The article an answer came from: what "did that help?" is about. */
export interface AnswerSource {
  id: string;
  title: string;
}

/** What the AI remembers of a conversation between two messages. */
export interface BrainMemory {
  unansweredStreak: number;
  lastReplyAnswered: boolean;
  /** An action the AI is collecting inputs for. */
  awaitingAction: { action: string; inputs: ActionInputs } | null;
  /** The article of the last answer, until the customer says whether it helped. */
  lastAnswer: AnswerSource | null;
  /** The customer's last question as the brain read it: a follow-up is read with it. */
  lastQuestion: string | null;
  /** The language the customer last wrote in, when it could be told. */
  customerLanguage: string | null;
}

export const FRESH_MEMORY: BrainMemory = {
  unansweredStreak: 0,
  lastReplyAnswered: false,
  awaitingAction: null,
  lastAnswer: null,
  lastQuestion: null,
  customerLanguage: null,
};

/** What the AI decided to do about one customer message. */
export type Decision =
  | {
      kind: 'reply';
      text: string;
      answered: boolean;
      neutral?: boolean;
      choices?: ReplyChoice[];
      /** The article this answer is from (asked about next: did it help?). */
      source?: AnswerSource;
      /** The customer said whether the last answer helped. */
      feedback?: { helpful: boolean; source: AnswerSource };
      /** The question it answers, as the brain read it, and its language: remembered for a follow-up. */
      asked?: { question: string; language: string };
    }
  | { kind: 'ask'; text: string; action: string; inputs: ActionInputs }
  | {
      kind: 'action';
      action: ActionDefinition;
      inputs: ActionInputs;
      /** The LLM's words for the sandbox fixture's result (the template's otherwise). */
      phrased?: string;
    }
  | { kind: 'handover'; text: string; reason: 'customer_request' | 'no_answer' | 'keyword' }
  | { kind: 'close'; text: string };

// The brain's own sentences in the default (friendly) tone; the agent's tone chooses others (agent-profile.ts).
export const HANDOVER_TEXT = voiceOf('friendly').handover;
export const FAREWELL_TEXT = voiceOf('friendly').farewell;
export const WELCOME_TEXT = voiceOf('friendly').welcome;
export const HELPED_TEXT = voiceOf('friendly').helped;
export const NOT_HELPED_TEXT = voiceOf('friendly').notHelped;

/** What the brain knows besides the message and its memory of the conversation. */
export interface BrainContext {
  knowledge: KnowledgeBase;
  actions: readonly ActionDefinition[];
  locale?: string | undefined;
  agent?: AgentProfile | undefined;
  /** When its costly steps (the knowledge search, the action patterns) stop: bounds.ts. */
  budget: BrainBudget;
  /** The sections' and the question's vectors, with an embeddings API: questions are then matched by meaning too. */
  meaning?: Meaning | undefined;
}

/**
 * Decides what the AI does with a customer's message (already masked), in this order: hand over
 * when asked for a person; take the answer to "did that help?"; run or keep collecting an action;
 * close after a thank-you that follows a good answer; otherwise answer from the knowledge base or
 * say honestly that it is not sure. Its own sentences are in the agent's tone. It reads the
 * message's first MESSAGE_READ_CHARS, and once the budget is spent it answers with what it has
 * (asks for an input it did not find, or is not sure). A pure function of its inputs.
 */
export function decide(
  message: string,
  memory: BrainMemory,
  { knowledge, actions, locale, agent = DEFAULT_AGENT, budget, meaning }: BrainContext,
): Decision {
  const text = readPart(message);
  const last = {
    question: memory.lastQuestion ?? null,
    language: memory.customerLanguage ?? null,
    sectionId: memory.lastAnswer?.id ?? null,
  };
  // The language the brain's own sentences are in: the customer's.
  const speaks = customerLanguage(text, locale, last);
  const voice = voiceOf(agent.tone, speaks);
  if (asksForPerson(text)) return { kind: 'handover', text: voice.handover, reason: 'customer_request' };

  // A thank-you after a good answer closes the conversation (below), whatever else it says.
  const thanks = saysThanksOrBye(text);
  const helped = memory.lastAnswer && !thanks ? answersHelped(text) : undefined;
  if (memory.lastAnswer && helped !== undefined) {
    const feedback = { helpful: helped, source: memory.lastAnswer };
    if (helped) return { kind: 'reply', text: voice.helped, answered: false, neutral: true, feedback };
    const person = { label: textsFor(speaks).person, value: personRequestIn(speaks) };
    return { kind: 'reply', text: voice.notHelped, answered: false, neutral: true, choices: [person], feedback };
  }

  const matched = matchAction(text, actions);
  const awaited = memory.awaitingAction && actions.find((action) => action.name === memory.awaitingAction?.action);
  const action = matched ?? awaited;
  if (action) {
    const known = action === awaited ? memory.awaitingAction!.inputs : {};
    const inputs = extractInputs(action, text, known, budget);
    const found = Object.keys(inputs).length > Object.keys(known).length;
    if (action === matched || found) {
      const [missing] = missingInputs(action, inputs);
      if (!missing) return { kind: 'action', action, inputs };
      return { kind: 'ask', text: missing.ask, action: action.name, inputs };
    }
  }

  if (thanks) {
    return memory.lastReplyAnswered
      ? { kind: 'close', text: voice.farewell }
      : { kind: 'reply', text: voice.welcome, answered: false, neutral: true };
  }

  const { answer, question, language } = readQuestion(knowledge, text, last, locale, budget, meaning);
  const asked = { question, language };
  const [source] = answer.sources;
  if (answer.answered && source) {
    return {
      kind: 'reply',
      text: answer.text,
      answered: true,
      choices: feedbackChoicesIn(locale ?? language),
      source: { id: source.id, title: source.title },
      asked,
    };
  }
  return {
    kind: 'reply',
    text: answer.text,
    answered: false,
    asked,
    ...(answer.choices ? { choices: answer.choices } : {}),
  };
}
