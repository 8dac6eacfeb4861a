import type { ReplyChoice } from '../../shared/index.ts';
import { NO_DEADLINE, type BrainBudget } from './bounds.ts';
import type { KnowledgeBase, KnowledgeHit, KnowledgeSection } from './knowledge-base.ts';
import { placesNotMentioned } from './places.ts';
import { nearestSections, SEMANTIC_MIN, sureInMeaning, type Meaning } from './semantic.ts';
import { languageName, personRequestIn, textsFor } from './texts.ts';

// Below this BM25 score a hit is a coincidence of words, not an answer.
const MIN_SCORE = 5;
// An answer must match at least this share of what the question says.
const MIN_COVERAGE = 0.5;
// When the next section scores this close to the best, the question does not say which it means: ask.
const CLEAR_LEAD = 1.5;
// A follow-up read with the question before it carries both questions' words, so a smaller lead is clear enough.
const FOLLOW_UP_LEAD = 1.2;
// Hits from this score on are offered as choices when the brain is not sure.
const SUGGEST_SCORE = 3.5;
// How many of the best sections are looked through for those of one document.
const SECTIONS_SEARCHED_WITHIN = 20;
// The most articles offered as choices.
const SUGGESTIONS_MAX = 3;
// The thresholds are tuned on the eval's tuning questions: `npm run eval` prints the accuracy.

/** The language the account's articles are in when none is in the customer's. */
export const FALLBACK_LANGUAGE = 'en';

export interface BrainAnswer {
  answered: boolean;
  text: string;
  /** The sections the answer comes from (two for a question of two parts). */
  sources: KnowledgeSection[];
  /** When there is no sure answer: the nearest articles to pick from, and a person. */
  choices?: ReplyChoice[];
}

/** Where an answer comes from, as the customer reads it: the article (and its section), linked when it has an address. */
export function sourceLine(section: KnowledgeSection, locale?: string): string {
  const name = section.heading === section.title ? section.title : `${section.title} › ${section.heading}`;
  const word = textsFor(locale).source;
  return section.url ? `${word}: [${name}](${section.url})` : `${word}: ${name}`;
}

/** The section a search sure of: its topic in the heading, most of the question matched, no other nearly as good. */
export function sureHit(
  hits: readonly KnowledgeHit[],
  lead = CLEAR_LEAD,
  ownHeading = false,
): KnowledgeHit | undefined {
  const [best, next] = hits;
  // A question that is an article's heading in its own words is that article's, however close another comes.
  const clear = !next || next.score * lead <= (best?.score ?? 0) || best?.asksTheHeading === true;
  const named = ownHeading ? best?.ownHeadingMatched : best?.headingMatched;
  if (best && best.score >= MIN_SCORE && best.coverage >= MIN_COVERAGE && named && clear) return best;
  return undefined;
}

/** The languages a question is searched in: the customer's when articles are in it, else the account's fallback. */
export function searchLanguage(knowledge: KnowledgeBase, language: string): string {
  return knowledge.has(language) ? language : FALLBACK_LANGUAGE;
}

/**
 * Passages for a model that writes in any language: the best sections in the customer's language,
 * then the fallback language's (a shop may have written some articles only there).
 */
export function passagesFor(
  knowledge: KnowledgeBase,
  text: string,
  language: string,
  budget: BrainBudget = NO_DEADLINE,
): KnowledgeHit[] {
  const own = knowledge.has(language) ? knowledge.search(text, 3, budget, language) : [];
  const fallback = language === FALLBACK_LANGUAGE ? [] : knowledge.search(text, 2, budget, FALLBACK_LANGUAGE);
  return [...own, ...fallback];
}

/**
 * A section's words as an answer: said to be in another language when it is not the customer's,
 * and followed by the places the question names that it does not mention (`unnamed`).
 */
export function quote(section: KnowledgeSection, language: string, unnamed: readonly string[] = []): string {
  const texts = textsFor(language);
  const before =
    section.language === language ? '' : `${texts.otherLanguage(languageName(section.language, language))}\n\n`;
  const after = unnamed.length > 0 ? `\n\n${texts.notMentioned(unnamed.join(', '))}` : '';
  return `${before}${section.text}${after}\n\n${sourceLine(section, language)}`;
}

/** How a question is answered: in whose language, within what time, and with what else known. */
export interface AnswerOptions {
  /** The customer's language (`de`): articles in it are searched, else the fallback language's. */
  language?: string;
  budget?: BrainBudget;
  /**
   * The question is a follow-up read with the one before it: a smaller lead is clear enough, and
   * when none leads, the section the question before was answered from (its id) stays the answer
   * if it is still among the best two.
   */
  followUp?: boolean;
  previousSection?: string | null;
  /**
   * The question is one part of a question of two: short, so its word must be in the section's own
   * heading (a document's title names all its sections, and says too little to pick one).
   */
  part?: boolean;
  /** Only the sections of this document are searched (a follow-up of an answer from it). */
  withinDocument?: string;
  /** Vectors of the sections and the question, with an embeddings API (semantic.ts). */
  meaning?: Meaning | undefined;
}

/**
 * Answers from the knowledge base only when the match is good: by words (sureHit), or else, with
 * an embeddings API, by meaning (sureInMeaning); from the articles in the customer's language, or
 * the fallback language's when none is in theirs (saying so). Otherwise it says it is not sure, in
 * the customer's language, offering the nearest articles and a person.
 */
export function answerQuestion(knowledge: KnowledgeBase, text: string, options: AnswerOptions = {}): BrainAnswer {
  const { language = FALLBACK_LANGUAGE, budget = NO_DEADLINE, followUp = false, previousSection, meaning } = options;
  const { part = false, withinDocument } = options;
  const searched = searchLanguage(knowledge, language);
  const hits = withinDocument
    ? knowledge
        .search(text, SECTIONS_SEARCHED_WITHIN, budget, searched)
        .filter((hit) => hit.section.documentId === withinDocument)
    : knowledge.search(text, 3, budget, searched);
  const near = meaning ? nearestSections(knowledge.sectionsIn(searched), meaning, 3) : [];
  const stays =
    followUp && previousSection ? hits.slice(0, 2).find((hit) => hit.section.id === previousSection) : undefined;
  const best =
    sureHit(hits, followUp ? FOLLOW_UP_LEAD : CLEAR_LEAD, part)?.section ??
    stays?.section ??
    sureInMeaning(near)?.section;
  if (best) {
    const texts = textsFor(language);
    const unnamed = placesNotMentioned(knowledge, text, best.language);
    return { answered: true, text: `${quote(best, language, unnamed)}\n\n${texts.didThatHelp}`, sources: [best] };
  }
  const nearHeadings = near.filter((hit) => hit.similarity >= SEMANTIC_MIN).map((hit) => hit.section.heading);
  return notSureAnswer(hits, language, nearHeadings);
}

/** "Not sure", in the customer's language: the nearest articles to pick from (when some are near), and a person. */
export function notSureAnswer(
  hits: readonly KnowledgeHit[],
  locale?: string,
  nearInMeaning: readonly string[] = [],
): BrainAnswer & { answered: false } {
  const texts = textsFor(locale);
  const person: ReplyChoice = { label: texts.person, value: personRequestIn(locale) };
  const byWords = hits.filter((hit) => hit.score >= SUGGEST_SCORE).map((hit) => hit.section.heading);
  const near = [...new Set([...byWords, ...nearInMeaning])].slice(0, SUGGESTIONS_MAX);
  if (near.length > 0)
    return {
      answered: false,
      text: texts.notSureWithChoices,
      sources: [],
      choices: [...near.map((heading) => ({ label: heading, value: heading })), person],
    };
  return { answered: false, text: texts.notSure, sources: [], choices: [person] };
}
