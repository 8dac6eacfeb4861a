import { z } from 'zod';
import { ActionPattern } from './engine-actions.ts';
import { ConversationId } from './engine.ts';

/**
 * Monitors of the AI conversation API (`/v1/monitors`, issue 29): what an account watches its
 * conversations for (words, a pattern, or with an LLM an instruction such as "the AI promised
 * something it cannot do"), and what they found. A monitor belongs to the key's account and
 * environment, as the agent does: a sandbox monitor watches sandbox conversations only.
 */

/** The most monitors an account has in one environment: each one reads every message. */
export const MONITORS_MAX = 50;
/** The most keywords one monitor has. */
export const MONITOR_KEYWORDS_MAX = 50;
/** The most findings one page holds. */
export const FINDINGS_PAGE_MAX = 100;

export const MONITOR_SCOPES = ['ai_messages', 'customer_messages', 'all'] as const;
export const MONITOR_SEVERITIES = ['low', 'medium', 'high'] as const;

export const MonitorId = z.string().regex(/^mon_[0-9A-Za-z]{16,64}$/, 'a monitor id (mon_…)');
export const MonitorParams = z.strictObject({ id: MonitorId });
const FindingId = z.string().regex(/^mnf_[0-9A-Za-z]{16,64}$/, 'a finding id (mnf_…)');

const Keyword = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((keyword) => /[\p{L}\p{N}]/u.test(keyword), 'a keyword with at least one letter or digit');

const MonitorCriteriaFields = z.strictObject({
  keywords: z
    .array(Keyword)
    .max(MONITOR_KEYWORDS_MAX)
    .optional()
    .describe(
      'Words or phrases: a message that holds one (case-insensitive, as the start of a word: "refund" finds "refunds") is a finding.',
    ),
  pattern: ActionPattern.optional().describe(
    'A regular expression (case-insensitive), checked as action input patterns are: run by RE2 in linear time, so without lookahead, lookbehind or backreferences.',
  ),
  instruction: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .optional()
    .describe(
      'What to look for, in words, e.g. "the AI promised something it cannot do": the LLM answers yes or no for each message. Only when the engine has an LLM configured (else 422 not_available).',
    ),
});

/** What a monitor looks for: at least one of keywords, pattern and instruction; a message matching any one is a finding. */
export const MonitorCriteria = MonitorCriteriaFields.refine(
  (criteria) => Boolean(criteria.keywords?.length || criteria.pattern || criteria.instruction),
  'at least one of keywords (not empty), pattern or instruction',
);
export type MonitorCriteria = z.infer<typeof MonitorCriteria>;

const Name = z.string().trim().min(1).max(100);
const Scope = z
  .enum(MONITOR_SCOPES)
  .describe("Whose messages it reads: the AI's, the customer's, or all (the AI's, the customer's and people's).");
const Severity = z.enum(MONITOR_SEVERITIES);

export const CreateMonitorRequest = z.strictObject({
  name: Name,
  criteria: MonitorCriteria,
  scope: Scope.default('all'),
  severity: Severity.default('medium'),
});
export type CreateMonitorRequest = z.infer<typeof CreateMonitorRequest>;
/** A create request as written, before its defaults (scope all, severity medium) are applied. */
export type CreateMonitorInput = z.input<typeof CreateMonitorRequest>;

export const UpdateMonitorRequest = z
  .strictObject({
    name: Name.optional(),
    criteria: MonitorCriteria.optional().describe('Replaces the criteria as a whole.'),
    scope: Scope.optional(),
    severity: Severity.optional(),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), 'at least one field to change');
export type UpdateMonitorRequest = z.infer<typeof UpdateMonitorRequest>;

export const Monitor = z.object({
  id: z.string(),
  name: z.string(),
  criteria: z.object({
    keywords: z.array(z.string()),
    pattern: z.string().nullable(),
    instruction: z.string().nullable(),
  }),
  scope: z.enum(MONITOR_SCOPES),
  severity: z.enum(MONITOR_SEVERITIES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Monitor = z.infer<typeof Monitor>;

export const MonitorList = z.object({ monitors: z.array(Monitor) });

export const MonitorFinding = z.object({
  id: z.string(),
  monitor_id: z.string(),
  conversation_id: z.string(),
  message_id: z.string().describe("The engine's id of the message (trn_…)."),
  role: z.enum(['customer', 'ai', 'human']).describe('Who wrote the message.'),
  excerpt: z.string().describe('The words around what was found; empty once the customer is forgotten.'),
  severity: z.enum(MONITOR_SEVERITIES),
  created_at: z.string(),
});
export type MonitorFinding = z.infer<typeof MonitorFinding>;

const PageFields = {
  after: FindingId.optional().describe("The page before's next: the findings older than this one."),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(FINDINGS_PAGE_MAX)
    .default(50)
    .describe(`Page size, at most ${FINDINGS_PAGE_MAX}, by default 50.`),
};

export const MonitorFindingsQuery = z.strictObject(PageFields);
export type MonitorFindingsQuery = z.infer<typeof MonitorFindingsQuery>;

export const FindingsQuery = z.strictObject({
  ...PageFields,
  conversation_id: ConversationId.optional().describe("Only this conversation's findings."),
});
export type FindingsQuery = z.infer<typeof FindingsQuery>;

export const MonitorFindingPage = z.object({
  findings: z.array(MonitorFinding).describe('Newest first.'),
  next: z
    .string()
    .nullable()
    .describe('Pass as after for the next (older) page: the last finding of this page, or the after sent when empty.'),
  has_more: z.boolean().describe('Whether older findings follow.'),
});
export type MonitorFindingPage = z.infer<typeof MonitorFindingPage>;
