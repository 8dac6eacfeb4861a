import { describe, expect, it } from 'vitest';
import { stripQuotedReply } from './reply-text.ts';

describe('the words of an e-mail reply', () => {
  it('cuts at "On … wrote:", also when a client folded it onto two lines', () => {
    expect(stripQuotedReply('Yes please.\n\nOn Mon, 1 Jun 2026 at 10:00, Shop <s@shop.test> wrote:\n> Shall we?')).toBe(
      'Yes please.',
    );
    expect(
      stripQuotedReply('Yes.\r\nOn Mon, 1 Jun 2026 at 10:00, Shop <\r\nreply+abc@reply.shop.test> wrote:\r\n> Hi'),
    ).toBe('Yes.');
  });

  it('cuts at the German "Am … schrieb …:" and at a line starting with ">"', () => {
    expect(stripQuotedReply('Danke!\n\nAm 01.06.2026 um 10:00 schrieb Shop <s@shop.test>:\n> Hallo')).toBe('Danke!');
    expect(stripQuotedReply('Fine.\n> quoted line\nmore')).toBe('Fine.');
  });

  it('leaves out the signature after "-- "', () => {
    expect(stripQuotedReply('See you.\n-- \nAnn Example\nCEO')).toBe('See you.');
  });

  it('keeps a line that only mentions writing, and is empty for a quote alone', () => {
    expect(stripQuotedReply('On Monday I wrote to you about it.\nAny news?')).toBe(
      'On Monday I wrote to you about it.\nAny news?',
    );
    expect(stripQuotedReply('> only the quote')).toBe('');
  });
});
