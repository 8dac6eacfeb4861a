import { describe, expect, it } from 'vitest';
import { parseBlocks, parseInline, safeHref } from './markdown-lite.ts';

describe('markdown-lite', () => {
  it('turns bold, italic, code and links into nodes', () => {
    expect(parseInline('Open **My orders**, then *Return* `now` [help](https://shop.example/help)')).toEqual([
      { kind: 'text', text: 'Open ' },
      { kind: 'strong', children: [{ kind: 'text', text: 'My orders' }] },
      { kind: 'text', text: ', then ' },
      { kind: 'em', children: [{ kind: 'text', text: 'Return' }] },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'now' },
      { kind: 'text', text: ' ' },
      { kind: 'link', href: 'https://shop.example/help', children: [{ kind: 'text', text: 'help' }] },
    ]);
  });

  it('leaves script links and HTML as plain text', () => {
    const scripted = parseInline('[x](javascript:alert(1))');
    expect(scripted.some((node) => node.kind === 'link')).toBe(false);
    expect(scripted.map((node) => (node.kind === 'text' ? node.text : '')).join('')).toBe('[x](javascript:alert(1))');
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([
      { kind: 'text', text: '<img src=x onerror=alert(1)>' },
    ]);
    expect(safeHref('data:text/html,hi')).toBeUndefined();
    expect(safeHref('mailto:help@shop.example')).toBe('mailto:help@shop.example');
  });

  it('groups list lines into lists and the rest into paragraphs', () => {
    const blocks = parseBlocks('Steps:\n1. Open orders\n2. Choose one\n\n- cheap\n- fast\nDone');
    expect(
      blocks.map((block) => (block.kind === 'list' ? `${block.ordered ? 'ol' : 'ul'}:${block.items.length}` : 'p')),
    ).toEqual(['p', 'ol:2', 'ul:2', 'p']);
  });
});
