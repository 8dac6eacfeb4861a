import { describe, expect, it } from 'vitest';
import { ActionPattern } from '../../shared/schemas/engine-actions.ts';
import { extractInputs, type ActionDefinition } from './actions.ts';
import { matchPattern } from './pattern-match.ts';

/**
 * An account's action patterns against its customers' words, in the engine's own process. On
 * JavaScript's backtracking engine, patterns the schema let through took exponential or polynomial
 * time; a deadline of 200 ms a pattern still let 20 of them hold every account for 4 s a message
 * (issue 26). On RE2 matching is linear by construction: nothing to interrupt, nothing to give up.
 */
describe('an action pattern on RE2', () => {
  const action = (patterns: string[]): ActionDefinition => ({
    name: 'track',
    description: 'Track a parcel',
    triggers: [['track']],
    inputs: patterns.map((pattern, index) => ({
      name: `code_${index}`,
      description: 'A code',
      pattern,
      required: true,
      ask: 'Which code?',
    })),
    reply: 'Done.',
  });

  it.each([
    ['alternation under a repeat (exponential when backtracking)', '(?:\\d|\\d\\d)*x'],
    ['adjacent repeats (polynomial when backtracking)', '\\d*\\d*\\d*\\d*\\d*\\d*x'],
    ['a repeat inside a repeat', '(?:\\d+)+x'],
  ])(
    '%s: 20 inputs of it take one message of 150,000 digits in linear time, and still find what is there',
    (_, pattern) => {
      // Twenty different patterns (ending in a to t), as an account would define them to pass "give up a pattern after two time-outs".
      const twenty = action(
        Array.from({ length: 20 }, (__, index) => `${pattern.slice(0, -1)}${String.fromCharCode(97 + index)}`),
      );
      const started = performance.now();
      expect(extractInputs(twenty, '1'.repeat(150_000))).toEqual({});
      // About 20 × 5 ms now; with the 200 ms deadline it was 4 s (bound far above the one, far below the other).
      expect(performance.now() - started).toBeLessThan(2_000);
      // Nothing was given up: the same pattern finds its value in the next message.
      expect(matchPattern(pattern, 'parcel 12x')?.[0]).toBe('12x');
    },
  );

  it('reads proportionally less of a message with a larger pattern, so each costs about the same at most', () => {
    // 982 instructions, near the most a definition may have (1,000).
    const large = '(?:\\w{1,49}){1,10}x';
    expect(ActionPattern.safeParse(large).success).toBe(true);
    const started = performance.now();
    expect(matchPattern(large, `${'a'.repeat(150_000)}x`)).toBeNull();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(matchPattern(large, 'abcx')?.[0]).toBe('abcx');
  });

  it('finds what an ordinary pattern finds, with its capture group, whatever the case', () => {
    expect(extractInputs(action(['(?:#|\\b)(\\d{4,12})\\b']), 'Where is my order #48213?')).toEqual({
      code_0: '48213',
    });
    expect(matchPattern('\\b([A-Z]{2}\\d{9}[A-Z]{2})\\b', 'parcel rr123456789de please')?.[1]).toBe('rr123456789de');
    expect(matchPattern('(\\d+)-(\\d+)', 'order 12-34')?.[0]).toBe('12-34');
  });

  it('never matches a stored pattern RE2 cannot run (defined before patterns were checked with RE2), nor one that does not compile at all', () => {
    expect(matchPattern('(?=\\d{5})(\\d+)', 'order 48213')).toBeNull();
    expect(matchPattern('(\\d)\\1', 'order 11')).toBeNull();
    expect(matchPattern('([A-Z', 'anything')).toBeNull();
  });
});

describe('the action pattern a definition may have', () => {
  const problemsOf = (pattern: string) =>
    ActionPattern.safeParse(pattern).error?.issues.map((issue) => issue.message) ?? [];

  it.each([
    ['a lookahead', '(?=\\d{5})(\\d+)'],
    ['a negative lookahead', '(?!0)(\\d+)'],
    ['a lookbehind', '(?<=#)(\\d+)'],
    ['a backreference', '(\\d)\\1'],
  ])('refuses %s, saying RE2 cannot run it and why', (_, pattern) => {
    expect(problemsOf(pattern)).toEqual([
      expect.stringMatching(
        /^RE2 cannot run this pattern: .+ \(the engine matches patterns with RE2, in linear time: no lookahead, lookbehind or backreference/,
      ),
    ]);
  });

  it('refuses two capturing groups, a pattern too large to read a message with, and one JavaScript cannot compile', () => {
    expect(problemsOf('(\\d+)-(\\d+)')).toEqual(['at most one capturing group (write (?:…) for the others)']);
    expect(problemsOf('(?:\\w{1,50}){1,19}x')).toEqual([
      'too large: it compiles to 1902 RE2 instructions, at most 1000 (a counted repeat such as {1,500} makes one or more for each count; write + or * instead)',
    ]);
    expect(problemsOf('([A-Z')).toEqual(['not a valid JavaScript regular expression']);
  });

  it.each([
    [
      'counted repeats written out to 100,000 instructions (0.6 s to compile)',
      '\\w{1,999}'.repeat(50),
      /^too large: it writes out to about 49950 RE2 instructions, at most 1000/,
    ],
    ['nested counted repeats', '(?:(?:a{1,40}){1,40})', /^too large: it writes out to about 1600 RE2 instructions/],
    [
      '80 wide class ranges (3 ms each to fold case)',
      '[Ā-𞥂]'.repeat(80),
      /^a character class may hold only characters up to U\+00FF: write \\p\{…\} for the letters of other scripts/,
    ],
    [
      '80 ranges across the Basic Multilingual Plane',
      '[Ā-\uffff]'.repeat(80),
      /^a character class may hold only characters up to U\+00FF/,
    ],
    [
      'a hundred property classes',
      '\\p{L}'.repeat(100),
      /^at most 10 Unicode property classes \(\\p\{…\}, \\P\{…\}\), found 100$/,
    ],
  ])('refuses %s before compiling it, at once', (_, pattern, problem) => {
    const started = performance.now();
    const problems = problemsOf(pattern);
    expect(performance.now() - started).toBeLessThan(50);
    expect(problems).toEqual([expect.stringMatching(problem)]);
    // Stored before the check, it never matches, and is not compiled either.
    expect(matchPattern(pattern, 'anything')).toBeNull();
  });

  it("takes the patterns backtracking made dangerous, since RE2 runs them in linear time, and the demo shop's own", () => {
    for (const pattern of [
      '(?:\\d|\\d\\d)*x',
      '^(\\w+\\s?)+$',
      '(?:#|\\b)(\\d{4,12})\\b',
      '\\b(?:because|since|as|reason(?:\\s+is)?:?)\\s+(.{3,300})',
    ]) {
      expect(problemsOf(pattern), pattern).toEqual([]);
    }
  });
});
