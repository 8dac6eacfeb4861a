import type { KnowledgeBase } from './knowledge-base.ts';

/**
 * Where a question names a place: a capitalised word after "to", "nach", "a", "en", "au"…
 * ("Do you ship to Japan?", "Liefern Sie nach Kanada?", "¿Enviáis a Japón?", "Livrez-vous au Japon ?").
 */
const PLACE_AFTER: Record<string, RegExp> = {
  en: /(?:^|\s)(?:to|in|into|from)\s+(?:the\s+)?(\p{Lu}\p{L}{2,})/gu,
  de: /(?:^|\s)(?:nach|in|aus)\s+(?:die\s+|den\s+|das\s+)?(\p{Lu}\p{L}{2,})/gu,
  es: /(?:^|\s)(?:a|en|desde|hacia|para)\s+(?:el\s+|la\s+|los\s+)?(\p{Lu}\p{L}{2,})/gu,
  fr: /(?:^|\s)(?:au|aux|en|à|a|vers|depuis|pour)\s+(?:la\s+|le\s+|l')?(\p{Lu}\p{L}{2,})/gu,
};

/**
 * The places a question names that no article of its language mentions: an answer from an article
 * (a list of countries, say) says it does not name them, rather than letting its list speak for it.
 */
export function placesNotMentioned(knowledge: KnowledgeBase, question: string, language: string): string[] {
  const pattern = PLACE_AFTER[language];
  if (!pattern) return [];
  const names = [...question.matchAll(pattern)].map((match) => match[1]!);
  return [...new Set(names)].filter((name) => !knowledge.knows(name, language));
}
