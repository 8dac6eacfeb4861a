import { readKnowledge } from '../demo/seed.ts';
import { demoKnowledge } from '../demo/eval/grade.ts';
import { TUNING } from '../demo/eval/questions.ts';
import { readQuestion } from '../engine/brain/reading.ts';
import { NO_DEADLINE } from '../engine/brain/bounds.ts';
const { knowledge } = demoKnowledge(await readKnowledge());
for (const q of TUNING.filter((q) => q.kind === 'follow_up' || q.kind === 'two_part')) {
  let last = { question: null as string | null, language: null as string | null };
  if (q.previous) { const r = readQuestion(knowledge, q.previous, last, undefined, NO_DEADLINE); last = { question: r.question, language: r.language }; console.log('  prev', JSON.stringify(q.previous), r.language, r.answer.answered ? r.answer.sources[0]!.heading : 'NOT SURE'); }
  const r = readQuestion(knowledge, q.question, last, undefined, NO_DEADLINE);
  const lang = r.language;
  console.log(q.kind, JSON.stringify(q.question), lang, '→', r.answer.answered ? r.answer.sources.map((s) => s.heading).join(' + ') : 'NOT SURE', '| read as', JSON.stringify(r.question));
  console.log('   hits', knowledge.search(r.question, 3, undefined, lang).map((h) => `${h.section.heading} ${h.score.toFixed(0)} c${h.coverage.toFixed(2)} ${h.headingMatched}`).join(' | '));
}
