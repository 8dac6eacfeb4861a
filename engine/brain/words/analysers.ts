import { stemmer as stemGerman } from '@orama/stemmers/german';
import { stemmer as stemSpanish } from '@orama/stemmers/spanish';
import { stemmer as stemFrench } from '@orama/stemmers/french';
import { isReadLanguage, type ReadLanguage } from '../language.ts';
import { SAME_MEANING } from './same-meaning.ts';
import { STOP_WORDS } from './stop-words.ts';

/** How one language's words are read: which say nothing, what each stems to, and its word families. */
export interface Analyser {
  language: string;
  stopWords: ReadonlySet<string>;
  stem(word: string): string;
  /** The text (lower-case) with its word families put in one word (same-meaning.ts). */
  normalise(text: string): string;
}

/** A light English stemmer, the same for documents and questions: "returned", "returns" and "return" meet. */
export function stemEnglish(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 6 && word.endsWith('ment')) return word.slice(0, -4);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

// Snowball's stemmers for the other languages (@orama/stemmers): "Lieferungen" and "Lieferung" meet.
const STEMMERS: Record<ReadLanguage, (word: string) => string> = {
  en: stemEnglish,
  de: stemGerman,
  es: stemSpanish,
  fr: stemFrench,
};

function normaliser(rules: readonly [RegExp, string][]): (text: string) => string {
  return (text) => {
    let normalised = text.toLowerCase().replaceAll('’', "'");
    for (const [pattern, word] of rules) normalised = normalised.replace(pattern, word);
    return normalised;
  };
}

const ANALYSERS = new Map<string, Analyser>(
  Object.entries(STEMMERS).map(([language, stem]) => [
    language,
    {
      language,
      stopWords: STOP_WORDS[language as ReadLanguage],
      stem,
      normalise: normaliser(SAME_MEANING[language as ReadLanguage]),
    },
  ]),
);

/** The analyser of a language; for one the brain has no words of, words are kept whole and none is left out. */
export function analyserFor(language: string): Analyser {
  if (isReadLanguage(language)) return ANALYSERS.get(language)!;
  return { language, stopWords: new Set(), stem: (word) => word, normalise: normaliser([]) };
}
