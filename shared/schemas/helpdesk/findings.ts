import { z } from 'zod';
import { ENVIRONMENTS } from '../../environment.ts';

/**
 * What the engine's monitors found in an account's conversations (issue 29), as the console's
 * Findings list and an open conversation read them. Lists page by cursor, newest first.
 */
const Severity = z.enum(['low', 'medium', 'high']);
const FindingEnvironment = z.enum(ENVIRONMENTS);

export const DeskFinding = z.object({
  id: z.number().int(),
  conversation_id: z.number().int().describe('The conversation, as the Application API numbers it.'),
  monitor_id: z.string(),
  monitor_name: z.string().nullable().describe("The monitor's name when it found this (null: the engine did not say)."),
  message_id: z.string().describe("The engine's id of the message it found."),
  excerpt: z.string().describe('The words found, as the customer or the AI wrote them.'),
  severity: Severity,
  environment: FindingEnvironment.describe("The conversation's environment, in which the engine's monitor found it."),
  created_at: z.number().int().describe('When the finding reached the helpdesk, in seconds since 1970.'),
});
export type DeskFinding = z.infer<typeof DeskFinding>;

export const DeskFindingsQuery = z.strictObject({
  after: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, "a finding's id, as the page before's next")
    .optional()
    .describe("The page before's `next`: the findings older than it."),
  severity: Severity.optional().describe('Only the findings of this severity.'),
  environment: FindingEnvironment.optional().describe(
    "Only the findings of this environment's conversations (sandbox: the site's test key; live); both when left out.",
  ),
});
export type DeskFindingsQuery = z.infer<typeof DeskFindingsQuery>;

export const DeskFindingPage = z.object({
  payload: z.array(DeskFinding).describe('Newest first.'),
  next: z.string().nullable().describe('Give it as `after` for the next page (null: nothing was listed).'),
  has_more: z.boolean(),
});
export type DeskFindingPage = z.infer<typeof DeskFindingPage>;
