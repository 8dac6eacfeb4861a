import { readKnowledge } from '../demo/seed.ts';
import { EVAL_QUESTIONS } from '../demo/knowledge-questions.ts';
import { HELD_OUT, TUNING } from '../demo/eval/questions.ts';
import {
  demoKnowledge,
  EVAL_KINDS,
  EVAL_LANGUAGES,
  gradeQuestion,
  score,
  type GradedQuestion,
} from '../demo/eval/grade.ts';
import { KnowledgeBase } from '../engine/brain/knowledge-base.ts';
import { evaluate } from '../engine/brain/evaluate.ts';

/**
 * `npm run eval`: the retrieval brain on the demo knowledge base in four languages.
 * - The English set (`demo/knowledge-questions.ts`): every miss and the accuracy.
 * - The multilingual set (`demo/eval/questions.ts`): accuracy per language and per kind, for the
 *   tuning part (its misses printed, to work on) and the held-out part (figures only: it is never
 *   tuned on). Exits 1 when any answer comes from an article the question does not match.
 */
const documents = await readKnowledge();
const english = documents.filter((document) => document.locale === 'en');
const englishSet = evaluate(
  new KnowledgeBase(english.map((document, index) => ({ id: `doc_${index}`, ...document }))),
  EVAL_QUESTIONS,
);
const out = (line = '') => process.stdout.write(`${line}\n`);
const percent = ({ right, of }: { right: number; of: number }) =>
  `${right}/${of} (${of === 0 ? '–' : ((right / of) * 100).toFixed(0)}%)`;

for (const grade of englishSet.graded)
  if (grade.outcome !== 'right')
    out(
      `  ${grade.outcome}: "${grade.question}" → ${grade.answeredFrom ?? 'not sure'} (expected ${grade.expected ?? 'not sure'})`,
    );
const englishRight = englishSet.graded.filter((grade) => grade.outcome === 'right').length;
out(
  `English set: ${englishRight} of ${englishSet.graded.length} right, ${englishSet.wrongAnswers} from a wrong article\n`,
);

const { knowledge, englishHeading } = demoKnowledge(documents);
const report = (name: string, graded: GradedQuestion[], showMisses: boolean) => {
  if (showMisses)
    for (const grade of graded)
      if (grade.outcome !== 'right')
        out(
          `  ${grade.outcome}: [${grade.question.language} ${grade.question.kind}] "${grade.question.question}" → ${grade.answeredFrom.join(' + ') || 'not sure'}`,
        );
  out(`${name}: ${percent(score(graded, () => true))} right`);
  out(
    `  by language: ${EVAL_LANGUAGES.map((l) => `${l} ${percent(score(graded, (q) => q.language === l))}`).join(', ')}`,
  );
  out(`  by kind: ${EVAL_KINDS.map((k) => `${k} ${percent(score(graded, (q) => q.kind === k))}`).join(', ')}`);
  const wrong = graded.filter((grade) => grade.outcome === 'wrong_article' || grade.outcome === 'answered_off_topic');
  out(`  from a wrong article: ${wrong.length}\n`);
  return wrong.length;
};
const tuning = TUNING.map((question) => gradeQuestion(knowledge, englishHeading, question));
const heldOut = HELD_OUT.map((question) => gradeQuestion(knowledge, englishHeading, question));
const wrong = report('Tuning set', tuning, true) + report('Held-out set (never tuned on)', heldOut, false);
process.exit(englishSet.wrongAnswers + wrong > 0 ? 1 : 0);
