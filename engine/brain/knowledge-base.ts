import MiniSearch from 'minisearch';
import { NO_DEADLINE, outOfTime, type BrainBudget } from './bounds.ts';

/** An approved knowledge document as the engine stores it: markdown with `##` sections. */
export interface KnowledgeDocument {
  id: string;
  title: string;
  body: string;
  /** Where the article is published, when it is: answers from it link there. */
  url?: string | null | undefined;
  /** The language it is written in (`en`, `de`, `pt-BR`); English when not said. */
  locale?: string | undefined;
}

/** One retrievable piece: a section of a document under its heading. */
export interface KnowledgeSection {
  id: string;
  documentId: string;
  title: string;
  heading: string;
  text: string;
  url?: string | undefined;
}

export interface KnowledgeHit {
  section: KnowledgeSection;
  score: number;
  /** How many different query words the section matched. */
  matchedTerms: number;
  /** The share of the question's words (those that say something) the section matched, 0–1. */
  coverage: number;
  /** Whether a word of the question is in the section's heading or its document's title. */
  headingMatched: boolean;
  /** The question is the heading itself, in its words: every word of each is in the other. */
  asksTheHeading: boolean;
}

// Words that say nothing about the topic; left out so that "how do I" matches no section.
const STOP_WORDS = new Set(
  'a an and are as at be but by can could do does did for from have has how i if in is it its me my of on or our so that the their them there this these those to was we what when where which who why will with would you your please hi hello hey want need get got take still now just any some something thing things one am im ive dont cant there here us'.split(
    ' ',
  ),
);

/**
 * Ways customers say what an article says in other words, each to the article's word: applied to
 * the question before it is searched. General shop vocabulary, not one shop's.
 */
const SAME_MEANING: [RegExp, string][] = [
  [/\bsend (?:\w+ )?back\b/g, 'return'],
  [/\bmoney back\b/g, 'refund'],
  [/\b(?:secure|safely)\b/g, 'safe'],
  [/\bwebsite\b/g, 'site'],
  [/\bswap\b/g, 'exchange'],
  [/\bways\b/g, 'methods'],
  [/\bdeliver(?:s)?\b/g, 'ship'],
  [/\binternationally\b/g, 'abroad'],
  [/\b(?:package|box)\b/g, 'parcel'],
  [/\b(?:log ?in|sign ?in)\b/g, 'sign in'],
  [/\bclose my account\b/g, 'delete my account'],
  [/\bremove my account\b/g, 'delete my account'],
];

/** A light English stemmer, the same for documents and questions: "returned", "returns" and "return" meet. */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 6 && word.endsWith('ment')) return word.slice(0, -4);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * The longest word a question is matched on. Longer "words" are codes, links or pasted noise that
 * no heading is about, and the search's fuzzy matching costs the square of a word's length
 * (MiniSearch fills a table of (length + 1)² bytes: 2 GB for one word of 45,000 characters, and
 * past 65,535 more than V8 can allocate at all, issue 26).
 */
export const WORD_CHARS_MAX = 40;
/** The most different words a question is matched on: each costs a search of the index, and a question names far fewer. */
export const QUESTION_WORDS_MAX = 64;

/** The first QUESTION_WORDS_MAX different words that say something, each of at most WORD_CHARS_MAX characters (lower-case). */
function wordsThatSaySomething(words: Iterable<string>): string[] {
  const kept = new Set<string>();
  for (const word of words) {
    if (kept.size === QUESTION_WORDS_MAX) break;
    if (word && word.length <= WORD_CHARS_MAX && !STOP_WORDS.has(word)) kept.add(word);
  }
  return [...kept];
}

/** The words of a text that say something (bounded as above), stemmed: what a question is matched on. */
export function contentTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(wordsThatSaySomething(words).map(stem))];
}

// The index's own way to split a text into words; the question's words are bounded after it.
const splitWords = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** The question in the articles' words. */
export function normaliseQuestion(question: string): string {
  let text = question.toLowerCase().replaceAll('’', "'");
  for (const [pattern, word] of SAME_MEANING) text = text.replace(pattern, word);
  return text;
}

/** Splits a markdown document into sections at `##` headings; text before the first is its intro. */
export function splitSections(document: KnowledgeDocument): KnowledgeSection[] {
  const sections: KnowledgeSection[] = [];
  let heading = document.title;
  let lines: string[] = [];
  const flush = () => {
    const text = lines.join('\n').trim();
    if (text)
      sections.push({
        id: `${document.id}#${sections.length}`,
        documentId: document.id,
        title: document.title,
        heading,
        text,
        ...(document.url ? { url: document.url } : {}),
      });
    lines = [];
  };
  for (const line of document.body.split('\n')) {
    const match = /^##\s+(.+)$/.exec(line);
    if (match?.[1]) {
      flush();
      heading = match[1].trim();
    } else if (!/^#\s/.test(line)) {
      lines.push(line);
    }
  }
  flush();
  return sections;
}

/**
 * Ranked retrieval over an account's approved documents, by BM25 (MiniSearch) with prefix and
 * light fuzzy matching; headings weigh more than body text.
 */
export class KnowledgeBase {
  readonly #index: MiniSearch<KnowledgeSection>;
  readonly #sections = new Map<string, KnowledgeSection>();

  constructor(documents: readonly KnowledgeDocument[]) {
    this.#index = new MiniSearch<KnowledgeSection>({
      fields: ['heading', 'title', 'text'],
      storeFields: [],
      processTerm: (term) => {
        const word = term.toLowerCase();
        return STOP_WORDS.has(word) ? null : stem(word);
      },
      searchOptions: { boost: { heading: 3, title: 1.5 }, prefix: true, fuzzy: 0.15 },
    });
    for (const document of documents) {
      for (const section of splitSections(document)) {
        this.#sections.set(section.id, section);
        this.#index.add(section);
      }
    }
  }

  get size(): number {
    return this.#sections.size;
  }

  /**
   * The best sections for `question`, best first: BM25 over heading, title and text, then weighed
   * by how much of the section's heading the question names (a question that is the heading in
   * other words beats a section that only mentions its words). Nothing once `budget` is spent.
   */
  search(question: string, limit = 3, budget: BrainBudget = NO_DEADLINE): KnowledgeHit[] {
    if (outOfTime(budget)) return [];
    const normalised = normaliseQuestion(question);
    const asked = contentTerms(normalised);
    const names = (term: string) => asked.some((word) => word.startsWith(term) || term.startsWith(word));
    return this.#index
      .search(normalised, { tokenize: (text) => wordsThatSaySomething(splitWords(text.toLowerCase())) })
      .slice(0, limit + 2)
      .map((result) => {
        const section = this.#sections.get(String(result.id))!;
        const heading = contentTerms(section.heading);
        const headingCoverage = heading.length === 0 ? 0 : heading.filter(names).length / heading.length;
        const matched = new Set(result.queryTerms).size;
        return {
          section,
          score: result.score * (1 + headingCoverage) ** 2,
          matchedTerms: matched,
          coverage: asked.length === 0 ? 0 : Math.min(1, matched / asked.length),
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
