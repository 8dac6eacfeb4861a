import { describe, expect, it } from 'vitest';
import { shopKnowledge } from '../../test/shop-fixtures.ts';
import { answerQuestion } from './brain.ts';
import { KnowledgeBase, splitSections } from './knowledge-base.ts';

describe('the knowledge base', async () => {
  const documents = (await shopKnowledge()).map((document, index) => ({ id: `doc_${index}`, ...document }));
  const knowledge = new KnowledgeBase(documents);

  it('splits a document into sections under their headings', () => {
    const sections = splitSections({ id: 'd', title: 'Returns', body: '# Returns\nIntro.\n\n## How to return\nStep one.\n## Refunds\nFive days.' });
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

  it('answers with the section text when it knows', () => {
    const answer = answerQuestion(knowledge, 'How much does shipping cost?');
    expect(answer).toMatchObject({ answered: true, text: expect.stringContaining('4.90 euros') });
  });
});
