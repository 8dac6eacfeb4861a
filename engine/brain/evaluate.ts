import { answerQuestion } from './answering.ts';
import type { KnowledgeBase } from './knowledge-base.ts';

/** One question with the section heading that answers it, or null when the brain must say it is not sure. */
export interface LabelledQuestion {
  question: string;
  expected: string | null;
}

/** What the retrieval brain did with one labelled question. */
export interface Graded {
  question: string;
  expected: string | null;
  /** The heading it answered from, or null when it said it was not sure. */
  answeredFrom: string | null;
  outcome: 'right' | 'wrong_article' | 'answered_off_topic' | 'unsure_but_known';
}

export interface Evaluation {
  graded: Graded[];
  /** Right answers and right "not sure"s, over all questions. */
  accuracy: number;
  /** Answers built from an article the question does not match (the worst outcome). */
  wrongAnswers: number;
}

/** Grades the retrieval brain on a labelled question set: a pure function of the knowledge and the questions. */
export function evaluate(knowledge: KnowledgeBase, questions: readonly LabelledQuestion[]): Evaluation {
  const graded = questions.map(({ question, expected }): Graded => {
    const answer = answerQuestion(knowledge, question);
    const answeredFrom = answer.answered ? (answer.sources[0]?.heading ?? null) : null;
    const outcome =
      answeredFrom === expected
        ? 'right'
        : answeredFrom === null
          ? 'unsure_but_known'
          : expected === null
            ? 'answered_off_topic'
            : 'wrong_article';
    return { question, expected, answeredFrom, outcome };
  });
  const right = graded.filter((grade) => grade.outcome === 'right').length;
  return {
    graded,
    accuracy: questions.length === 0 ? 1 : right / questions.length,
    wrongAnswers: graded.filter((grade) => grade.outcome === 'wrong_article' || grade.outcome === 'answered_off_topic')
      .length,
  };
}
