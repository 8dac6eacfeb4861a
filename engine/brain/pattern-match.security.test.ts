import { describe, expect, it } from 'vitest';
import { ActionPattern } from '../../shared/schemas/engine-actions.ts';
import { extractInputs, type ActionDefinition } from './actions.ts';
import { matchPattern, patternGivenUp, PATTERN_DEADLINE_MS } from './pattern-match.ts';

/**
 * An account's action pattern against its customers' words: patterns the schema lets through can
 * still take exponential or polynomial time, and they run in the engine's process. One message
 * must not hold it: the match gives up after its deadline and finds nothing.
 */
describe('a catastrophic action pattern', () => {
  const action = (pattern: string): ActionDefinition =>
    ({ name: 'track', description: 'Track a parcel', triggers: [['track']], inputs: [{ name: 'code', description: 'The code', pattern, required: true, ask: 'Which code?' }], reply: 'Done.' }) as ActionDefinition;

  it.each([
    ['alternation under a repeat (exponential)', '(?:\\d|\\d\\d)*x', '1'.repeat(90)],
    ['adjacent repeats (polynomial)', '\\d*\\d*\\d*\\d*\\d*\\d*x', '1'.repeat(3000)],
  ])('%s passes the schema, yet a customer message of digits costs at most the deadline', (_, pattern, text) => {
    expect(ActionPattern.safeParse(pattern).success).toBe(true);
    // Without the deadline this would not end for hours; with it, each message ends (bound far above the deadline: no timing is measured here).
    const started = performance.now();
    expect(extractInputs(action(pattern), `track ${text}`)).toEqual({});
    expect(performance.now() - started).toBeLessThan(PATTERN_DEADLINE_MS + 5_000);
    expect(patternGivenUp(pattern)).toBe(false);
    // Out of time a second time, the pattern is given up: this process does not run it again.
    expect(matchPattern(pattern, text)).toBeNull();
    expect(patternGivenUp(pattern)).toBe(true);
    expect(matchPattern(pattern, text)).toBeNull();
  });

  it('does not give up an ordinary pattern', () => {
    expect(matchPattern('(\\d{4,12})', 'order 48213')?.[1]).toBe('48213');
    expect(patternGivenUp('(\\d{4,12})')).toBe(false);
  });

  it('still finds what an ordinary pattern finds, with its capture group', () => {
    expect(extractInputs(action('(?:#|\\b)(\\d{4,12})\\b'), 'Where is my order #48213?')).toEqual({ code: '48213' });
    expect(matchPattern('(\\d+)-(\\d+)', 'order 12-34')?.[0]).toBe('12-34');
    expect(matchPattern('([A-Z', 'anything')).toBeNull();
  });
});
