import { describe, expect, it } from 'vitest';
import { shopKnowledge } from '../../test/shop-fixtures.ts';
import type { ActionDefinition } from './actions.ts';
import { MESSAGE_BRAIN_MS, MESSAGE_READ_CHARS, type BrainBudget } from './bounds.ts';
import { decide, FRESH_MEMORY } from './brain.ts';
import { KnowledgeBase } from './knowledge-base.ts';

/**
 * Issue 26: what the brain does with one message is bounded in what it reads and in the time its
 * costly steps take. `decide` is given its budget (a deadline on a clock), so these run on a clock
 * of the test's; the last ones measure real time, with bounds far above what it takes.
 */
describe('the brain on a budget', async () => {
  const knowledge = new KnowledgeBase(
    (await shopKnowledge()).map((document, index) => ({ id: `doc_${index}`, ...document })),
  );
  const parcel: ActionDefinition = {
    name: 'track_parcel',
    description: 'Track a parcel',
    triggers: [['track', 'parcel']],
    inputs: ['order', 'postcode', 'email'].map((name) => ({
      name,
      description: name,
      pattern: `${name}:(\\w+)`,
      required: true,
      ask: `What is the ${name}?`,
    })),
  };
  /** A clock that moves `stepMs` on each reading, with the deadline `budgetMs` after its start. */
  const steppingBudget = (stepMs: number, budgetMs: number): BrainBudget => {
    let at = 0;
    return { clock: () => (at += stepMs), deadline: budgetMs };
  };
  const spent: BrainBudget = { clock: () => 1, deadline: 0 };
  const plenty: BrainBudget = { clock: () => 0, deadline: 1 };

  it('says honestly that it is not sure, without searching, once the budget is spent', () => {
    expect(decide('How do I return an item?', FRESH_MEMORY, { knowledge, actions: [], budget: plenty })).toMatchObject({
      kind: 'reply',
      answered: true,
    });
    const late = decide('How do I return an item?', FRESH_MEMORY, { knowledge, actions: [], budget: spent });
    expect(late).toMatchObject({ kind: 'reply', answered: false, text: expect.stringMatching(/not sure/) });
  });

  it('still does what costs nothing when the budget is spent: a person asked for is handed over', () => {
    expect(
      decide('Can I talk to a real person please', FRESH_MEMORY, { knowledge, actions: [], budget: spent }),
    ).toMatchObject({ kind: 'handover', reason: 'customer_request' });
  });

  it('stops looking for inputs once the budget is spent, and asks for the first it did not find', () => {
    const text = 'track my parcel: order:A1 postcode:12345 email:someone';
    expect(decide(text, FRESH_MEMORY, { knowledge, actions: [parcel], budget: plenty })).toMatchObject({
      kind: 'action',
      inputs: { order: 'A1', postcode: '12345', email: 'someone' },
    });
    // The first pattern's check and run take the whole budget on this clock.
    const late = decide(text, FRESH_MEMORY, {
      knowledge,
      actions: [parcel],
      budget: steppingBudget(MESSAGE_BRAIN_MS, MESSAGE_BRAIN_MS + 1),
    });
    expect(late).toEqual({
      kind: 'ask',
      text: 'What is the postcode?',
      action: 'track_parcel',
      inputs: { order: 'A1' },
    });
  });

  it(`reads the first ${MESSAGE_READ_CHARS} characters of a message only`, () => {
    const padding = ' '.repeat(MESSAGE_READ_CHARS);
    expect(
      decide(`${padding}How do I return an item?`, FRESH_MEMORY, { knowledge, actions: [], budget: plenty }),
    ).toMatchObject({ kind: 'reply', answered: false });
    expect(
      decide(`${padding}Can I talk to a real person please`, FRESH_MEMORY, { knowledge, actions: [], budget: plenty }),
    ).toMatchObject({ kind: 'reply' });
    expect(
      decide(`${padding}track parcel order:A1`, FRESH_MEMORY, { knowledge, actions: [parcel], budget: plenty }),
    ).toMatchObject({ kind: 'reply' });
  });

  it.each([
    ['a single word of 150,000 characters', 'a'.repeat(150_000)],
    [
      '150,000 characters of different words',
      Array.from({ length: 30_000 }, (_, index) => `w${index.toString(36)}`)
        .join(' ')
        .slice(0, 150_000),
    ],
    [
      "150,000 characters of the articles' own words",
      'return refund parcel shipping payment password account delivery abroad gift card '
        .repeat(2_000)
        .slice(0, 150_000),
    ],
  ])('decides on %s in a few ms, searching at most 64 words of at most 40 characters', (_, text) => {
    const clock = () => performance.now();
    const started = clock();
    expect(
      decide(text, FRESH_MEMORY, {
        knowledge,
        actions: [parcel],
        budget: { clock, deadline: started + MESSAGE_BRAIN_MS },
      }),
    ).toMatchObject({ kind: 'reply', answered: false });
    // About 1 ms now; a single word of 45,000 characters took 1.8 s before (bound far between).
    expect(clock() - started).toBeLessThan(500);
  });
});
