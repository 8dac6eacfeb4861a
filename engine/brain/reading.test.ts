import { describe, expect, it } from 'vitest';
import { shopKnowledgeInEveryLanguage } from '../../test/shop-fixtures.ts';
import { NO_DEADLINE } from './bounds.ts';
import { KnowledgeBase } from './knowledge-base.ts';
import { customerLanguage, readQuestion, splitQuestion, type LastQuestion } from './reading.ts';

// The demo's articles in English, German, Spanish and French: the same facts and sections in each.
const documents = (await shopKnowledgeInEveryLanguage()).map((document, index) => ({
  id: `doc_${index}`,
  ...document,
}));
const knowledge = new KnowledgeBase(documents);
const englishOnly = new KnowledgeBase(documents.filter((document) => document.locale === 'en'));
const NOTHING_ASKED: LastQuestion = { question: null, language: null };

/** The headings a question is answered from (none when the brain is not sure), after `previous` if given. */
function ask(
  question: string,
  { previous, locale, kb = knowledge }: { previous?: string; locale?: string; kb?: KnowledgeBase } = {},
) {
  let last = NOTHING_ASKED;
  if (previous) {
    const before = readQuestion(kb, previous, last, locale, NO_DEADLINE);
    const sectionId = before.answer.answered ? (before.answer.sources[0]?.id ?? null) : null;
    last = { question: before.question, language: before.language, sectionId };
  }
  const reading = readQuestion(kb, question, last, locale, NO_DEADLINE);
  return { ...reading, headings: reading.answer.answered ? reading.answer.sources.map((s) => s.heading) : [] };
}

describe('reading a question', () => {
  it.each([
    ['Können Sie mir sagen, wie lange die Lieferung nach Deutschland dauert?', 'de', 'Wie lange dauert die Lieferung?'],
    ['Wie hoch sind die Versandkosten?', 'de', 'Was kostet der Versand?'],
    ['¿Cuánto cuesta el envío a Portugal?', 'es', '¿Cuánto cuesta el envío?'],
    ['Combien de temps prend la livraison ?', 'fr', 'Quels sont les délais de livraison ?'],
  ])('answers "%s" from the articles in its language (%s)', (question, language, heading) => {
    const reading = ask(question);
    expect(reading.language).toBe(language);
    expect(reading.headings).toEqual([heading]);
  });

  it("takes the conversation's language over the message's, and the message's when there is none", () => {
    expect(customerLanguage('Wie lange dauert die Lieferung?', 'fr-CA', NOTHING_ASKED)).toBe('fr');
    expect(customerLanguage('Wie lange dauert die Lieferung?', undefined, NOTHING_ASKED)).toBe('de');
    // Two words say too little to tell: the language last seen stands, else English.
    expect(customerLanguage('Paris, danke', undefined, { question: null, language: 'es' })).toBe('es');
    expect(customerLanguage('Paris, danke', undefined, NOTHING_ASKED)).toBe('en');
  });

  it('quotes an article in another language when none is in the customer’s, and says so in theirs', () => {
    const reading = ask('Do you accept PayPal?', { locale: 'de', kb: englishOnly });
    expect(reading.headings).toEqual(['Which payment methods do you accept?']);
    expect(reading.answer.text).toMatch(/^Diesen Artikel gibt es nur auf Englisch/);
  });

  it('reads a follow-up with the question before it', () => {
    expect(ask('and how long do I have?', { previous: 'How do I return an item?' }).headings).toEqual([
      'How do I return an item?',
    ]);
    expect(ask('what about Austria?', { previous: 'Do you ship to Switzerland?' }).headings).toEqual([
      'Do you ship abroad?',
    ]);
    expect(ask('und nach Österreich?', { previous: 'Liefern Sie in die Schweiz?' }).headings).toEqual([
      'Liefern Sie auch ins Ausland?',
    ]);
    // Its own words pick another section of the same article: that one.
    expect(
      ask('und was kostet das?', { previous: 'Wie lange dauert die Lieferung nach Deutschland?' }).headings,
    ).toEqual(['Was kostet der Versand?']);
  });

  it('reads a question that stands alone on its own, even after another', () => {
    expect(ask('Do you ship to Norway?', { previous: 'How do I return an item?' }).headings).toEqual([
      'Do you ship abroad?',
    ]);
    expect(ask('How much does shipping cost?', { previous: 'I forgot my password' }).headings).toEqual([
      'How much does shipping cost?',
    ]);
  });

  it('reads a short message with the question before it only when it speaks of what the articles do', () => {
    // "gift card" after the items that cannot be returned is about them; the meaning of life is not.
    expect(ask('gift card', { previous: 'Items that cannot be returned' }).headings).toEqual([
      'Items that cannot be returned',
    ]);
    expect(ask('What is the meaning of life?', { previous: 'Items that cannot be returned' }).headings).toEqual([]);
  });

  it('never answers a follow-up alone from another article when it cannot be read with the question before', () => {
    // Alone, "and how long do I have?" is about delivery times: with nothing before it, it is not sure.
    expect(ask('and how long does it take?', { previous: 'What is the meaning of life?' }).headings).toEqual([]);
  });

  it('answers both parts of a question of two', () => {
    expect(ask('Do you ship to Canada, and how much does it cost?').headings).toEqual([
      'Do you ship abroad?',
      'How much does shipping cost?',
    ]);
    expect(splitQuestion('Was kostet der Versand und wie lange dauert die Lieferung?', 'de')).toEqual([
      'Was kostet der Versand',
      'wie lange dauert die Lieferung?',
    ]);
    expect(splitQuestion('Do you ship abroad?', 'en')).toBeUndefined();
  });

  it('says when the article it answers from does not name the place asked about', () => {
    const canada = ask('Do you ship to Canada, and how much does it cost?');
    expect(canada.answer.text).toContain('This article does not mention Canada.');
    expect(ask('Liefern Sie auch nach Japan?').answer.text).toContain('Japan wird in diesem Artikel nicht genannt.');
    // A place the articles name needs no such note.
    expect(ask('Do you ship to Norway?').answer.text).not.toContain('does not mention');
  });

  it('says which part it cannot answer when it answers the other', () => {
    const reading = ask('How much does shipping cost? And what is the meaning of life?');
    expect(reading.headings).toEqual(['How much does shipping cost?']);
    expect(reading.answer.text).toContain('what is the meaning of life?');
  });
});
