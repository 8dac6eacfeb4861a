import { z } from 'zod';

/**
 * The engine's account move (`POST /operator/v1/accounts/{id}/moves`): the installation's operator
 * (the BFF) moves the conversations of one helpdesk account, which the installation's engine
 * account served, to an engine account of their own. Sent again with the same `reference`, it
 * finds the account it made and moves what is left: a move cut off half way is finished by
 * sending it again.
 *
 * @example AccountMove.parse({ reference: 'bff-1-5f2c…', name: 'Acme', conversation_ids: ['cnv_…'] })
 */
export const AccountMove = z.strictObject({
  reference: z
    .string()
    .regex(/^[0-9A-Za-z_.:-]{8,200}$/, '8 to 200 letters, digits, or _ . : -')
    .describe('Names the move: the same on every try of it. The first try makes the account.'),
  name: z.string().trim().min(1).max(200).describe("The new account's name (the helpdesk account's)."),
  conversation_ids: z
    .array(z.string().regex(/^cnv_[0-9A-Za-z]{16,64}$/, 'a conversation id (cnv_…)'))
    .max(1000)
    .describe(
      'Conversations of this account to move, with their turns, events, media, surveys, calls and interview answers (at most 1000 a request: send more with the same reference). One moved already is skipped; one of another account is refused.',
    ),
  feed_cursors: z
    .strictObject({ sandbox: z.string().max(100).optional(), live: z.string().max(100).optional() })
    .optional()
    .describe("Where the operator has read this account's feeds: the answer's cursors continue from there."),
});
export type AccountMove = z.infer<typeof AccountMove>;

/** Where to read the new account's feed of each environment from (null: from its start). */
export const MovedFeedCursors = z.object({ sandbox: z.string().nullable(), live: z.string().nullable() });

/** The new account, its keys (in this answer only: an earlier answer's keys are revoked), and where to read its feeds from. */
export const AccountMoved = z.object({
  account_id: z.string(),
  keys: z.object({
    test: z.string().startsWith('service_test_').describe('The sandbox key (service_test_…).'),
    live: z.string().startsWith('service_live_').describe('The live key (service_live_…).'),
  }),
  moved: z.number().int().describe('How many conversations this request moved.'),
  feed_cursors: MovedFeedCursors.describe(
    "For each environment, the new account's last moved event that comes before the cursor sent (null: read from the feed's start).",
  ),
});
export type AccountMoved = z.infer<typeof AccountMoved>;
