import { z } from 'zod';

/**
 * The engine's operator routes (`/operator/v1/accounts`): what an installation's operator (the BFF,
 * with its AI_OPERATOR_TOKEN) sends to make, suspend, resume and delete engine accounts, and what it
 * gets back. The keys of a new account are in the create answer only.
 *
 * @example OperatorAccountCreate.parse({ name: 'Acme' })
 */
export const OperatorAccountCreate = z.strictObject({
  name: z.string().trim().min(1).max(200).describe("The account's name, as the operator knows it (a helpdesk account's)."),
  requests_per_minute: z
    .strictObject({
      sandbox: z.number().int().min(1).max(1_000_000).optional(),
      live: z.number().int().min(1).max(1_000_000).optional(),
    })
    .optional()
    .describe("The account's own limits; unset: the defaults (60 sandbox, 300 live)."),
});
export type OperatorAccountCreate = z.infer<typeof OperatorAccountCreate>;

/** An engine account id (`acc_…`) in an operator route's path. */
export const OperatorAccountParams = z.strictObject({
  id: z.string().regex(/^acc_[0-9A-Za-z]{16,64}$/, 'an account id (acc_…)'),
});

/** A new account with its API keys, one per environment: shown in this answer only (only their hashes are kept). */
export const OperatorAccountCreated = z.object({
  account_id: z.string(),
  keys: z.object({
    test: z.string().startsWith('service_test_').describe('The sandbox key (service_test_…).'),
    live: z.string().startsWith('service_live_').describe('The live key (service_live_…).'),
  }),
});
export type OperatorAccountCreated = z.infer<typeof OperatorAccountCreated>;

/** An account's standing: `suspended` refuses its keys with 403 account_suspended until it is resumed. */
export const OperatorAccountStatus = z.object({
  account_id: z.string(),
  status: z.enum(['active', 'suspended']),
});
export type OperatorAccountStatus = z.infer<typeof OperatorAccountStatus>;
