import { z } from 'zod';

/**
 * An account's request limits as the installation operator reads and changes them
 * (`/operator/v1/accounts/{id}/limits`): SPEC "Limits" lets an account's limits be raised on
 * request. Each environment has its own; an account without its own has the environment's default.
 *
 * @example OperatorLimitsChange.parse({ requests_per_minute: { live: 1200, sandbox: null } })
 */
const PerMinute = z.number().int().min(1).max(1_000_000);

export const OperatorLimitsChange = z.strictObject({
  requests_per_minute: z
    .strictObject({
      sandbox: PerMinute.nullable().optional(),
      live: PerMinute.nullable().optional(),
    })
    .refine((limits) => limits.sandbox !== undefined || limits.live !== undefined, 'name sandbox, live or both')
    .describe("The account's own requests per minute per environment; null gives the environment's default back."),
});
export type OperatorLimitsChange = z.infer<typeof OperatorLimitsChange>;

const EnvironmentLimit = z.object({
  requests_per_minute: z.number().int().describe('What the environment allows a minute, shared by its keys.'),
  default: z.boolean().describe("True when it is the environment's default (60 sandbox, 300 live)."),
});

/** An account's limits in each environment. */
export const OperatorLimits = z.object({
  account_id: z.string(),
  limits: z.object({ sandbox: EnvironmentLimit, live: EnvironmentLimit }),
});
export type OperatorLimits = z.infer<typeof OperatorLimits>;
