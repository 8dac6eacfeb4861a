import { z } from 'zod';

/**
 * Assist, the copilot for people (SPEC "Conversations → assist", issue 29): a reply a person could
 * send, grounded in the account's knowledge, a two-line summary of the conversation so far, and the
 * customer's language. Asking changes nothing in the conversation and records no event.
 */

/** The most a person's draft may hold: a reply, not a document. */
export const ASSIST_DRAFT_CHARS_MAX = 10_000;

export const AssistRequest = z.strictObject({
  draft: z
    .string()
    .trim()
    .min(1)
    .max(ASSIST_DRAFT_CHARS_MAX)
    .optional()
    .describe("A person's draft reply to improve (with an LLM only; without one the answer is 422)."),
});
export type AssistRequest = z.infer<typeof AssistRequest>;

export const AssistSource = z.object({
  title: z.string().describe('The article, and its section when it has several (`Returns and refunds › …`).'),
  url: z.string().optional().describe('Where the article is published, when it is.'),
});
export type AssistSource = z.infer<typeof AssistSource>;

export const AssistSuggestion = z.object({
  text: z.string().describe('A reply a person could send as it is (in the customer’s language), or edit first.'),
  sources: z.array(AssistSource).describe('The articles the reply is taken from.'),
  confidence: z
    .number()
    .min(0)
    .max(1)
    .describe(
      "0–1: the share of the customer's question its source matches (0.5 when matched by meaning only); 1 for an improved draft, which says what the person wrote.",
    ),
});
export type AssistSuggestion = z.infer<typeof AssistSuggestion>;

/** Why there is no suggestion: nothing to answer yet, or nothing in the knowledge that answers it. */
export const AssistNoSuggestion = z.object({
  code: z.enum(['no_question', 'no_good_source']),
  message: z.string(),
});
export type AssistNoSuggestion = z.infer<typeof AssistNoSuggestion>;

export const AssistResponse = z.object({
  suggestion: AssistSuggestion.nullable().describe(
    'Null when nothing in the knowledge answers well: `reason` says why.',
  ),
  reason: AssistNoSuggestion.nullable().describe('Why `suggestion` is null; null when there is one.'),
  summary: z.string().describe('Two lines: what the customer asked, and what has been done (answered, handed over).'),
  customer_language: z.string().describe("The customer's language (`en`, `de`)."),
});
export type AssistResponse = z.infer<typeof AssistResponse>;
