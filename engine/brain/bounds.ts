/**
 * How much of a customer's message the brain reads, and for how long it may think about it.
 *
 * The brain works synchronously, in the engine's one thread: while it reads a message no other
 * request of any account is served. A visitor chooses the message (up to 150,000 characters,
 * shared/schemas/engine.ts) and an account chooses its action patterns, so both bounds are the
 * engine's, not theirs (issue 26: one long word held the engine for seconds).
 */

/**
 * The brain reads the first 4,000 characters of a message. A question, however detailed, is
 * shorter (about 600 words); what comes after is a paste (a log, a letter) that no article
 * heading and no action trigger is about. The whole message is still kept, and masked, as written.
 */
export const MESSAGE_READ_CHARS = 4_000;

/** The part of a message the brain reads. */
export function readPart(text: string): string {
  return text.length <= MESSAGE_READ_CHARS ? text : text.slice(0, MESSAGE_READ_CHARS);
}

/**
 * What the brain may spend on one message, in ms of its synchronous work (the model's wait with
 * an LLM does not count). A question takes well under 1 ms, and the longest message a few; once
 * 50 are spent the costly steps (the knowledge search, action patterns) are skipped and the brain
 * answers with what it has: it asks for an input it did not find, or says it is not sure.
 */
export const MESSAGE_BRAIN_MS = 50;

/**
 * The clock the brain's work is measured on: the process's CPU time, in ms. Wall time would count
 * the moments the machine gives the engine's thread to other processes, so a busy machine would
 * make the brain answer "not sure" to a question it reads in under 1 ms; CPU time is what one
 * message takes from every other, which is what the budget bounds.
 */
export function cpuClock(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** When the brain's costly steps stop: a deadline on a clock (ms), both given to it, so that it stays a function of its inputs. */
export interface BrainBudget {
  readonly clock: () => number;
  readonly deadline: number;
}

/** True once the budget is spent: a costly step is not started. */
export function outOfTime(budget: BrainBudget): boolean {
  return budget.clock() >= budget.deadline;
}

/** No deadline: for reading known questions (the evaluation, tests of the answers). */
export const NO_DEADLINE: BrainBudget = { clock: () => 0, deadline: Number.POSITIVE_INFINITY };

/**
 * Runs one stretch of the brain's synchronous work on a message, with the budget the message has
 * left. A message may take several stretches (with an LLM: before and after the model's answer);
 * the engine's come from AccountBrainTime, which also counts their time to the account.
 */
export type Think = <T>(work: (budget: BrainBudget) => T) => T;

/** Thinks without a deadline. */
export const thinkFreely: Think = (work) => work(NO_DEADLINE);
