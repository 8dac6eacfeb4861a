import { readKnowledge } from '../demo/seed.ts';
import { EVAL_QUESTIONS } from '../demo/knowledge-questions.ts';
import { KnowledgeBase } from '../engine/brain/knowledge-base.ts';
import { evaluate } from '../engine/brain/evaluate.ts';

/**
 * `npm run eval`: the retrieval brain on the demo knowledge base and its question set
 * (`demo/knowledge-questions.ts`). Prints every miss and the accuracy; exits 1 when any answer
 * was built from an article the question does not match.
 */
const documents = (await readKnowledge())
  .filter((document) => document.locale === 'en')
  .map((document, index) => ({ id: `doc_${index}`, ...document }));
const result = evaluate(new KnowledgeBase(documents), EVAL_QUESTIONS);
const label: Record<string, string> = {
  wrong_article: 'WRONG ARTICLE',
  answered_off_topic: 'ANSWERED, should be unsure',
  unsure_but_known: 'unsure, could answer',
};
for (const grade of result.graded) {
  if (grade.outcome === 'right') continue;
  process.stdout.write(
    `${label[grade.outcome]}: "${grade.question}" → ${grade.answeredFrom ?? 'not sure'} (expected ${grade.expected ?? 'not sure'})\n`,
  );
}
const right = result.graded.filter((grade) => grade.outcome === 'right').length;
process.stdout.write(
  `\nRetrieval brain: ${right} of ${result.graded.length} right (${(result.accuracy * 100).toFixed(1)}%), ${result.wrongAnswers} answered from an article that does not match\n`,
);
process.exit(result.wrongAnswers > 0 ? 1 : 0);
