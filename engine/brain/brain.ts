import { extractInputs, matchAction, missingInputs, type ActionDefinition, type ActionInputs } from './actions.ts';
import { asksForPerson, saysThanksOrBye } from './intents.ts';
import type { KnowledgeBase, KnowledgeHit, KnowledgeSection } from './knowledge-base.ts';
import { personRequestIn, textsFor } from './texts.ts';
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
}

export const FRESH_MEMORY: BrainMemory = {
  unansweredStreak: 0,
  lastReplyAnswered: false,
  awaitingAction: null,
  lastAnswer: null,
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

// Below this BM25 score a hit is a coincidence of words, not an answer.
const MIN_SCORE = 5;
// An answer must match at least this share of what the question says.
const MIN_COVERAGE = 0.5;
// When the next section scores this close to the best, the question does not say which it means: ask.
const CLEAR_LEAD = 1.5;
// Hits from this score on are offered as choices when the brain is not sure.
const SUGGEST_SCORE = 3.5;
// The thresholds are tuned on demo/knowledge-questions.ts: `npm run eval` prints the accuracy.

// The brain's own sentences in the default (friendly) tone; the agent's tone chooses others (agent-profile.ts).
export const HANDOVER_TEXT = voiceOf('friendly').handover;
export const FAREWELL_TEXT = voiceOf('friendly').farewell;
export const WELCOME_TEXT = voiceOf('friendly').welcome;
export const HELPED_TEXT = voiceOf('friendly').helped;
export const NOT_HELPED_TEXT = voiceOf('friendly').notHelped;
export const DID_THAT_HELP = 'Did that help?';
/** The buttons under an answer; pressing one sends its value. */
export const FEEDBACK_CHOICES: readonly ReplyChoice[] = [
  { label: 'Yes', value: 'Yes, that helped.' },
  { label: 'No', value: "No, that didn't help." },
];

export interface BrainAnswer {
  answered: boolean;
  text: string;
  /** The section the answer comes from. */
  source?: KnowledgeSection;
  /** When there is no sure answer: the nearest articles to pick from, and a person. */
  choices?: ReplyChoice[];
}

/** Where an answer comes from, as the customer reads it: the article (and its section), linked when it has an address. */
export function sourceLine(section: KnowledgeSection): string {
  const name = section.heading === section.title ? section.title : `${section.title} › ${section.heading}`;
  return section.url ? `Source: [${name}](${section.url})` : `Source: ${name}`;
}

/**
 * Answers from the knowledge base only when the match is good: the question's topic is in the
 * section's heading, most of what it says is matched, and no other section is nearly as good.
 * Otherwise it says it is not sure (in the customer's language), offering the nearest articles and a person.
 */
export function answerQuestion(
  knowledge: KnowledgeBase,
  text: string,
  locale?: string,
  budget: BrainBudget = NO_DEADLINE,
): BrainAnswer {
  const hits = knowledge.search(text, 3, budget);
  const [best, next] = hits;
  // A question that is an article's heading in its own words is that article's, however close another comes.
  const clear = !next || next.score * CLEAR_LEAD <= (best?.score ?? 0) || best?.asksTheHeading === true;
  if (best && best.score >= MIN_SCORE && best.coverage >= MIN_COVERAGE && best.headingMatched && clear) {
    return {
      answered: true,
      text: `${best.section.text}\n\n${sourceLine(best.section)}\n\n${DID_THAT_HELP}`,
      source: best.section,
    };
  }
  return notSureAnswer(hits, locale);
}

/** "Not sure", in the customer's language: the nearest articles to pick from (when some are near), and a person. */
export function notSureAnswer(
  hits: readonly KnowledgeHit[],
  locale?: string,
): { answered: false; text: string; choices: ReplyChoice[] } {
  const texts = textsFor(locale);
  const person: ReplyChoice = { label: texts.person, value: personRequestIn(locale) };
  const near = [...new Set(hits.filter((hit) => hit.score >= SUGGEST_SCORE).map((hit) => hit.section.heading))];
  if (near.length > 0)
    return {
      answered: false,
      text: texts.notSureWithChoices,
      choices: [...near.map((heading) => ({ label: heading, value: heading })), person],
    };
  return { answered: false, text: texts.notSure, choices: [person] };
}

/** What the brain knows besides the message and its memory of the conversation. */
export interface BrainContext {
  knowledge: KnowledgeBase;
  actions: readonly ActionDefinition[];
  locale?: string | undefined;
  agent?: AgentProfile | undefined;
  /** When its costly steps (the knowledge search, the action patterns) stop: bounds.ts. */
  budget: BrainBudget;
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
  { knowledge, actions, locale, agent = DEFAULT_AGENT, budget }: BrainContext,
): Decision {
  const text = readPart(message);
  const voice = voiceOf(agent.tone);
  if (asksForPerson(text)) return { kind: 'handover', text: voice.handover, reason: 'customer_request' };

  if (memory.lastAnswer) {
    const [yes, no] = FEEDBACK_CHOICES;
    if (text.trim() === yes!.value)
      return {
        kind: 'reply',
        text: voice.helped,
        answered: false,
        neutral: true,
        feedback: { helpful: true, source: memory.lastAnswer },
      };
    if (text.trim() === no!.value) {
      const person = { label: textsFor(locale).person, value: personRequestIn(locale) };
      return {
        kind: 'reply',
        text: voice.notHelped,
        answered: false,
        neutral: true,
        choices: [person],
        feedback: { helpful: false, source: memory.lastAnswer },
      };
    }
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

  if (saysThanksOrBye(text)) {
    return memory.lastReplyAnswered
      ? { kind: 'close', text: voice.farewell }
      : { kind: 'reply', text: voice.welcome, answered: false, neutral: true };
  }

  const answer = answerQuestion(knowledge, text, locale, budget);
  if (answer.answered && answer.source) {
    return {
      kind: 'reply',
      text: answer.text,
      answered: true,
      choices: [...FEEDBACK_CHOICES],
      source: { id: answer.source.id, title: answer.source.title },
    };
  }
  return { kind: 'reply', text: answer.text, answered: false, ...(answer.choices ? { choices: answer.choices } : {}) };
}
