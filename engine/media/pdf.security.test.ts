import { describe, expect, it } from 'vitest';
import { checkPdf } from './pdf.ts';

/**
 * A tenant's PDF is checked in the engine's own process (the media worker), so the check must take
 * time in proportion to the file: a megabyte built to make a pattern look far ahead from every
 * place it could start must not hold the event loop, and every other account's requests, for minutes.
 */
describe('checking a hostile PDF', () => {
  const hostile = (unit: string) =>
    Buffer.from(`%PDF-1.7\n${unit.repeat(Math.floor(1_000_000 / unit.length))}\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

  it.each(['/Count 1 ', '/Type/Pages ', '/Type /Pages /Count 7 '])(
    'reads a megabyte of %j in linear time and still counts what it can',
    (unit) => {
      const started = performance.now();
      const checked = checkPdf(hostile(unit));
      // A bound, not a speed check: linear takes milliseconds, the quadratic reading took 33 s here.
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(checked.readable).toBe(true);
    },
  );

  it('counts the pages of a page tree with many /Count entries without spreading them into arguments', () => {
    expect(checkPdf(hostile('<< /Type /Pages /Count 7 >> '))).toEqual({ readable: true, pages: 7 });
  });
});
