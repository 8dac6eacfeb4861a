/**
 * Markdown-lite for chat text: paragraphs, `-`/`1.` lists, **bold**, *italic*, `code` and
 * [links](https://…). It gives a tree of plain data that components turn into elements; no text
 * is ever parsed as HTML, so a message can never inject markup.
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong' | 'em'; children: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block = { kind: 'paragraph'; children: Inline[] } | { kind: 'list'; ordered: boolean; items: Inline[][] };

const INLINE = /(\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\))/;

/** Only web and mail links become links; anything else (javascript:, data:) stays text. */
export function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let rest = text;
  for (let match = INLINE.exec(rest); match; match = INLINE.exec(rest)) {
    if (match.index > 0) out.push({ kind: 'text', text: rest.slice(0, match.index) });
    const [whole, , strong, em, code, label, href] = match;
    if (strong !== undefined) out.push({ kind: 'strong', children: parseInline(strong) });
    else if (em !== undefined) out.push({ kind: 'em', children: parseInline(em) });
    else if (code !== undefined) out.push({ kind: 'code', text: code });
    else {
      const safe = safeHref(href!);
      out.push(safe ? { kind: 'link', href: safe, children: parseInline(label!) } : { kind: 'text', text: whole });
    }
    rest = rest.slice(match.index + whole.length);
  }
  if (rest) out.push({ kind: 'text', text: rest });
  return out;
}

const LIST_ITEM = /^\s*(?:([-*•])|(\d+)[.)])\s+(.*)$/;

export function parseBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', children: parseInline(paragraph.join('\n')) });
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      const ordered = item[2] !== undefined;
      const last = blocks.at(-1);
      const inline = parseInline(item[3] ?? '');
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(inline);
      else blocks.push({ kind: 'list', ordered, items: [inline] });
    } else if (line.trim() === '') {
      flush();
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}
