import MiniSearch from 'minisearch';
import { NO_DEADLINE, outOfTime, type BrainBudget } from './bounds.ts';
import type { KnowledgeHit, KnowledgeSection } from './sections.ts';
import type { Analyser } from './words/analysers.ts';
import { splitCompound } from './words/compounds.ts';

/**
 * The longest word a question is matched on. Longer "words" are codes, links or pasted noise that
 * no heading is about, and the search's fuzzy matching costs the square of a word's length
 * (MiniSearch fills a table of (length + 1)² bytes: 2 GB for one word of 45,000 characters, and
 * past 65,535 more than V8 can allocate at all, issue 26).
 */
export const WORD_CHARS_MAX = 40;
/** The most different words a question is matched on: each costs a search of the index, and a question names far fewer. */
export const QUESTION_WORDS_MAX = 64;

// A shorter word is matched whole: as a prefix it meets too many ("lös", of "lösen", begins "löschen").
const PREFIX_CHARS_MIN = 4;

const splitWords = (text: string): string[] => text.match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * One language's sections, searched by BM25 (MiniSearch) with prefix and light fuzzy matching;
 * headings weigh more than body text. Questions and sections are read by the language's analyser
 * (stop words, stems, word families), and German compounds are split into the parts the articles use.
 */
export class LanguageIndex {
  readonly #analyser: Analyser;
  readonly #index: MiniSearch<KnowledgeSection>;
  readonly #sections = new Map<string, KnowledgeSection>();
  /** The stems the sections use: what a compound may be split into. */
  readonly #known = new Set<string>();

  constructor(analyser: Analyser, sections: readonly KnowledgeSection[]) {
    this.#analyser = analyser;
    for (const section of sections) {
      for (const word of splitWords(analyser.normalise(`${section.heading} ${section.title} ${section.text}`)))
        this.#known.add(analyser.stem(word));
    }
    this.#index = new MiniSearch<KnowledgeSection>({
      fields: ['heading', 'title', 'text'],
      storeFields: [],
      tokenize: (text) => splitWords(analyser.normalise(text)),
      processTerm: (term) => this.#terms(term),
      searchOptions: {
        boost: { heading: 3, title: 1.5 },
        prefix: (term) => term.length >= PREFIX_CHARS_MIN,
        fuzzy: 0.15,
      },
    });
    for (const section of sections) {
      this.#sections.set(section.id, section);
      this.#index.add(section);
    }
  }

  /** A word's stem (and, for a compound, its parts' stems); nothing for a word that says nothing. */
  #terms(term: string): string[] | null {
    const word = term.toLowerCase();
    if (this.#analyser.stopWords.has(word)) return null;
    const { stem } = this.#analyser;
    const parts = this.#analyser.language === 'de' ? splitCompound(word, this.#known, stem) : [];
    return [stem(word), ...parts.map(stem)];
  }

  /** The words of a text that say something, stemmed (compounds with their parts): what a question is matched on. */
  contentTerms(text: string): string[] {
    const terms = wordsThatSaySomething(splitWords(this.#analyser.normalise(text)), this.#analyser.stopWords);
    return [...new Set(terms.flatMap((word) => this.#terms(word) ?? []))];
  }

  /** Whether the sections use `word` (by stem). */
  knows(word: string): boolean {
    return this.contentTerms(word).some((term) => this.#known.has(term));
  }

  /** The share of a text's words that say something which the sections use too (by stem), 0–1; 0 for none. */
  knownShare(text: string): number {
    const terms = this.contentTerms(text);
    return terms.length === 0 ? 0 : terms.filter((term) => this.#known.has(term)).length / terms.length;
  }

  /**
   * The best sections for `question`, best first: BM25 over heading, title and text, then weighed
   * by how much of the section's heading the question names (a question that is the heading in
   * other words beats a section that only mentions its words). Nothing once `budget` is spent.
   */
  search(question: string, limit: number, budget: BrainBudget = NO_DEADLINE): KnowledgeHit[] {
    if (outOfTime(budget)) return [];
    const asked = this.contentTerms(question);
    const names = (term: string) => asked.some((word) => word.startsWith(term) || term.startsWith(word));
    const stopWords = this.#analyser.stopWords;
    const normalise = this.#analyser.normalise;
    return this.#index
      .search(question, { tokenize: (text) => wordsThatSaySomething(splitWords(normalise(text)), stopWords) })
      .slice(0, limit + 2)
      .map((result) => {
        const section = this.#sections.get(String(result.id))!;
        const heading = this.contentTerms(section.heading);
        const headingCoverage = heading.length === 0 ? 0 : heading.filter(names).length / heading.length;
        const matched = new Set(result.queryTerms).size;
        return {
          section,
          score: result.score * (1 + headingCoverage) ** 2,
          matchedTerms: matched,
          coverage: asked.length === 0 ? 0 : Math.min(1, matched / asked.length),
          ownHeadingMatched: Object.values(result.match).some((fields) => fields.includes('heading')),
          headingMatched: Object.values(result.match).some(
            (fields) => fields.includes('heading') || fields.includes('title'),
          ),
          asksTheHeading:
            headingCoverage === 1 &&
            asked.length > 0 &&
            asked.every((word) => heading.some((term) => term.startsWith(word) || word.startsWith(term))),
        };
      })
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }
}

/** The first QUESTION_WORDS_MAX different words that say something, each of at most WORD_CHARS_MAX characters (lower-case). */
function wordsThatSaySomething(words: Iterable<string>, stopWords: ReadonlySet<string>): string[] {
  const kept = new Set<string>();
  for (const word of words) {
    if (kept.size === QUESTION_WORDS_MAX) break;
    const lower = word.toLowerCase();
    if (lower && lower.length <= WORD_CHARS_MAX && !stopWords.has(lower)) kept.add(lower);
  }
  return [...kept];
}
