import { type BrainBudget } from './bounds.ts';
import { answerQuestion, notSureAnswer, quote, searchLanguage, type BrainAnswer } from './answering.ts';
import type { Meaning } from './semantic.ts';
import { documentOfSection, type KnowledgeBase, type KnowledgeSection } from './knowledge-base.ts';
import { placesNotMentioned } from './places.ts';
import { detectLanguage, languageOf } from './language.ts';
import { textsFor } from './texts.ts';

/** What the brain remembers of the customer's last question: a follow-up is read with it. */
export interface LastQuestion {
  question: string | null;
  language: string | null;
  /** The section it was answered from, when it was. */
  sectionId?: string | null;
}

/** A question as the brain read it: the answer, the words it answered (a follow-up joined to the question before), and their language. */
export interface Reading {
  answer: BrainAnswer;
  question: string;
  language: string;
}

// A follow-up has at most this many words; a longer message stands alone.
const FOLLOW_UP_WORDS_MAX = 8;
// A short message is read with the question before it only when at least this share of its words is the articles'.
const KNOWN_SHARE_MIN = 0.5;
// The question before and the follow-up are read together up to this length (a chain of follow-ups stays short).
const JOINED_CHARS_MAX = 400;

/** How a follow-up starts, per language: "and …", "what about …", "und …", "¿y …", "et …". */
const FOLLOW_UP_START: Record<string, RegExp> = {
  en: /^\s*(?:and|also|plus|what about|how about|same for|so)\b/iu,
  de: /^\s*(?:und|auch|was ist mit|wie ist es mit|wie sieht es mit|gilt das)(?=[\s,?]|$)/iu,
  es: /^\s*¿?\s*(?:y|también|qué tal|qué pasa con|y si)(?=[\s,?]|$)/iu,
  fr: /^\s*(?:et|aussi|qu'en est-il|quid|pareil pour|même chose pour|même)(?=[\s,?']|$)/iu,
};

/** Where a message asks a second question, per language: "…, and how much does it cost?", "… und was kostet das?". */
const SECOND_QUESTION: Record<string, RegExp> = {
  en: /(?:\?\s+(?:(?:and|also)\s+)?|[,;]?\s+(?:and|also)\s+)(?=(?:how|what|when|where|do|does|can|could|is|are|which|who|will|would)\b)/iu,
  de: /(?:\?\s+(?:(?:und|auch)\s+)?|,?\s+(?:und|auch)\s+)(?=(?:wie|was|wann|wo|kann|können|gibt|ist|sind|muss|welche|bekomme|habe)(?=\s))/iu,
  es: /(?:\?\s+¿?(?:y\s+)?|,?\s+y\s+¿?)(?=(?:cuánto|cuándo|cómo|qué|dónde|puedo|hay|es|se|cuál)(?=\s))/iu,
  fr: /(?:\?\s+(?:et\s+)?|,?\s+et\s+)(?=(?:combien|quand|comment|quel|quelle|quels|où|est-ce|puis|peut|c'est|faut)(?=[\s-]))/iu,
};

/** The customer's language: the conversation's when it has one, else the message's when it says enough to tell, else the last one seen. */
export function customerLanguage(text: string, locale: string | undefined, last: LastQuestion): string {
  if (locale) return languageOf(locale);
  return detectLanguage(text) ?? last.language ?? 'en';
}

function wordCount(text: string): number {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).length;
}

/** The two questions of a message that asks two, each with words of its own; none otherwise. */
export function splitQuestion(text: string, language: string): [string, string] | undefined {
  const pattern = SECOND_QUESTION[language];
  const match = pattern?.exec(text);
  if (!match || match.index === 0) return undefined;
  const first = text.slice(0, match.index).trim();
  const second = text.slice(match.index + match[0].length).trim();
  return wordCount(first) >= 2 && wordCount(second) >= 2 ? [first, second] : undefined;
}

/**
 * Both parts of a two-part question answered, or the one that can be, saying which it cannot;
 * undefined when neither can (the message is then read whole).
 */
function answerParts(knowledge: KnowledgeBase, parts: [string, string], language: string, budget: BrainBudget) {
  const answers = parts.map((part) => answerQuestion(knowledge, part, { language, budget, part: true }));
  const answered = answers.filter((answer) => answer.answered);
  if (answered.length === 0) return undefined;
  const texts = textsFor(language);
  // Each section once, with the places its part names that it does not mention.
  const quoted = new Map<string, { section: KnowledgeSection; part: string }>();
  answers.forEach((answer, index) => {
    for (const section of answer.sources)
      if (!quoted.has(section.id)) quoted.set(section.id, { section, part: parts[index]! });
  });
  const sections = [...quoted.values()].map(({ section }) => section);
  const quotes = [...quoted.values()].map(({ section, part }) =>
    quote(section, language, placesNotMentioned(knowledge, part, section.language)),
  );
  const missed = answers.flatMap((answer, index) => (answer.answered ? [] : [texts.partNotFound(parts[index]!)]));
  return {
    answered: true,
    text: [...quotes, ...missed, texts.didThatHelp].join('\n\n'),
    sources: sections,
  } satisfies BrainAnswer;
}

/**
 * Reads a customer's question and answers it: in two parts when it asks two; with the question
 * before it when it is a follow-up (it starts like one, or it is short and says too little to be
 * answered alone); else on its own. A follow-up that starts like one is never answered alone: read
 * alone, "and how long do I have?" would be about delivery times, not the returns it follows.
 */
export function readQuestion(
  knowledge: KnowledgeBase,
  text: string,
  last: LastQuestion,
  locale: string | undefined,
  budget: BrainBudget,
  meaning?: Meaning,
): Reading {
  const language = customerLanguage(text, locale, last);
  const startsAsFollowUp = FOLLOW_UP_START[language]?.test(text) ?? false;
  const parts = startsAsFollowUp ? undefined : splitQuestion(text, language);
  const inParts = parts && answerParts(knowledge, parts, language, budget);
  if (inParts) return { answer: inParts, question: text, language };

  const alone = answerQuestion(knowledge, text, { language, budget, meaning });
  // A short message that does not start like a follow-up is read as one only when it speaks of what the articles do.
  const onTopic =
    startsAsFollowUp || knowledge.knownShare(text, searchLanguage(knowledge, language)) >= KNOWN_SHARE_MIN;
  const mayFollow = last.question !== null && wordCount(text) <= FOLLOW_UP_WORDS_MAX && onTopic;
  if (!mayFollow || (alone.answered && !startsAsFollowUp)) return { answer: alone, question: text, language };
  const joined = `${last.question} ${text}`.slice(-JOINED_CHARS_MAX);
  // A follow-up of an answer stays in its article when its own words pick one of the article's sections
  // ("und was kostet das?" after the delivery times: the shipping costs, of the same article).
  if (last.sectionId) {
    const withinDocument = documentOfSection(last.sectionId);
    const within = answerQuestion(knowledge, text, { language, budget, withinDocument });
    if (within.answered) return { answer: within, question: joined, language };
  }
  const together = answerQuestion(knowledge, joined, {
    language,
    budget,
    followUp: true,
    previousSection: last.sectionId ?? null,
  });
  if (together.answered) return { answer: together, question: joined, language };
  return { answer: startsAsFollowUp && alone.answered ? notSureAnswer([], language) : alone, question: text, language };
}
