import { z } from 'zod';
import type { ReplyCard } from '../../shared/index.ts';
import { NO_DEADLINE, outOfTime, type BrainBudget } from './bounds.ts';
import { matchPattern } from './pattern-match.ts';

/** The longest trigger word: 40 characters as the API takes them, 64 when made from the action's name (defaultTriggers). */
const TRIGGER_WORD_CHARS_MAX = 64;

/**
 * An action the AI may ask the site's server to run (e.g. look up an order). The account defines
 * it: when the AI should think of it (`triggers`), what it needs (`inputs`, found in the customer's
 * words by a pattern, or asked for), and how to tell the customer the result (`reply`).
 */
export const ActionDefinition = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/),
  description: z.string().min(1).max(500),
  /** Groups of words; the action fits a message that contains every word of one group (as word starts). */
  triggers: z
    .array(
      z
        .array(
          z
            .string()
            .regex(/^[a-z0-9']+$/)
            .max(TRIGGER_WORD_CHARS_MAX),
        )
        .min(1),
    )
    .min(1),
  inputs: z.array(
    z.strictObject({
      name: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
      description: z.string().min(1).max(300),
      /** A regular expression with one capture group that finds the input in the customer's words. */
      pattern: z.string().min(1).max(500),
      required: z.boolean(),
      /** What the AI asks when a required input is missing. */
      ask: z.string().min(1).max(300),
    }),
  ),
  /** How to tell the customer a success; `{name}` is replaced by an input or a field of the result. Without it the result's fields are listed. */
  reply: z.string().min(1).max(1000).optional(),
  /** A card shown with a success: a title template and the result fields to list. */
  card: z
    .strictObject({
      title: z.string().min(1).max(200),
      fields: z.array(z.strictObject({ label: z.string().min(1).max(100), field: z.string().min(1).max(64) })).max(20),
    })
    .optional(),
});
export type ActionDefinition = z.infer<typeof ActionDefinition>;

export type ActionInputs = Record<string, string>;

/**
 * Every start of every word of `text` (lower-case), up to the longest trigger word: a trigger word
 * is then found in one look-up, not compared with each word of the message (with 100 actions of 50
 * groups each, that was millions of comparisons on a long message). There are fewer starts than
 * characters in the text.
 */
function wordStarts(text: string): Set<string> {
  const starts = new Set<string>();
  for (const word of new Set(text.toLowerCase().match(/[a-z0-9']+/g))) {
    for (let length = 1; length <= Math.min(word.length, TRIGGER_WORD_CHARS_MAX); length++)
      starts.add(word.slice(0, length));
  }
  return starts;
}

/** The defined action the message asks for, if any: the one whose best trigger group is longest. */
export function matchAction(text: string, actions: readonly ActionDefinition[]): ActionDefinition | undefined {
  const said = wordStarts(text);
  let best: { action: ActionDefinition; strength: number } | undefined;
  for (const action of actions) {
    for (const group of action.triggers) {
      if (group.every((word) => said.has(word)) && group.length > (best?.strength ?? 0)) {
        best = { action, strength: group.length };
      }
    }
  }
  return best?.action;
}

/** The inputs of `action` found in `text`, added to those already known; the patterns stop once `budget` is spent. */
export function extractInputs(
  action: ActionDefinition,
  text: string,
  known: ActionInputs = {},
  budget: BrainBudget = NO_DEADLINE,
): ActionInputs {
  const inputs: ActionInputs = { ...known };
  for (const input of action.inputs) {
    if (inputs[input.name] !== undefined) continue;
    if (outOfTime(budget)) break;
    const match = matchPattern(input.pattern, text);
    // Its capture group, or the whole match when the pattern has none.
    const value = (match && match.length > 1 ? match[1] : match?.[0])?.trim();
    if (value) inputs[input.name] = value;
  }
  return inputs;
}

export function missingInputs(action: ActionDefinition, inputs: ActionInputs): ActionDefinition['inputs'] {
  return action.inputs.filter((input) => input.required && inputs[input.name] === undefined);
}

/** True when a result says the action failed (`{status: 'failed', error}`). */
export function isFailure(result: Record<string, unknown>): result is { status: 'failed'; error?: unknown } {
  return result['status'] === 'failed';
}

/** What the AI tells the customer about an action's result: the template on success, a plain apology on failure. */
export function describeResult(
  action: ActionDefinition,
  inputs: ActionInputs,
  result: Record<string, unknown>,
): string {
  if (isFailure(result)) {
    const reason =
      typeof result.error === 'string' && result.error.trim() ? ` The reason given was: ${result.error.trim()}.` : '';
    return `I'm sorry, I tried to ${action.description.replace(/\.$/, '').toLowerCase()}, but it failed.${reason} Please try again later, or ask me to connect you with a person.`;
  }
  const values: Record<string, unknown> = { ...result, ...inputs };
  const filled = action.reply?.replace(/\{(\w+)\}/g, (whole, name: string) =>
    isPrintable(values[name]) ? String(values[name]) : whole,
  );
  if (filled && !/\{\w+\}/.test(filled)) return filled;
  const facts = Object.entries(result)
    .filter(([, value]) => isPrintable(value))
    .map(([name, value]) => `${name.replace(/_/g, ' ')}: ${String(value)}`);
  return `Here is what I found: ${facts.join('; ') || 'the action succeeded'}.`;
}

const isPrintable = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** The card of a successful result, when the action defines one; fields missing from the result are left out. */
export function cardOf(
  action: ActionDefinition,
  inputs: ActionInputs,
  result: Record<string, unknown>,
): ReplyCard | undefined {
  if (!action.card || isFailure(result)) return undefined;
  const values: Record<string, unknown> = { ...result, ...inputs };
  const title = action.card.title.replace(/\{(\w+)\}/g, (whole, name: string) =>
    isPrintable(values[name]) ? String(values[name]) : whole,
  );
  const fields = action.card.fields
    .filter((field) => isPrintable(values[field.field]))
    .map((field) => ({ label: field.label, value: String(values[field.field]) }));
  return { title, fields };
}
