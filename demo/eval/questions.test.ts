import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELD_OUT, TUNING, type EvalLanguage, type EvalQuestion } from './questions.ts';

/**
 * The shape of the multilingual question set and of the translated knowledge base it is graded on; how well
 * the brain answers is measured elsewhere. Grades use the English headings, so every language folder must keep
 * the English files' sections in number.
 */
const KNOWLEDGE_DIR = join(import.meta.dirname, '..', 'knowledge');
const LANGUAGES: readonly EvalLanguage[] = ['en', 'de', 'es', 'fr'];
const TRANSLATIONS = ['de', 'es', 'fr'] as const;

function markdownFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.md'))
    .sort();
}

function sectionHeadings(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^##\s+(.+?)\s*$/gm)].map((match) => match[1]!);
}

const englishFiles = markdownFiles(KNOWLEDGE_DIR);
const englishHeadings = new Set(englishFiles.flatMap((name) => sectionHeadings(join(KNOWLEDGE_DIR, name))));

const SETS = [
  { name: 'HELD_OUT', questions: HELD_OUT, total: 60, perLanguage: 15 },
  { name: 'TUNING', questions: TUNING, total: 80, perLanguage: 20 },
];

describe.each(SETS)('the $name question set', ({ questions, total, perLanguage }) => {
  it(`holds at least ${String(total)} questions, at least ${String(perLanguage)} in each language`, () => {
    expect(questions.length).toBeGreaterThanOrEqual(total);
    for (const language of LANGUAGES)
      expect(questions.filter((question) => question.language === language).length, language).toBeGreaterThanOrEqual(
        perLanguage,
      );
  });

  it('grades only against real English headings', () => {
    const graded = questions.flatMap((question) => [question.expected, question.second ?? null]);
    expect(graded.filter((heading) => heading !== null && !englishHeadings.has(heading))).toEqual([]);
  });

  it('gives a follow-up its previous message, a two-part question its second answer, and nothing else either', () => {
    const misshapen = (question: EvalQuestion): boolean =>
      (question.kind === 'follow_up') !== (question.previous !== undefined && question.previous.trim() !== '') ||
      (question.kind === 'two_part') !== (question.second !== undefined);
    expect(questions.filter(misshapen)).toEqual([]);
  });

  it('has at least 20% questions to decline, each expecting "not sure"', () => {
    const declines = questions.filter((question) => question.kind === 'decline');
    expect(declines.length / questions.length).toBeGreaterThanOrEqual(0.2);
    expect(declines.filter((question) => question.expected !== null)).toEqual([]);
  });

  it('asks no question twice', () => {
    const asked = questions.map((question) => `${question.previous ?? ''}\n${question.question}`);
    expect(asked.length).toBe(new Set(asked).size);
  });
});

describe('the two sets', () => {
  it('share no question, so nothing tuned on is also held out', () => {
    const heldOut = new Set(HELD_OUT.map((question) => question.question.toLowerCase()));
    expect(TUNING.filter((question) => heldOut.has(question.question.toLowerCase()))).toEqual([]);
  });
});

describe.each(TRANSLATIONS)('the knowledge base in %s', (language) => {
  const folder = join(KNOWLEDGE_DIR, language);

  it('has the same files as the English one', () => {
    expect(markdownFiles(folder)).toEqual(englishFiles);
  });

  it.each(englishFiles)('has as many sections in %s as the English file', (name) => {
    expect(sectionHeadings(join(folder, name)).length).toBe(sectionHeadings(join(KNOWLEDGE_DIR, name)).length);
  });
});
