import { describe, expect, it } from 'vitest';
import { shopKnowledge } from '../../test/shop-fixtures.ts';
import { answerQuestion } from './answering.ts';
import { KnowledgeBase, splitSections } from './knowledge-base.ts';

describe('the knowledge base', async () => {
  const documents = (await shopKnowledge()).map((document, index) => ({ id: `doc_${index}`, ...document }));
  const knowledge = new KnowledgeBase(documents);

  it('splits a document into sections under their headings', () => {
    const sections = splitSections({
      id: 'd',
      title: 'Returns',
      body: '# Returns\nIntro.\n\n## How to return\nStep one.\n## Refunds\nFive days.',
    });
    expect(sections.map((section) => [section.heading, section.text])).toEqual([
      ['Returns', 'Intro.'],
      ['How to return', 'Step one.'],
      ['Refunds', 'Five days.'],
    ]);
  });

  it.each([
    ['How do I return an item?', 'How do I return an item?'],
    ['when will my refund arrive', 'When will I get my refund?'],
    ['Do you deliver to Norway?', 'Do you ship abroad?'],
    ['can I pay with PayPal', 'Which payment methods do you accept?'],
    ['my parcel arrived broken', 'My order arrived damaged or broken'],
    ['I forgot my password', 'Resetting your password'],
  ])('ranks the right section first for "%s"', (question, heading) => {
    expect(knowledge.search(question)[0]?.section.heading).toBe(heading);
  });

  it('gives no answer for questions the documents do not cover, or for small talk', () => {
    for (const question of ['What is the meaning of life?', 'hello', 'banana']) {
      expect(answerQuestion(knowledge, question).answered).toBe(false);
    }
  });

  it('matches a question on its first 64 different words that say something, each of at most 40 characters', () => {
    const filler = Array.from({ length: 64 }, (_, index) => `zq${index.toString(36)}`).join(' ');
    expect(knowledge.search(`I forgot my password ${filler}`)[0]?.section.heading).toBe('Resetting your password');
    expect(knowledge.search(`${filler} I forgot my password`)).toEqual([]);
    // Repeating a word does not make it another: the question has four words here.
    expect(knowledge.search(`${'zq0 '.repeat(200)}I forgot my password`)[0]?.section.heading).toBe(
      'Resetting your password',
    );
    // A "word" of 48 characters is no word: it is not searched at all.
    expect(knowledge.search('password')).not.toEqual([]);
    expect(knowledge.search('password'.repeat(6))).toEqual([]);
  });

  it('answers with the section text when it knows', () => {
    const answer = answerQuestion(knowledge, 'How much does shipping cost?');
    expect(answer).toMatchObject({ answered: true, text: expect.stringContaining('4.90 euros') });
  });
});
