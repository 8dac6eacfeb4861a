/**
 * Assist with a model (issue 29): the model writes the suggested reply from the best knowledge
 * passages (and says NOT_SURE when they do not answer), summarises the conversation in two lines,
 * and improves a person's draft. It is prompted as llm-brain.ts prompts the AI, but for a person
 * of the team: it sees the conversation as a transcript, and what it writes is only offered.
 */
import type { AssistSuggestion } from '../../shared/schemas/assist.ts';
import type { Turn } from '../../shared/index.ts';
import { passagesFor } from './answering.ts';
import { noGoodSource, sourceOf, type AssistOutcome } from './assist.ts';
import { readPart, type BrainBudget } from './bounds.ts';
import type { KnowledgeBase, KnowledgeHit } from './knowledge-base.ts';
import { NOT_SURE_MARK } from './llm-brain.ts';
import type { LlmClient, LlmMessage } from './llm-client.ts';
import { languageName } from './texts.ts';

/** Passages scoring below this are not relevant enough to put in the prompt (the LLM brain's threshold). */
const PASSAGE_SCORE = 3.5;
/** How many of the latest turns the model reads. */
const TRANSCRIPT_TURNS = 12;
/** Each turn is cut here in the transcript (a paste says little more). */
const TURN_CHARS_MAX = 1_000;

/** Tokens a call used, to be counted to the account's month. */
export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface Written<T> {
  value: T;
  usage: LlmUsage;
}

const NAMES = { customer: 'Customer', ai: 'AI assistant', human: 'Support person', system: 'Note' } as const;

/** The conversation as the model reads it: one line per turn, the latest TRANSCRIPT_TURNS. */
export function transcriptFor(turns: readonly Pick<Turn, 'role' | 'text'>[]): string {
  return turns
    .slice(-TRANSCRIPT_TURNS)
    .map((turn) => `${NAMES[turn.role]}: ${readPart(turn.text).slice(0, TURN_CHARS_MAX)}`)
    .join('\n');
}

/** A passage as the model reads it: its number (what the answer cites), its article and its language. */
function passage(hit: KnowledgeHit, index: number): string {
  const { title, heading, language, text } = hit.section;
  return `[${index + 1}] ${title} › ${heading} (in ${languageName(language, 'en')})\n${text}`;
}

const CITATION = /\s*\[(\d{1,2})\]/g;

/** The text without its citations, and the passages it cites (by number), in the order cited. */
function citations(content: string, passages: readonly KnowledgeHit[]): { said: string; cited: KnowledgeHit[] } {
  const cited = [...content.matchAll(CITATION)]
    .map((match) => passages[Number(match[1]) - 1])
    .filter((hit): hit is KnowledgeHit => hit !== undefined);
  return { said: content.replace(CITATION, '').trim(), cited: [...new Set(cited)] };
}

/** The passages worth giving the model for `question`, in the customer's language first. */
export function passagesForAssist(
  knowledge: KnowledgeBase,
  question: string,
  language: string,
  budget: BrainBudget,
): KnowledgeHit[] {
  return passagesFor(knowledge, readPart(question), language, budget).filter((hit) => hit.score >= PASSAGE_SCORE);
}

/**
 * The model's reply for the open questions, from the passages only: null (no_good_source) when
 * there are none worth reading or the model says NOT_SURE. Throws LlmUnavailableError when the
 * model cannot answer now (the caller falls back to the retrieval brain).
 */
export async function llmSuggestion(
  llm: LlmClient,
  input: {
    turns: readonly Pick<Turn, 'role' | 'text'>[];
    question: string;
    language: string;
    passages: KnowledgeHit[];
  },
): Promise<Written<AssistOutcome>> {
  const { turns, question, language, passages } = input;
  const none = { promptTokens: 0, completionTokens: 0 };
  if (passages.length === 0) return { value: { reason: noGoodSource(question) }, usage: none };
  const system = [
    'You help a person of a support team answer a customer. Write the reply the person could send next, answering what the customer still asks, using only the passages below.',
    'Do not invent facts, prices, dates or policies that the passages do not state.',
    `If the passages do not answer the question, reply with exactly ${NOT_SURE_MARK} and nothing else.`,
    `Write the reply in ${languageName(language, 'en')}, whatever the language of the passages: translate what you take from them.`,
    'Cite your source: end the reply with the number of its passage in square brackets, for example [1].',
    '',
    'Passages:',
    passages.map(passage).join('\n\n'),
  ].join('\n');
  const messages: LlmMessage[] = [
    { role: 'system', content: system },
    {
      role: 'user',
      content: `The conversation so far:\n${transcriptFor(turns)}\n\nThe customer's open question: ${question}`,
    },
  ];
  const answer = await llm.chat(messages);
  const content = answer.content.trim();
  if (!content || content.includes(NOT_SURE_MARK))
    return { value: { reason: noGoodSource(question) }, usage: answer.usage };
  const { said, cited } = citations(content, passages);
  const sources = cited.length > 0 ? cited : [passages[0]!];
  const confidence = Math.round(Math.max(...sources.map((hit) => hit.coverage)) * 100) / 100;
  const suggestion: AssistSuggestion = { text: said, sources: sources.map((hit) => sourceOf(hit.section)), confidence };
  return { value: { suggestion }, usage: answer.usage };
}

/** The model's two-line summary; undefined when it gives none (the summary from the turns is used then). */
export async function llmSummary(
  llm: LlmClient,
  turns: readonly Pick<Turn, 'role' | 'text'>[],
): Promise<Written<string | undefined>> {
  const messages: LlmMessage[] = [
    {
      role: 'system',
      content:
        'Summarise this customer support conversation for the support person who takes it over. Write exactly two short lines in English: first what the customer wants, then what has been done so far (answered by the AI, handed over, answered by a person) and what is still open. No other text.',
    },
    { role: 'user', content: transcriptFor(turns) },
  ];
  const answer = await llm.chat(messages);
  const lines = answer.content
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*•]|\d[.)])\s*/, '').trim())
    .filter(Boolean);
  return { value: lines.length > 0 ? lines.slice(0, 2).join('\n') : undefined, usage: answer.usage };
}

/**
 * A person's draft, improved by the model: clearer and friendlier, in the customer's language,
 * its meaning and facts kept, nothing added but what the passages say. Its confidence is 1 (it
 * says what the person wrote); its sources are the passages it cites. Undefined when the model
 * gives no text; throws LlmUnavailableError when it cannot answer now.
 */
export async function improveDraft(
  llm: LlmClient,
  input: { turns: readonly Pick<Turn, 'role' | 'text'>[]; draft: string; language: string; passages: KnowledgeHit[] },
): Promise<Written<AssistSuggestion | undefined>> {
  const { turns, draft, language, passages } = input;
  const system = [
    'You help a person of a support team. Improve their draft reply to the customer: clear, friendly, correct spelling and grammar. Keep its meaning and every fact in it; add no facts but what the passages below state.',
    `Write it in ${languageName(language, 'en')}. Reply with the improved text only; when you use a passage, end with its number in square brackets, for example [1].`,
    '',
    'Passages:',
    passages.map(passage).join('\n\n') || '(none)',
  ].join('\n');
  const messages: LlmMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: `The conversation so far:\n${transcriptFor(turns)}\n\nThe draft:\n${draft}` },
  ];
  const answer = await llm.chat(messages);
  const { said, cited } = citations(answer.content.trim(), passages);
  if (!said || said.includes(NOT_SURE_MARK)) return { value: undefined, usage: answer.usage };
  return {
    value: { text: said, sources: cited.map((hit) => sourceOf(hit.section)), confidence: 1 },
    usage: answer.usage,
  };
}
