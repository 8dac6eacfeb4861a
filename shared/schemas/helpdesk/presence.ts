import { z } from 'zod';
import { IdParam } from './fields.ts';

/** A person's availability in an account (Chatwoot's): only `online` people count as available. */
export const Availability = z.enum(['online', 'busy', 'offline']);
export type Availability = z.infer<typeof Availability>;

/** `PATCH /api/v1/profile`: the caller's availability in one of their accounts (Chatwoot's profile[availability]). */
export const ProfileAvailabilityUpdate = z.strictObject({ account_id: IdParam, availability: Availability });
export const ProfileAvailability = z.object({
  account_id: z.number().int(),
  user_id: z.number().int(),
  availability: Availability,
});

/** Who is available now: per person of the account, and per inbox how many of those who answer it. */
export const AccountPresence = z.object({
  payload: z.array(z.object({ user_id: z.number().int(), name: z.string(), availability_status: Availability })),
  inboxes: z.array(z.object({ inbox_id: z.number().int(), available_count: z.number().int() })),
});
