import { describe, expect, it } from 'vitest';
import { ParleyError } from '../../shared/index.ts';
import { AccountBrainTime } from './account-brain-time.ts';

/** A clock of the test's (ms): `work(ms)` is brain work that takes that long on it. */
function testClock(start = 0) {
  let at = start;
  return {
    clock: () => at,
    advance: (ms: number) => (at += ms),
    work: (ms: number) => () => (at += ms),
  };
}

const refusalOf = (run: () => unknown): ParleyError | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof ParleyError) return error;
    throw error;
  }
};

describe("an account's brain time", () => {
  it('refuses the account that spent its minute with 429 rate_limited until the minute ends, and serves the others', () => {
    const time = testClock();
    const brain = new AccountBrainTime({ clock: time.clock, workClock: time.clock, perMinuteMs: 100 });
    for (let message = 0; message < 2; message++) brain.forMessage('acc_busy')(time.work(50));
    time.advance(20_000);

    const refusal = refusalOf(() => brain.forMessage('acc_busy'));
    expect(refusal).toMatchObject({ code: 'rate_limited', status: 429, retryAfterS: 40 });
    expect(refusal?.message).toBe("This account's AI used its 0.1 s of thinking for this minute. Try again in 40 s.");
    expect(refusalOf(() => brain.refuseWhenSpent('acc_busy'))).toMatchObject({ code: 'rate_limited' });
    expect(refusalOf(() => brain.forMessage('acc_other')(time.work(50)))).toBeUndefined();

    time.advance(40_000);
    expect(refusalOf(() => brain.forMessage('acc_busy')(time.work(50)))).toBeUndefined();
  });

  it("gives one message's stretches of work one budget between them", () => {
    const time = testClock();
    const brain = new AccountBrainTime({ clock: time.clock, workClock: time.clock, messageMs: 50 });
    const think = brain.forMessage('acc_llm');
    expect(think((budget) => budget.deadline - time.clock())).toBe(50);
    think(time.work(30));
    // The model's wait between two stretches is not the brain's.
    time.advance(5_000);
    expect(think((budget) => budget.deadline - time.clock())).toBe(20);
    // A new message has its whole budget again.
    expect(brain.forMessage('acc_llm')((budget) => budget.deadline - time.clock())).toBe(50);
  });

  it('turns a length the brain cannot allocate into a final 422 unprocessable, never a 500', () => {
    const brain = new AccountBrainTime();
    const refusal = refusalOf(() =>
      brain.forMessage('acc_any')(() => {
        throw new RangeError('Invalid typed array length: 10000800007');
      }),
    );
    expect(refusal).toMatchObject({
      code: 'unprocessable',
      status: 422,
      message: 'The AI cannot read this message. Send it shorter, or in several messages.',
    });
    expect(() => brain.forMessage('acc_any')(() => JSON.parse('{'))).toThrow(SyntaxError);
  });

  it('remembers at most `accountsKept` accounts in a minute, forgetting them all (failing open) past it', () => {
    const time = testClock();
    const brain = new AccountBrainTime({
      clock: time.clock,
      workClock: time.clock,
      perMinuteMs: 10,
      accountsKept: 100,
    });
    brain.forMessage('acc_busy')(time.work(10));
    expect(refusalOf(() => brain.refuseWhenSpent('acc_busy'))).toMatchObject({ code: 'rate_limited' });
    for (let account = 0; account < 1_000; account++) {
      brain.forMessage(`acc_${account}`)(time.work(0));
      expect(brain.size).toBeLessThanOrEqual(100);
    }
    expect(refusalOf(() => brain.refuseWhenSpent('acc_busy'))).toBeUndefined();
  });

  it('starts every minute with nothing remembered', () => {
    const time = testClock();
    const brain = new AccountBrainTime({ clock: time.clock, workClock: time.clock });
    for (let account = 0; account < 50; account++) brain.forMessage(`acc_${account}`)(time.work(1));
    expect(brain.size).toBe(50);
    time.advance(60_000);
    brain.forMessage('acc_next')(time.work(1));
    expect(brain.size).toBe(1);
  });
});

describe('the clock the brain is measured on', () => {
  it("counts the process's CPU time, so a message's budget is not spent while the machine serves other processes", async () => {
    const brain = new AccountBrainTime();
    const think = brain.forMessage('acc_waiting');
    // Waiting (as a busy machine makes the engine's thread wait) costs no CPU: the budget stays whole.
    const before = think((budget) => budget.deadline - budget.clock());
    await new Promise((resolve) => setTimeout(resolve, 120));
    const after = think((budget) => budget.deadline - budget.clock());
    expect(before).toBeGreaterThan(45);
    expect(after).toBeGreaterThan(40);
  });
});
