import { z } from 'zod';
import { ENVIRONMENTS } from '../environment.ts';

/**
 * The engine's operator routes (`/operator/v1/accounts`): what an installation's operator (the BFF,
 * with its AI_OPERATOR_TOKEN) sends to make, suspend, resume and delete engine accounts, and what it
 * gets back. The keys of a new account, and each key added to it, are in the answer that made them only.
 *
 * @example OperatorAccountCreate.parse({ name: 'Acme' })
 */
export const OperatorAccountCreate = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe("The account's name, as the operator knows it (a helpdesk account's)."),
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

/** A new key for an account: its environment (a sandbox key is `service_test_…`, a live one `service_live_…`). */
export const OperatorKeyCreate = z.strictObject({
  environment: z.enum(ENVIRONMENTS).describe('sandbox (service_test_…) or live (service_live_…).'),
});
export type OperatorKeyCreate = z.infer<typeof OperatorKeyCreate>;

/** An account's API key in an operator route's path. */
export const OperatorKeyParams = OperatorAccountParams.extend({
  key_id: z.string().regex(/^key_[0-9A-Za-z]{16,64}$/, 'an API key id (key_…)'),
});

/** An API key of an account, as the engine keeps it: never the key, only its first characters. */
export const OperatorKey = z.object({
  id: z.string(),
  environment: z.enum(ENVIRONMENTS),
  prefix: z.string().describe("The key's first 17 characters, to tell keys apart."),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type OperatorKey = z.infer<typeof OperatorKey>;

/** A key just made: the key itself is in this answer only (the engine keeps its hash). */
export const OperatorKeyCreated = OperatorKey.extend({
  key: z
    .string()
    .regex(/^service_(test|live)_/)
    .describe('The whole key, shown once.'),
});
export type OperatorKeyCreated = z.infer<typeof OperatorKeyCreated>;

/** Every key of an account, revoked ones included, oldest first. */
export const OperatorKeyList = z.object({ keys: z.array(OperatorKey) });
export type OperatorKeyList = z.infer<typeof OperatorKeyList>;
