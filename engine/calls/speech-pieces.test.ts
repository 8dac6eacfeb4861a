import { describe, expect, it } from 'vitest';
import { speakable, speechPieces } from './speech-pieces.ts';

describe('an answer as it is spoken', () => {
  it('says a link by its words and drops markdown marks and bare addresses', () => {
    expect(speakable('See [our returns page](https://shop.example/returns) **today**, or https://x.example.')).toBe(
      'See our returns page today, or',
    );
  });

  it('cuts an answer into pieces of a sentence or more, short sentences kept together', () => {
    expect(speechPieces('Hi. You can return any item within 30 days. Start on the returns page! Thanks')).toEqual([
      'Hi. You can return any item within 30 days.',
      'Start on the returns page! Thanks',
    ]);
  });

  it('cuts a long sentence at spaces so that no request is too long', () => {
    const pieces = speechPieces(`${'word '.repeat(300)}end.`);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(600);
    expect(pieces.join(' ')).toBe(`${'word '.repeat(300)}end.`);
  });
});
