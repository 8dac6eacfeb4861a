import { describe, expect, it } from 'vitest';
import { highlightParts } from './highlight-parts.ts';

describe('highlightParts', () => {
  it('splits a highlight into plain and marked text', () => {
    expect(highlightParts('where is <mark>my</mark> <mark>order</mark>?')).toEqual([
      { text: 'where is ', marked: false },
      { text: 'my', marked: true },
      { text: ' ', marked: false },
      { text: 'order', marked: true },
      { text: '?', marked: false },
    ]);
  });

  it('gives escaped markup back as text to read, never as markup', () => {
    expect(highlightParts('&lt;img src=x onerror=alert(1)&gt; &amp; <mark>&quot;hi&#39;</mark>')).toEqual([
      { text: '<img src=x onerror=alert(1)> & ', marked: false },
      { text: `"hi'`, marked: true },
    ]);
  });

  it('does not double-unescape an escaped entity', () => {
    expect(highlightParts('&amp;lt;')).toEqual([{ text: '&lt;', marked: false }]);
  });
});
