import { z } from 'zod';

/**
 * Actions of the AI conversation API (SPEC "Actions": the actions the AI can ask for) and the
 * sandbox's fixtures for them (SPEC "Sandbox": fixtures for actions, test keys only).
 *
 * An action's inputs are described as JSON Schema, the subset the engine's brains understand: an
 * object whose properties are strings, each with a description and a `pattern`. The pattern is a
 * JavaScript regular expression (case-insensitive) that a string must match, as in JSON Schema; the
 * retrieval brain also uses it to find the value in the customer's words (its first capture group,
 * or the whole match without one). `x-ask` is what the AI asks when a required input is missing.
 */

export const ActionName = z.string().regex(/^[a-z][a-z0-9_]{1,63}$/, 'an action name: 2 to 64 lowercase letters, digits and _, starting with a letter');
export const ActionParams = z.strictObject({ name: ActionName });
export const FixtureParams = z.strictObject({ action: ActionName });

const ParameterName = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a parameter name: lowercase letters, digits and _, starting with a letter');

/** The most parameters an action takes. */
export const ACTION_PARAMETERS_MAX = 20;

/** Whether `source` compiles as the brains compile it (JavaScript, case-insensitive). */
function compiles(source: string): boolean {
  try {
    new RegExp(source, 'i');
    return true;
  } catch {
    return false;
  }
}

/** How many capturing groups `source` has (an empty alternative matches '' and reports every group). */
function captureGroups(source: string): number {
  return (new RegExp(`${source}|`, 'i').exec('')?.length ?? 1) - 1;
}

/**
 * Whether a repeated group itself repeats something, as in `(a+)+` or `(\w*){2,}`: such patterns
 * can take exponential time on a long message (ReDoS), and every customer message of the account
 * is matched against them. A rough check on the pattern's text, erring towards refusing.
 */
export function nestsRepeats(source: string): boolean {
  const groups: { repeats: boolean }[] = [{ repeats: false }];
  const repeatAt = (index: number): number => {
    const char = source[index];
    if (char === '*' || char === '+') return 1;
    if (char !== '{') return 0;
    const bound = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index));
    if (!bound) return 0;
    const upper = bound[2] === undefined ? Number(bound[1]) : bound[3] === '' ? Infinity : Number(bound[3]);
    return upper > 1 ? bound[0].length : 0;
  };
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') {
      index++;
    } else if (char === '[') {
      // A class is one atom: skip to its end.
      for (index++; index < source.length && source[index] !== ']'; index++) if (source[index] === '\\') index++;
    } else if (char === '(') {
      groups.push({ repeats: false });
    } else if (char === ')') {
      const closed = groups.pop() ?? { repeats: false };
      const outer = groups.at(-1) ?? groups[0]!;
      if (repeatAt(index + 1) > 0) {
        if (closed.repeats) return true;
        outer.repeats = true;
      }
      if (closed.repeats) outer.repeats = true;
    } else if (repeatAt(index) > 0) {
      groups.at(-1)!.repeats = true;
    }
  }
  return false;
}

export const ActionPattern = z
  .string()
  .min(1)
  .max(500)
  .refine(compiles, 'not a valid JavaScript regular expression')
  .refine((source) => !compiles(source) || captureGroups(source) <= 1, 'at most one capturing group (write (?:…) for the others)')
  .refine((source) => !nestsRepeats(source), 'a repeated group may not repeat inside (as in (a+)+): such patterns can take exponential time')
  .describe('A JavaScript regular expression (case-insensitive) the value matches; the retrieval brain finds the value in the message with it (its capture group, or the whole match).');

export const ActionParameter = z.strictObject({
  type: z.literal('string'),
  description: z.string().trim().min(1).max(300),
  pattern: ActionPattern,
  'x-ask': z.string().trim().min(1).max(300).optional().describe('What the AI asks when the input is missing; "What is the <name>?" when left out.'),
});
export type ActionParameter = z.infer<typeof ActionParameter>;

export const ActionParameters = z
  .strictObject({
    type: z.literal('object'),
    properties: z
      .record(ParameterName, ActionParameter)
      .refine((properties) => Object.keys(properties).length <= ACTION_PARAMETERS_MAX, `at most ${ACTION_PARAMETERS_MAX} properties`),
    required: z.array(ParameterName).max(ACTION_PARAMETERS_MAX).optional(),
    additionalProperties: z.literal(false).optional(),
  })
  .superRefine((schema, context) => {
    const required = schema.required ?? [];
    for (const name of required) {
      if (!(name in schema.properties)) context.addIssue({ code: 'custom', path: ['required'], message: `${name} is required but is not one of the properties` });
    }
    if (new Set(required).size !== required.length) context.addIssue({ code: 'custom', path: ['required'], message: 'each property at most once' });
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
  description: z.string().trim().min(1).max(500).describe('What the action does, e.g. "Look up the status of an order".'),
  parameters: ActionParameters.default({ type: 'object', properties: {} }),
  triggers: z
    .array(z.array(TriggerWord).min(1).max(8))
    .min(1)
    .max(50)
    .optional()
    .describe("Groups of words: the retrieval brain asks for the action when a message holds every word of a group (as word starts). Left out: one group of the name's words of three letters or more."),
  reply: z.string().trim().min(1).max(1000).optional().describe('How the AI tells a success: {name} is an input or a field of the result. Left out: the result\'s fields, listed.'),
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
    properties: z.record(z.string(), z.object({ type: z.literal('string'), description: z.string(), pattern: z.string(), 'x-ask': z.string() })),
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
  secret: z.string().optional().describe("The URL's signing secret (whsec_…), shown only in the answer that made it: when the action first gets a URL, or with rotate_secret."),
});
export type PutActionResponse = z.infer<typeof PutActionResponse>;

export const ActionList = z.object({ actions: z.array(Action) });

/** The deepest nesting a fixture's result may have. */
const RESULT_DEPTH_MAX = 16;
const depthOf = (value: unknown): number =>
  value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf)) : 0;

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
