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

/** Only web and mail links become links; anything else (javascript:, data:) stays text. */
export function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds the next index at or after `from` where `pattern` (global) matches, `text.length` when
 * none. It remembers the last answer, so a scan that asks with `from` only growing reads the text
 * once: the parse stays linear however the marks are placed (issue 12: the regex it replaces
 * tried each `[` against the rest of the text, and 150,000 of them froze the tab for 15 to 25 s).
 */
function finder(text: string, pattern: RegExp): (from: number) => number {
  let found = -1;
  return (from) => {
    if (found < from) {
      pattern.lastIndex = from;
      found = pattern.exec(text)?.index ?? text.length;
    }
    return found;
  };
}

/**
 * One left-to-right scan. At each mark the first form that closes wins, as with the pattern it
 * replaces: `\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)`.
 */
export function parseInline(text: string): Inline[] {
  const star = finder(text, /\*/g);
  const tick = finder(text, /`/g);
  const bracket = finder(text, /]/g);
  const hrefEnd = finder(text, /[)\s]/g);
  const out: Inline[] = [];
  let plain = 0;
  for (let at = 0; at < text.length; at++) {
    const mark = text[at];
    let node: Inline | undefined;
    let end = 0;
    if (mark === '*') {
      // `**strong**` when a second star follows, else `*em*` unless a space follows.
      const inner = text[at + 1] === '*' ? at + 2 : at + 1;
      const close = star(inner);
      if (inner > at + 1 ? close > inner && text[close + 1] === '*' : close < text.length && !/\s/.test(text[inner]!)) {
        node = { kind: inner > at + 1 ? 'strong' : 'em', children: parseInline(text.slice(inner, close)) };
        end = close + inner - at;
      }
    } else if (mark === '`') {
      const close = tick(at + 1);
      if (close > at + 1 && close < text.length) {
        node = { kind: 'code', text: text.slice(at + 1, close) };
        end = close + 1;
      }
    } else if (mark === '[') {
      const close = bracket(at + 1);
      const stop = text[close + 1] === '(' ? hrefEnd(close + 2) : 0;
      if (close > at + 1 && stop > close + 2 && text[stop] === ')') {
        const href = safeHref(text.slice(close + 2, stop));
        end = stop + 1;
        node = href
          ? { kind: 'link', href, children: parseInline(text.slice(at + 1, close)) }
          : { kind: 'text', text: text.slice(at, end) };
      }
    }
    if (!node) continue;
    if (at > plain) out.push({ kind: 'text', text: text.slice(plain, at) });
    out.push(node);
    plain = end;
    at = end - 1;
  }
  if (plain < text.length) out.push({ kind: 'text', text: text.slice(plain) });
  return out;
}

const LIST_ITEM = /^\s*(?:([-*•])|(\d+)[.)])\s+(.*)$/;

/**
 * A message's text as blocks: paragraphs and lists of inline nodes, for the widget and the agent
 * console to render as elements.
 *
 * @example parseBlocks('Hi **you**\n- one') // [{ kind: 'paragraph', … }, { kind: 'list', ordered: false, … }]
 */
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
