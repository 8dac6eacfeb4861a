import { eld } from 'eld/extrasmall';

/** The languages the retrieval brain reads on their own: their stop words and stems (words/). */
export const READ_LANGUAGES = ['en', 'de', 'es', 'fr'] as const;
export type ReadLanguage = (typeof READ_LANGUAGES)[number];

/** The language part of a locale (`de-AT` → `de`), lower-case; English for none. */
export function languageOf(locale: string | null | undefined): string {
  return (locale ?? 'en').split(/[-_]/)[0]!.toLowerCase() || 'en';
}

export function isReadLanguage(language: string): language is ReadLanguage {
  return (READ_LANGUAGES as readonly string[]).includes(language);
}

// A message of fewer words says too little to tell its language ("Paris?", "ok danke").
const DETECT_WORDS_MIN = 3;

eld.setLanguageSubset([...READ_LANGUAGES]);

/**
 * The language a message is written in, when it says enough to tell: three words or more, and the
 * detector (eld, restricted to the brain's languages) sure of it. Undefined otherwise: then the
 * conversation's language stands.
 */
export function detectLanguage(text: string): ReadLanguage | undefined {
  const words = text.match(/[\p{L}]+/gu) ?? [];
  if (words.length < DETECT_WORDS_MIN) return undefined;
  const result = eld.detect(text);
  return result.isReliable() && isReadLanguage(result.language) ? result.language : undefined;
}
