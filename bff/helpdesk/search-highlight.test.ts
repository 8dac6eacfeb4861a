import { describe, expect, it } from 'vitest';
import { highlight, queryWords } from './search-highlight.ts';

describe('the highlight of a search match', () => {
  it('marks every match of every word, whatever its case', () => {
    expect(highlight('My parcel never came; the PARCEL number is 42', 'parcel 42')).toBe(
      'My <mark>parcel</mark> never came; the <mark>PARCEL</mark> number is <mark>42</mark>',
    );
  });

  it("escapes the customer's markup so that it is shown, never run", () => {
    const html = highlight('<img src=x onerror=alert(1)> where is my order?', 'order');
    expect(html).toBe('&lt;img src=x onerror=alert(1)&gt; where is my <mark>order</mark>?');
    expect(html).not.toContain('<img');
  });

  it('cuts a long text to a window around the first match', () => {
    const html = highlight(`${'a'.repeat(200)} refund please ${'b'.repeat(200)}`, 'refund', 20);
    expect(html.startsWith('…')).toBe(true);
    expect(html.endsWith('…')).toBe(true);
    expect(html).toContain('<mark>refund</mark>');
    expect(html.length).toBeLessThan(80);
  });

  it('keeps words of every script and e-mail addresses whole', () => {
    expect(queryWords('Größe ana@shop.example')).toEqual(['ana@shop.example', 'größe']);
    expect(highlight('Welche Größe?', 'größe')).toBe('Welche <mark>Größe</mark>?');
  });
});
