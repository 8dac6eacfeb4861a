import { z } from 'zod';
import { IdParam, Name } from './fields.ts';
import { Agent } from './inboxes.ts';

// Teams (Chatwoot's): people of the account grouped; a conversation may be assigned to one.

export const TeamParams = z.strictObject({ account_id: IdParam, id: IdParam });
export const TeamCreate = z.strictObject({
  name: Name,
  description: z.string().trim().max(1000).optional(),
  /** When the AI hands over a conversation of the team, it goes to the available members in turn. */
  allow_auto_assign: z.boolean().optional(),
});
export const TeamUpdate = TeamCreate.partial();
export const Team = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  allow_auto_assign: z.boolean(),
  account_id: z.number().int(),
  /** Whether the caller is a member. */
  is_member: z.boolean(),
});
export type Team = z.infer<typeof Team>;
/** `POST` adds, `PATCH` makes the members exactly these, `DELETE` removes (Chatwoot's team_members). */
export const TeamMembersChange = z.strictObject({ user_ids: z.array(IdParam).max(500) });
export const TeamMember = Agent.extend({ availability_status: z.enum(['online', 'busy', 'offline']) });
export type TeamMember = z.infer<typeof TeamMember>;
