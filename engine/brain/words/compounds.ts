/**
 * German glues words together ("Versandkosten", "Rücksendeetikett"), so a customer's compound meets
 * an article that has its parts apart, and the other way round. A word is split in two where both
 * parts are words the articles use (by stem), with or without the linking "s" ("Lieferungsdauer").
 * The shortest head wins; a word the articles use whole is not split.
 */
const COMPOUND_CHARS_MIN = 8;
const PART_CHARS_MIN = 3;

export function splitCompound(word: string, known: ReadonlySet<string>, stem: (word: string) => string): string[] {
  if (word.length < COMPOUND_CHARS_MIN || known.has(stem(word))) return [];
  for (let at = PART_CHARS_MIN; at <= word.length - PART_CHARS_MIN - 1; at++) {
    const head = word.slice(0, at);
    const tail = word.slice(at);
    if (!known.has(stem(tail))) continue;
    if (known.has(stem(head))) return [head, tail];
    if (head.endsWith('s') && head.length > PART_CHARS_MIN && known.has(stem(head.slice(0, -1))))
      return [head.slice(0, -1), tail];
  }
  return [];
}
