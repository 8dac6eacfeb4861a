import { highlightParts } from '../highlight-parts.ts';

/** A search highlight as text nodes with `<mark>` elements made here: the server's HTML is never set as HTML. */
export function HighlightText({ html }: { html: string }) {
  return (
    <>{highlightParts(html).map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : part.text))}</>
  );
}
