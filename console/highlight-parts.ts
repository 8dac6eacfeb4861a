/** A piece of a search result's highlight: text, and whether it is a match. */
export interface HighlightPart {
  text: string;
  marked: boolean;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#x27;': "'",
};

/** The escaped text back as it was written ("&lt;b&gt;" is "<b>" to read, never markup). */
export function unescapeText(escaped: string): string {
  return escaped.replace(/&(?:amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity]!);
}

/**
 * A search highlight (the server's escaped text with matches in `<mark>`) as parts to render as
 * text nodes: the console never sets it as HTML, so nothing in it can become markup.
 *
 * @example highlightParts('my &lt;b&gt; <mark>order</mark>') // [{ text: 'my <b> ', marked: false }, { text: 'order', marked: true }]
 */
export function highlightParts(html: string): HighlightPart[] {
  const parts: HighlightPart[] = [];
  let marked = false;
  for (const piece of html.split(/(<mark>|<\/mark>)/)) {
    if (piece === '<mark>') marked = true;
    else if (piece === '</mark>') marked = false;
    else if (piece) parts.push({ text: unescapeText(piece), marked });
  }
  return parts;
}
