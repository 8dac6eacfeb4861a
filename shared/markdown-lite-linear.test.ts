import { describe, expect, it } from 'vitest';
import { parseBlocks, parseInline, safeHref, type Inline } from './markdown-lite.ts';

/**
 * Issue 12: the inline pattern was tried at each mark against the rest of the text, so a message
 * of 150,000 `[` froze the widget's tab for about 25 s. A parse must be linear: each of these
 * takes a few milliseconds, and gives the text back unchanged as plain text.
 */
const N = 150_000;
const ADVERSARIAL: [string, string][] = [
  ['150k [', '['.repeat(N)],
  ['150k *', '*'.repeat(N)],
  ['150k ](', ']('.repeat(N)],
  ['150k `', '`'.repeat(N)],
  ['[ then ]( 75k times', '['.repeat(N / 2) + ']('.repeat(N / 2)],
  ['[a]( repeated', '[a]('.repeat(N / 4)],
  ['[a](b repeated', '[a](b'.repeat(N / 5)],
  ['[[ and one ] at the end', '['.repeat(N) + ']'],
  ['a link whose href never closes', '[x](' + 'y'.repeat(N)],
  [']([ repeated', '](['.repeat(N / 3)],
  ['** that never closes', '**' + 'x'.repeat(N)],
  ['* then spaces', '* '.repeat(N / 2).replace(/^\* /, 'x ')],
  ['one line per [', '[\n'.repeat(N / 2)],
];

describe('markdown-lite on adversarial text', () => {
  // The quadratic parse this guards against took about 25 s on these texts; 2 s leaves room for a
  // busy machine's pauses without letting that back in.
  it.each(ADVERSARIAL)('parses %s in under 2 s, as the same plain text', (_name, text) => {
    const started = performance.now();
    const inline = parseInline(text);
    const blocks = parseBlocks(text);
    const elapsed = performance.now() - started;
    expect(elapsed, `${elapsed.toFixed(1)} ms`).toBeLessThan(2_000);
    expect(inline).toEqual([{ kind: 'text', text }]);
    const blockText = blocks
      .map((block) => (block.kind === 'paragraph' ? plainText(block.children) : '(list)'))
      .join('\n');
    expect(blockText.replace(/\n/g, '')).toBe(text.replace(/\n/g, ''));
  });
});

/** The old regex parser, fine on short text: the new scan must give the same tree for it. */
const OLD_INLINE = /(\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\))/;
function oldParseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let rest = text;
  for (let match = OLD_INLINE.exec(rest); match; match = OLD_INLINE.exec(rest)) {
    if (match.index > 0) out.push({ kind: 'text', text: rest.slice(0, match.index) });
    const [whole, , strong, em, code, label, href] = match;
    if (strong !== undefined) out.push({ kind: 'strong', children: oldParseInline(strong) });
    else if (em !== undefined) out.push({ kind: 'em', children: oldParseInline(em) });
    else if (code !== undefined) out.push({ kind: 'code', text: code });
    else {
      const safe = safeHref(href!);
      out.push(safe ? { kind: 'link', href: safe, children: oldParseInline(label!) } : { kind: 'text', text: whole });
    }
    rest = rest.slice(match.index + whole.length);
  }
  if (rest) out.push({ kind: 'text', text: rest });
  return out;
}

function plainText(nodes: Inline[]): string {
  return nodes.map((node) => (node.kind === 'text' ? node.text : '(node)')).join('');
}

describe('markdown-lite keeps its meaning', () => {
  it('gives the same tree as the regex it replaced, on 20,000 random short texts', () => {
    let state = 20261122;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const pieces = [
      '*',
      '**',
      '`',
      '[',
      ']',
      '(',
      ')',
      '](',
      ' ',
      '\n',
      '\t',
      'a',
      'b c',
      'https://shop.example/x',
      'javascript:x',
      'mailto:a@b.example',
      '\u00a0',
      'é',
    ];
    for (let index = 0; index < 20_000; index++) {
      let text = '';
      const length = 1 + Math.floor(random() * 14);
      for (let piece = 0; piece < length; piece++) text += pieces[Math.floor(random() * pieces.length)];
      expect([text, parseInline(text)]).toEqual([text, oldParseInline(text)]);
    }
  });

  it('reads nested and neighbouring marks as before', () => {
    for (const text of [
      '**a [b](https://x.example) `c`**',
      '*a*b*c*',
      '***a***',
      '`a``b`',
      '[**a**](https://x.example/(y))',
      '[a](https://x.example) [b](javascript:y) [c](mailto:c@x.example)',
      '* a*',
      '*\u00a0a*',
    ]) {
      expect([text, parseInline(text)]).toEqual([text, oldParseInline(text)]);
    }
  });
});
