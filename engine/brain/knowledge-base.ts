import { NO_DEADLINE, type BrainBudget } from './bounds.ts';
import { LanguageIndex } from './language-index.ts';
import { splitSections, type KnowledgeDocument, type KnowledgeHit, type KnowledgeSection } from './sections.ts';
import { analyserFor } from './words/analysers.ts';

export {
  documentOfSection,
  splitSections,
  type KnowledgeDocument,
  type KnowledgeHit,
  type KnowledgeSection,
} from './sections.ts';

export { QUESTION_WORDS_MAX, WORD_CHARS_MAX } from './language-index.ts';

/**
 * An account's approved documents, one index per language they are written in: a question is
 * searched in the sections of one language, read with that language's words (language-index.ts).
 */
export class KnowledgeBase {
  readonly #indexes = new Map<string, LanguageIndex>();
  readonly #sections: ReadonlyMap<string, readonly KnowledgeSection[]>;
  readonly #size: number;

  constructor(documents: readonly KnowledgeDocument[]) {
    const byLanguage = new Map<string, KnowledgeSection[]>();
    for (const section of documents.flatMap(splitSections)) {
      const sections = byLanguage.get(section.language) ?? [];
      sections.push(section);
      byLanguage.set(section.language, sections);
    }
    for (const [language, sections] of byLanguage)
      this.#indexes.set(language, new LanguageIndex(analyserFor(language), sections));
    this.#sections = byLanguage;
    this.#size = [...byLanguage.values()].reduce((sum, sections) => sum + sections.length, 0);
  }

  get size(): number {
    return this.#size;
  }

  /** Whether some document is written in `language` (`en`, `de`). */
  has(language: string): boolean {
    return this.#indexes.has(language);
  }

  /** The languages documents are written in. */
  get languages(): string[] {
    return [...this.#indexes.keys()];
  }

  /** The best sections in `language` for `question`, best first; nothing when no document is in it or once `budget` is spent. */
  search(question: string, limit = 3, budget: BrainBudget = NO_DEADLINE, language = 'en'): KnowledgeHit[] {
    return this.#indexes.get(language)?.search(question, limit, budget) ?? [];
  }

  /** Whether the sections in `language` use `word` (by stem). */
  knows(word: string, language: string): boolean {
    return this.#indexes.get(language)?.knows(word) ?? false;
  }

  /** The share of a text's words that say something which the sections in `language` use too, 0–1. */
  knownShare(text: string, language: string): number {
    return this.#indexes.get(language)?.knownShare(text) ?? 0;
  }

  /** The sections written in `language`. */
  sectionsIn(language: string): readonly KnowledgeSection[] {
    return this.#sections.get(language) ?? [];
  }
}
