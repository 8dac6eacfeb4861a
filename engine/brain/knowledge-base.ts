import MiniSearch from 'minisearch';

/** An approved knowledge document as the engine stores it: markdown with `##` sections. */
export interface KnowledgeDocument {
  id: string;
  title: string;
  body: string;
}

/** One retrievable piece: a section of a document under its heading. */
export interface KnowledgeSection {
  id: string;
  documentId: string;
  title: string;
  heading: string;
  text: string;
}

export interface KnowledgeHit {
  section: KnowledgeSection;
  score: number;
  /** How many different query words the section matched. */
  matchedTerms: number;
}

// Words that say nothing about the topic; left out so that "how do I" matches no section.
const STOP_WORDS = new Set(
  'a an and are as at be but by can could do does for from have how i if in is it me my of on or our so that the their them there this to was we what when where which who why will with would you your please hi hello hey want need'.split(' '),
);

/** Splits a markdown document into sections at `##` headings; text before the first is its intro. */
export function splitSections(document: KnowledgeDocument): KnowledgeSection[] {
  const sections: KnowledgeSection[] = [];
  let heading = document.title;
  let lines: string[] = [];
  const flush = () => {
    const text = lines.join('\n').trim();
    if (text) sections.push({ id: `${document.id}#${sections.length}`, documentId: document.id, title: document.title, heading, text });
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
        return STOP_WORDS.has(word) ? null : word;
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

  /** The best sections for `question`, best first. */
  search(question: string, limit = 3): KnowledgeHit[] {
    return this.#index
      .search(question)
      .slice(0, limit)
      .map((result) => ({
        section: this.#sections.get(String(result.id))!,
        score: result.score,
        matchedTerms: new Set(Object.keys(result.match)).size,
      }));
  }
}
