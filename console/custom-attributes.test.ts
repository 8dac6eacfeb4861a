import { describe, expect, it } from 'vitest';
import { attributesText, parseAttributes } from './custom-attributes.ts';

describe('custom attributes as lines', () => {
  it('writes one key and value a line, and reads them back', () => {
    const text = attributesText({ plan: 'gold', seats: 4 });
    expect(text).toBe('plan: gold\nseats: 4');
    expect(parseAttributes(`${text}\n\n  city : Berlin: Mitte `)).toEqual({
      attributes: { plan: 'gold', seats: '4', city: 'Berlin: Mitte' },
    });
  });

  it('names the line without a key, and gives no attributes', () => {
    expect(parseAttributes('plan: gold\njust words')).toEqual({ badLine: 'just words' });
    expect(parseAttributes(': nothing')).toEqual({ badLine: ': nothing' });
  });
});
