import { NO_DEADLINE } from '../../engine/brain/bounds.ts';
import { KnowledgeBase, splitSections, type KnowledgeDocument } from '../../engine/brain/knowledge-base.ts';
import { readQuestion, type LastQuestion } from '../../engine/brain/reading.ts';
import type { DemoKnowledgeDocument } from '../seed.ts';
import type { EvalKind, EvalLanguage, EvalQuestion } from './questions.ts';

/** How one eval question went: right, a wrong article (the worst), answered what it should decline, or unsure of what it could answer. */
export type Outcome = 'right' | 'wrong_article' | 'answered_off_topic' | 'unsure_but_known';

export interface GradedQuestion {
  question: EvalQuestion;
  /** The English headings of the sections answered from (none when unsure). */
  answeredFrom: string[];
  outcome: Outcome;
}

/** The demo's documents in every language, each section known by the English heading of the same section. */
export function demoKnowledge(documents: readonly DemoKnowledgeDocument[]): {
  knowledge: KnowledgeBase;
  englishHeading: (sectionId: string) => string;
} {
  // Each language has the same files in the same order, each with the same sections: file n of any language is English file n.
  const seen = new Map<string, number>();
  const withIds: KnowledgeDocument[] = documents.map((document) => {
    const index = seen.get(document.locale) ?? 0;
    seen.set(document.locale, index + 1);
    return { id: `${document.locale}:${index}`, title: document.title, body: document.body, locale: document.locale };
  });
  const headings = new Map(
    withIds
      .filter((document) => document.locale === 'en')
      .flatMap(splitSections)
      .map((s) => [s.id, s.heading]),
  );
  const englishHeading = (sectionId: string) => headings.get(sectionId.replace(/^[^:]+:/, 'en:')) ?? sectionId;
  return { knowledge: new KnowledgeBase(withIds), englishHeading };
}

/** What the questions expect answered: the article, and for two parts the second's too. */
function expectedHeadings(question: EvalQuestion): string[] {
  return [question.expected, question.second].filter((heading): heading is string => typeof heading === 'string');
}

/**
 * Asks the brain one question as a customer would, with no locale given (its language is told from
 * its words): a follow-up after its previous question, read by the brain as it was.
 */
export function gradeQuestion(
  knowledge: KnowledgeBase,
  englishHeading: (sectionId: string) => string,
  question: EvalQuestion,
): GradedQuestion {
  let last: LastQuestion = { question: null, language: null };
  if (question.previous) {
    const before = readQuestion(knowledge, question.previous, last, undefined, NO_DEADLINE);
    const sectionId = before.answer.answered ? (before.answer.sources[0]?.id ?? null) : null;
    last = { question: before.question, language: before.language, sectionId };
  }
  const reading = readQuestion(knowledge, question.question, last, undefined, NO_DEADLINE);
  const answeredFrom = reading.answer.answered ? reading.answer.sources.map((s) => englishHeading(s.id)) : [];
  const expected = expectedHeadings(question);
  const outcome: Outcome =
    answeredFrom.length === 0
      ? expected.length === 0
        ? 'right'
        : 'unsure_but_known'
      : expected.length === 0
        ? 'answered_off_topic'
        : answeredFrom.some((heading) => !expected.includes(heading))
          ? 'wrong_article'
          : expected.every((heading) => answeredFrom.includes(heading))
            ? 'right'
            : 'unsure_but_known';
  return { question, answeredFrom, outcome };
}

/** The share right of the questions that pass `filter`, and how many they are. */
export interface Score {
  right: number;
  of: number;
}

export function score(graded: readonly GradedQuestion[], filter: (question: EvalQuestion) => boolean): Score {
  const chosen = graded.filter((grade) => filter(grade.question));
  return { right: chosen.filter((grade) => grade.outcome === 'right').length, of: chosen.length };
}

export const EVAL_LANGUAGES: readonly EvalLanguage[] = ['en', 'de', 'es', 'fr'];
export const EVAL_KINDS: readonly EvalKind[] = [
  'paraphrase',
  'own_words',
  'follow_up',
  'two_part',
  'near_miss',
  'decline',
];
