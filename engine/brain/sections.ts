import { languageOf } from './language.ts';

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
  /** The language of its document (`en`, `de`: the locale's language part). */
  language: string;
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
  /** Whether a word of the question is in the section's own heading (not only its document's title). */
  ownHeadingMatched: boolean;
  /** The question is the heading itself, in its words: every word of each is in the other. */
  asksTheHeading: boolean;
}

/** The document a section id (`${documentId}#${n}`, as splitSections makes them) belongs to. */
export function documentOfSection(sectionId: string): string {
  return sectionId.slice(0, sectionId.lastIndexOf('#'));
}

/** Splits a markdown document into sections at `##` headings; text before the first is its intro. */
export function splitSections(document: KnowledgeDocument): KnowledgeSection[] {
  const sections: KnowledgeSection[] = [];
  const language = languageOf(document.locale);
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
        language,
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
