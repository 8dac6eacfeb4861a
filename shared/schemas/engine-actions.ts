import { RE2JS } from 're2js';
import { z } from 'zod';

/**
 * Actions of the AI conversation API (SPEC "Actions": the actions the AI can ask for) and the
 * sandbox's fixtures for them (SPEC "Sandbox": fixtures for actions, test keys only).
 *
 * An action's inputs are described as JSON Schema, the subset the engine's brains understand: an
 * object whose properties are strings, each with a description and a `pattern`. The pattern is a
 * regular expression (case-insensitive) that a string must match, as in JSON Schema; the retrieval
 * brain also uses it to find the value in the customer's words (its first capture group, or the
 * whole match without one). The engine runs patterns on RE2 (issue 26: a backtracking pattern held
 * every account), so a pattern must be valid both in JavaScript and in RE2. `x-ask` is what the AI
 * asks when a required input is missing.
 */

export const ActionName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{1,63}$/, 'an action name: 2 to 64 lowercase letters, digits and _, starting with a letter');
export const ActionParams = z.strictObject({ name: ActionName });
export const FixtureParams = z.strictObject({ action: ActionName });

const ParameterName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, 'a parameter name: lowercase letters, digits and _, starting with a letter');

/** The most parameters an action takes. */
export const ACTION_PARAMETERS_MAX = 20;

/** Whether `source` compiles as JavaScript (case-insensitive): JSON Schema's own dialect of patterns. */
function compilesAsJavaScript(source: string): boolean {
  try {
    new RegExp(source, 'i');
    return true;
  } catch {
    return false;
  }
}

/**
 * The largest RE2 program a pattern may compile to. RE2's time is linear in the text and in the
 * program, so the engine reads proportionally less of a message with a larger one
 * (engine/brain/pattern-match.ts); an ordinary pattern has under 50 instructions, and a counted
 * repeat makes one or more per count (`\w{1,500}` is 1,001).
 */
export const ACTION_PATTERN_PROGRAM_MAX = 1_000;
/** The most Unicode property classes (`\p{…}`, `\P{…}`) in a pattern: each costs up to 0.4 ms to compile case-insensitively. */
export const ACTION_PATTERN_PROPERTIES_MAX = 10;
/** The highest character a character class may hold: RE2 folds the case of each character of a range in turn. */
const CLASS_CHARACTER_MAX = 0xff;

const TOO_LARGE = 'a counted repeat such as {1,500} makes one or more for each count; write + or * instead';

/** The end of the escape at `at` (a backslash), and the character it stands for, or whether it is a property class. */
function escapeAt(source: string, at: number): { end: number; codePoint?: number; property?: boolean } {
  const next = source[at + 1];
  const braced = () => {
    const close = source.indexOf('}', at + 3);
    return close === -1 ? source.length - 1 : close;
  };
  if (next === 'p' || next === 'P') return { end: source[at + 2] === '{' ? braced() : at + 2, property: true };
  if (next === 'x') {
    const end = source[at + 2] === '{' ? braced() : at + 3;
    const hex = source.slice(at + 2, end + 1).replace(/[{}]/g, '');
    return { end, codePoint: /^[0-9a-f]{1,8}$/i.test(hex) ? Number.parseInt(hex, 16) : 0 };
  }
  const octal = /^[0-7]{1,3}/.exec(source.slice(at + 1, at + 4));
  if (octal) return { end: at + octal[0].length, codePoint: Number.parseInt(octal[0], 8) };
  if (next === undefined || 'dDwWsS'.includes(next)) return { end: at + 1 };
  const codePoint = source.codePointAt(at + 1)!;
  return { end: at + (codePoint > 0xffff ? 2 : 1), codePoint };
}

/** The end of the character class at `at` (a `[`), its highest character and its property classes. */
function classAt(source: string, at: number): { end: number; highest: number; properties: number } {
  let highest = 0;
  let properties = 0;
  let index = at + 1;
  if (source[index] === '^') index++;
  // A `]` first is the character itself.
  for (let first = true; index < source.length && (first || source[index] !== ']'); first = false) {
    if (source.startsWith('[:', index)) {
      const close = source.indexOf(':]', index + 2);
      index = close === -1 ? source.length : close + 2;
      continue;
    }
    const escape = source[index] === '\\' ? escapeAt(source, index) : undefined;
    const codePoint = escape ? escape.codePoint : source.codePointAt(index)!;
    if (escape?.property) properties++;
    if (codePoint !== undefined) highest = Math.max(highest, codePoint);
    index = (escape ? escape.end : index + (codePoint! > 0xffff ? 1 : 0)) + 1;
  }
  return { end: index, highest, properties };
}

/**
 * Why compiling `source` with RE2, case-insensitively, would cost too much, read from its text in
 * one pass before it is compiled (undefined: it will not). RE2 writes counted repeats out (fifty
 * `\w{1,999}` take 0.6 s to compile), folds the case of every character of a class range in
 * turn (`[Ā-𞥂]` takes 3 ms, and 80 fit in a pattern) and reads a table for each property class.
 * Errs towards refusing. The brain asks it too, of patterns stored before it was asked.
 */
export function compileCostProblem(source: string): string | undefined {
  // The written-out size of each open group, and of the last atom or group (what a repeat repeats).
  const sizes = [0];
  let last = 0;
  let properties = 0;
  let highest = 0;
  const add = (size: number) => {
    last = size;
    sizes[sizes.length - 1]! += size;
  };
  for (let at = 0; at < source.length; at++) {
    const char = source[at]!;
    if (char === '\\') {
      const escape = escapeAt(source, at);
      if (escape.property) properties++;
      at = escape.end;
      add(1);
    } else if (char === '[') {
      const found = classAt(source, at);
      properties += found.properties;
      highest = Math.max(highest, found.highest);
      at = found.end;
      add(1);
    } else if (char === '(') {
      sizes.push(0);
      if (source.startsWith('(?:', at)) at += 2;
    } else if (char === ')') {
      add(sizes.length > 1 ? sizes.pop()! : 0);
    } else if (char === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(at, at + 12))) {
      const [, least, comma, most] = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at, at + 12))!;
      const times = comma === undefined ? Number(least) : most === '' ? Number(least) + 1 : Number(most);
      sizes[sizes.length - 1]! += last * (times - 1);
      last *= times;
      at = source.indexOf('}', at);
    } else if (!'*+?|'.includes(char)) {
      add(1);
    }
  }
  const writtenOut = sizes.reduce((sum, size) => sum + size, 0);
  if (writtenOut > ACTION_PATTERN_PROGRAM_MAX)
    return `too large: it writes out to about ${writtenOut} RE2 instructions, at most ${ACTION_PATTERN_PROGRAM_MAX} (${TOO_LARGE})`;
  if (properties > ACTION_PATTERN_PROPERTIES_MAX)
    return `at most ${ACTION_PATTERN_PROPERTIES_MAX} Unicode property classes (\\p{…}, \\P{…}), found ${properties}`;
  if (highest > CLASS_CHARACTER_MAX)
    return 'a character class may hold only characters up to U+00FF: write \\p{…} for the letters of other scripts (\\p{L} for any letter)';
  return undefined;
}

/**
 * Checks a pattern as the engine runs it: on RE2 (linear time, no backtracking). RE2 has no
 * lookahead, lookbehind or backreference, the constructs that backtrack: a pattern with one is
 * refused here rather than found never to match later. Compiled here without case folding (the
 * costly part, paid by the brain once per pattern, within a message's budget).
 */
function checkWithRe2(source: string, context: z.RefinementCtx): void {
  const costly = compileCostProblem(source);
  if (costly) {
    context.addIssue({ code: 'custom', message: costly });
    return;
  }
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    context.addIssue({
      code: 'custom',
      message: `RE2 cannot run this pattern: ${reason} (the engine matches patterns with RE2, in linear time: no lookahead, lookbehind or backreference, and repeat counts up to 1000)`,
    });
    return;
  }
  if (regex.groupCount() > 1)
    context.addIssue({ code: 'custom', message: 'at most one capturing group (write (?:…) for the others)' });
  if (regex.programSize() > ACTION_PATTERN_PROGRAM_MAX) {
    context.addIssue({
      code: 'custom',
      message: `too large: it compiles to ${regex.programSize()} RE2 instructions, at most ${ACTION_PATTERN_PROGRAM_MAX} (${TOO_LARGE})`,
    });
  }
}

export const ActionPattern = z
  .string()
  .min(1)
  .max(500)
  .refine(compilesAsJavaScript, 'not a valid JavaScript regular expression')
  .superRefine((source, context) => {
    if (compilesAsJavaScript(source)) checkWithRe2(source, context);
  })
  .describe(
    'A regular expression (case-insensitive) the value matches: valid in JavaScript, as JSON Schema asks, and run by RE2 (linear time), so without lookahead, lookbehind or backreferences; at most one capturing group, 1,000 RE2 instructions (a counted repeat makes one or more per count) and 10 \\p{…} classes, and character classes of characters up to U+00FF. The retrieval brain finds the value in the message with it (its capture group, or the whole match).',
  );

export const ActionParameter = z.strictObject({
  type: z.literal('string'),
  description: z.string().trim().min(1).max(300),
  pattern: ActionPattern,
  'x-ask': z
    .string()
    .trim()
    .min(1)
    .max(300)
    .optional()
    .describe('What the AI asks when the input is missing; "What is the <name>?" when left out.'),
});
export type ActionParameter = z.infer<typeof ActionParameter>;

export const ActionParameters = z
  .strictObject({
    type: z.literal('object'),
    properties: z
      .record(ParameterName, ActionParameter)
      .refine(
        (properties) => Object.keys(properties).length <= ACTION_PARAMETERS_MAX,
        `at most ${ACTION_PARAMETERS_MAX} properties`,
      ),
    required: z.array(ParameterName).max(ACTION_PARAMETERS_MAX).optional(),
    additionalProperties: z.literal(false).optional(),
  })
  .superRefine((schema, context) => {
    const required = schema.required ?? [];
    for (const name of required) {
      if (!(name in schema.properties))
        context.addIssue({
          code: 'custom',
          path: ['required'],
          message: `${name} is required but is not one of the properties`,
        });
    }
    if (new Set(required).size !== required.length)
      context.addIssue({ code: 'custom', path: ['required'], message: 'each property at most once' });
  })
  .describe('JSON Schema of the inputs: an object of string properties, each with a description and a pattern.');
export type ActionParameters = z.infer<typeof ActionParameters>;

const TriggerWord = z.string().regex(/^[a-z0-9']{1,40}$/, 'a lowercase word');
const Card = z.strictObject({
  title: z.string().min(1).max(200).describe('A template: {name} is an input or a field of the result.'),
  fields: z.array(z.strictObject({ label: z.string().min(1).max(100), field: z.string().min(1).max(64) })).max(20),
});
const ActionUrl = z.url({ protocol: /^https?$/ }).max(2000);

export const PutActionRequest = z.strictObject({
  description: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('What the action does, e.g. "Look up the status of an order".'),
  parameters: ActionParameters.default({ type: 'object', properties: {} }),
  triggers: z
    .array(z.array(TriggerWord).min(1).max(8))
    .min(1)
    .max(50)
    .optional()
    .describe(
      "Groups of words: the retrieval brain asks for the action when a message holds every word of a group (as word starts). Left out: one group of the name's words of three letters or more.",
    ),
  reply: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      "How the AI tells a success: {name} is an input or a field of the result. Left out: the result's fields, listed.",
    ),
  card: Card.optional().describe('A card shown with a success: a title template and the result fields to list.'),
  url: ActionUrl.nullable()
    .optional()
    .describe(
      "Where the engine posts a live customer's action request, signed like a webhook with the action's secret; its answer (a JSON object, within 10 s) is the result. https only, never a private address. Set only with a live key. Left out or null: your server runs the action (action-results).",
    ),
  rotate_secret: z.boolean().optional().describe('Make a new signing secret for the URL (shown once, in this answer).'),
});
export type PutActionRequest = z.infer<typeof PutActionRequest>;

export const Action = z.object({
  name: z.string(),
  description: z.string(),
  parameters: z.object({
    type: z.literal('object'),
    properties: z.record(
      z.string(),
      z.object({ type: z.literal('string'), description: z.string(), pattern: z.string(), 'x-ask': z.string() }),
    ),
    required: z.array(z.string()),
  }),
  triggers: z.array(z.array(z.string())),
  reply: z.string().nullable(),
  card: Card.nullable(),
  url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Action = z.infer<typeof Action>;

export const PutActionResponse = Action.extend({
  secret: z
    .string()
    .optional()
    .describe(
      "The URL's signing secret (whsec_…), shown only in the answer that made it: when the action first gets a URL, or with rotate_secret.",
    ),
});
export type PutActionResponse = z.infer<typeof PutActionResponse>;

export const ActionList = z.object({ actions: z.array(Action) });

/** The deepest nesting a fixture's result may have. */
const RESULT_DEPTH_MAX = 16;
const depthOf = (value: unknown): number =>
  value !== null && typeof value === 'object'
    ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf))
    : 0;

export const PutFixtureRequest = z.strictObject({
  result: z
    .record(z.string(), z.unknown())
    .refine((result) => JSON.stringify(result).length <= 16_000, 'at most 16,000 characters of JSON')
    .refine((result) => depthOf(result) <= RESULT_DEPTH_MAX, `nested at most ${RESULT_DEPTH_MAX} deep`)
    .describe("The action's data, as your server would give it; {status: 'failed', error} makes the action fail."),
});

export const Fixture = z.object({
  action: z.string(),
  result: z.record(z.string(), z.unknown()),
  updated_at: z.string(),
});
export type Fixture = z.infer<typeof Fixture>;

export const FixtureList = z.object({ fixtures: z.array(Fixture) });
