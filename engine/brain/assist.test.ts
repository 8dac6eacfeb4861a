import { describe, expect, it } from 'vitest';
import { openQuestions, summaryOf } from './assist.ts';

type Said = { role: 'customer' | 'ai' | 'human' | 'system'; text: string };
const customer = (text: string): Said => ({ role: 'customer', text });
const ai = (text: string): Said => ({ role: 'ai', text });
const human = (text: string): Said => ({ role: 'human', text });

describe('what assist reads of the turns', () => {
  it('takes the questions since a person last wrote, leaving out requests for a person, thanks and "did that help?" answers', () => {
    const turns = [
      customer('Do you ship abroad?'),
      ai('We ship to 30 countries.'),
      customer('Yes'),
      human('Anything else?'),
      customer('How do I return an item?'),
      ai('Within 30 days.'),
      customer('and how long for the refund?'),
      customer('I want to talk to a person'),
      customer('Thanks!'),
    ];
    expect(openQuestions(turns)).toEqual(['How do I return an item?', 'and how long for the refund?']);
    expect(openQuestions([customer('Hello?'), human('Hi!')])).toEqual([]);
  });

  it('sums a conversation up in two lines: what was asked, and what was done', () => {
    const turns = [
      customer('How do I return an item?'),
      ai('Within 30 days.'),
      customer('Can you engrave a poem on a gnome?'),
      ai('Not sure.'),
      customer('What about gift cards?'),
      customer('I want to talk to a person'),
      human('Hello, Sam here.'),
    ];
    expect(summaryOf(turns, { state: 'human', handoverCount: 1, answered: 1, unanswered: 1 })).toBe(
      'The customer asked: "How do I return an item?", then 1 more question, last: "What about gift cards?".\n' +
        'The AI answered 1 question and was not sure of 1; the customer asked for a person; people have it (1 answer so far).',
    );
    expect(
      summaryOf([customer('I want to talk to a person')], {
        state: 'closed',
        handoverCount: 1,
        answered: 0,
        unanswered: 0,
      }),
    ).toBe(
      'The customer wrote: "I want to talk to a person".\nThe customer asked for a person; people had it; it is closed.',
    );
  });
});
