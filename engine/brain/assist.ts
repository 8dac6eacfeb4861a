/**
 * Assist without a model (issue 29): the reply a person could send next, read by the retrieval
 * brain from the customer's open questions, and a two-line summary built from the turns. Pure:
 * the conversation's turns and knowledge come in, the suggestion or the reason there is none goes out.
 */
import type { AssistNoSuggestion, AssistSource, AssistSuggestion } from '../../shared/schemas/assist.ts';
import type { ConversationState, Turn } from '../../shared/index.ts';
import { quote, searchLanguage } from './answering.ts';
import { readPart, type BrainBudget } from './bounds.ts';
import { answersHelped, asksForPerson, saysThanksOrBye } from './intents.ts';
import type { KnowledgeBase, KnowledgeSection } from './knowledge-base.ts';
import { readQuestion, type Reading } from './reading.ts';
import type { Meaning } from './semantic.ts';

/** A suggestion, or why there is none. */
export type AssistOutcome = { suggestion: AssistSuggestion } | { reason: AssistNoSuggestion };

/** How many of the customer's latest questions assist reads (the newest, and the one before it as its context). */
const OPEN_QUESTIONS_MAX = 2;
/** A question quoted in a summary is cut here. */
const QUOTED_CHARS_MAX = 100;
/** The confidence of a source matched by meaning only: the words alone did not say it. */
const MEANING_ONLY_CONFIDENCE = 0.5;

export const NO_QUESTION: AssistNoSuggestion = {
  code: 'no_question',
  message: 'The customer has asked nothing that is still open: there is nothing to answer yet.',
};

/** No article answers well: a person answers in their own words (or asks the customer more). */
export const noGoodSource = (question: string): AssistNoSuggestion => ({
  code: 'no_good_source',
  message: `No article of the knowledge base answers "${quoted(question)}" well enough to suggest a reply.`,
});

/** A message that asks something, rather than asking for a person, thanking, or answering "did that help?". */
export function asksSomething(text: string): boolean {
  return text.trim() !== '' && !asksForPerson(text) && !saysThanksOrBye(text) && answersHelped(text) === undefined;
}

/**
 * The customer's questions a person would answer next, oldest first: what they asked since a
 * person last wrote (before it, a person answered already), at most the latest two.
 */
export function openQuestions(turns: readonly Pick<Turn, 'role' | 'text'>[]): string[] {
  const lastHuman = turns.findLastIndex((turn) => turn.role === 'human');
  return turns
    .slice(lastHuman + 1)
    .filter((turn) => turn.role === 'customer' && asksSomething(turn.text))
    .map((turn) => turn.text)
    .slice(-OPEN_QUESTIONS_MAX);
}

/** An article's section as a source: its title, and its heading when it has several sections. */
export function sourceOf(section: KnowledgeSection): AssistSource {
  const title = section.heading === section.title ? section.title : `${section.title} › ${section.heading}`;
  return section.url ? { title, url: section.url } : { title };
}

/** How much of the question the sources match by words: the mean of their coverage (meaning alone counts half). */
function confidenceOf(knowledge: KnowledgeBase, reading: Reading, budget: BrainBudget): number {
  const hits = knowledge.search(reading.question, 3, budget, searchLanguage(knowledge, reading.language));
  const shares = reading.answer.sources.map(
    (section) => hits.find((hit) => hit.section.id === section.id)?.coverage ?? MEANING_ONLY_CONFIDENCE,
  );
  const mean = shares.reduce((sum, share) => sum + share, 0) / Math.max(shares.length, 1);
  return Math.round(mean * 100) / 100;
}

/**
 * The retrieval brain's suggestion for the open questions: the newest read with the one before it
 * (a follow-up is read as the customer meant it), else the one before alone. The reply quotes the
 * sections that answer, each with its source line, and no "did that help?" (the person asks what
 * they like). `meaning` is the newest question's, with an embeddings API.
 */
export function retrievalSuggestion(
  knowledge: KnowledgeBase,
  questions: readonly string[],
  options: { locale: string | undefined; budget: () => BrainBudget; meaning?: Meaning | undefined },
): AssistOutcome {
  const latest = questions.at(-1);
  if (latest === undefined) return { reason: NO_QUESTION };
  const previous = questions.length > 1 ? questions.at(-2)! : undefined;
  const { locale, budget, meaning } = options;
  const context = { question: previous ?? null, language: null };
  const readings = [() => readQuestion(knowledge, readPart(latest), context, locale, budget(), meaning)];
  if (previous !== undefined) {
    const alone = { question: null, language: null };
    readings.push(() => readQuestion(knowledge, readPart(previous), alone, locale, budget()));
  }
  for (const read of readings) {
    const reading = read();
    if (!reading.answer.answered) continue;
    const sections = reading.answer.sources;
    return {
      suggestion: {
        text: sections.map((section) => quote(section, reading.language)).join('\n\n'),
        sources: sections.map(sourceOf),
        confidence: confidenceOf(knowledge, reading, budget()),
      },
    };
  }
  return { reason: noGoodSource(latest) };
}

/** What the summary is made from, besides the turns: where the conversation is, and what the AI's answers were. */
export interface ConversationFacts {
  state: ConversationState;
  handoverCount: number;
  /** The AI's replies that answered from an article, and those that were not sure. */
  answered: number;
  unanswered: number;
}

/** A customer's words in one line, cut when long. */
function quoted(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= QUOTED_CHARS_MAX ? line : `${line.slice(0, QUOTED_CHARS_MAX - 1)}…`;
}

const times = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** The first line: what the customer asked (their first question, how many more, and the last). */
function askedLine(turns: readonly Pick<Turn, 'role' | 'text'>[]): string {
  const said = turns.filter((turn) => turn.role === 'customer').map((turn) => turn.text);
  const asked = said.filter(asksSomething);
  if (asked.length === 0)
    return said.length === 0 ? 'The customer has not written yet.' : `The customer wrote: "${quoted(said[0]!)}".`;
  const [first] = asked;
  if (asked.length === 1) return `The customer asked: "${quoted(first!)}".`;
  const more = asked.length === 2 ? 'then' : `then ${times(asked.length - 2, 'more question')}, last`;
  return `The customer asked: "${quoted(first!)}", ${more}: "${quoted(asked.at(-1)!)}".`;
}

/** The second line: what the AI answered, whether a person was asked for and has answered, and whether it is closed. */
function doneLine(turns: readonly Pick<Turn, 'role' | 'text'>[], facts: ConversationFacts): string {
  const parts: string[] = [];
  if (facts.answered > 0 && facts.unanswered > 0)
    parts.push(`the AI answered ${times(facts.answered, 'question')} and was not sure of ${facts.unanswered}`);
  else if (facts.answered > 0) parts.push(`the AI answered ${times(facts.answered, 'question')}`);
  else if (facts.unanswered > 0) parts.push(`the AI was not sure of ${times(facts.unanswered, 'question')}`);
  if (turns.some((turn) => turn.role === 'customer' && asksForPerson(turn.text)))
    parts.push('the customer asked for a person');
  const answers = turns.filter((turn) => turn.role === 'human').length;
  if (facts.state === 'human')
    parts.push(answers > 0 ? `people have it (${times(answers, 'answer')} so far)` : 'no person has answered yet');
  else if (facts.handoverCount > 0)
    parts.push(facts.state === 'ai' ? 'people had it and gave it back to the AI' : 'people had it');
  if (facts.state === 'closed') parts.push('it is closed');
  if (parts.length === 0) return 'Nothing has been answered yet.';
  const line = parts.join('; ');
  return `${line[0]!.toUpperCase()}${line.slice(1)}.`;
}

/**
 * The conversation so far in two lines, for the person who takes it over (in English, the team's
 * language): what the customer asked, and what has been done.
 *
 * @example summaryOf(turns, facts) // 'The customer asked: "How do I return an item?".\nThe AI answered 1 question; …'
 */
export function summaryOf(turns: readonly Pick<Turn, 'role' | 'text'>[], facts: ConversationFacts): string {
  return `${askedLine(turns)}\n${doneLine(turns, facts)}`;
}
