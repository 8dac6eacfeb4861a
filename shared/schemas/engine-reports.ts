import { z } from 'zod';

/** Reports, usage and survey answers of the AI conversation API (`/v1/reports`, `/v1/usage`, `…/survey`). */

/** A day (`2026-01-31`) or an instant with its offset (`2026-01-31T12:00:00Z`, `…+02:00`). */
const ReportBound = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const ReportSummaryQuery = z.strictObject({
  from: ReportBound.optional().describe(
    'Start (inclusive): a day (its 00:00 UTC) or an instant with its offset. Default: 30 days before to.',
  ),
  to: ReportBound.optional().describe(
    'End: a day counts whole (up to the next day’s 00:00 UTC), an instant is exclusive. Default: now. At most 366 days after from.',
  ),
});
export type ReportSummaryQuery = z.infer<typeof ReportSummaryQuery>;

export const ReportSummary = z.object({
  from: z.string().describe('The period’s start (inclusive), as read.'),
  to: z.string().describe('The period’s end (exclusive), as read.'),
  conversations: z.object({
    opened: z.number().int().describe('Conversations opened in the period; the three counts below are of these.'),
    answered_by_ai: z
      .number()
      .int()
      .describe(
        '…in which the AI gave at least one answer (from the knowledge base or an action’s result; a “not sure”, a greeting or a hand-over notice is no answer).',
      ),
    handed_over: z.number().int().describe('…handed to people at least once.'),
    resolved: z.number().int().describe('…closed as resolved.'),
  }),
  csat: z.object({
    responses: z
      .number()
      .int()
      .describe('Survey answers first given in the period (a changed answer counts once, with its latest rating).'),
    average: z.number().nullable().describe('Their average rating, 1–5; null without answers.'),
  }),
  answer_feedback: z.object({
    yes: z.number().int().describe('“Did that help?” answered yes in the period.'),
    no: z.number().int(),
    helpful_rate: z.number().nullable().describe('yes / (yes + no), 0–1; null without answers.'),
  }),
  first_answer_ms: z.object({
    measured: z
      .number()
      .int()
      .describe(
        'Conversations opened in the period whose first customer message got a reply (the AI’s or a person’s).',
      ),
    p50: z.number().nullable().describe('Median milliseconds from the first customer message to that reply.'),
    p95: z.number().nullable(),
  }),
});
export type ReportSummary = z.infer<typeof ReportSummary>;

export const UsageResponse = z.object({
  month: z.string().describe('The month counted, UTC, e.g. 2026-01.'),
  month_name: z.string().describe('Its name, e.g. January 2026.'),
  period: z
    .object({ from: z.string(), to: z.string() })
    .describe('The month’s first instant and the next month’s (exclusive).'),
  conversations: z.number().int().describe('Conversations opened this month.'),
  messages: z.object({
    customer: z.number().int().describe('Customer messages taken this month.'),
    ai: z.number().int().describe('Replies the AI gave this month.'),
    human: z.number().int().describe('People’s answers relayed this month.'),
  }),
  llm: z.object({
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
    total_tokens: z.number().int(),
    requests: z.number().int().describe('Calls to the model.'),
  }),
  media: z.object({ uploads: z.number().int(), bytes: z.number().int() }),
  limits: z.object({ requests_per_minute: z.number().int() }),
});
export type UsageResponse = z.infer<typeof UsageResponse>;

export const SurveyResponseRequest = z.strictObject({
  rating: z.number().int().min(1).max(5).describe('1 (bad) to 5 (very good).'),
  comment: z.string().trim().max(2000).optional().describe('What the customer wrote with it.'),
});
export type SurveyResponseRequest = z.infer<typeof SurveyResponseRequest>;

export const SurveyResponseRecord = z.object({
  conversation_id: z.string(),
  customer_ref: z.string(),
  rating: z.number().int(),
  comment: z.string().nullable(),
  created_at: z.string().describe('When the customer first answered.'),
  updated_at: z.string().describe('When the answer last changed.'),
});
export type SurveyResponseRecord = z.infer<typeof SurveyResponseRecord>;

/** What a report that arrives later (`POST /v1/reports`) can gather. */
export const REPORT_KINDS = ['conversations', 'quality', 'csat', 'monitors', 'interviews'] as const;
export const ReportKind = z.enum(REPORT_KINDS);
export type ReportKind = z.infer<typeof ReportKind>;

export const CreateReportRequest = z.strictObject({
  kind: ReportKind.describe(
    'conversations (one row per conversation opened in the period), quality (the quality score of each conversation closed in it, with its reasons), csat (survey answers first given in it), monitors (findings per monitor and severity per UTC day), interviews (one row per answer of each interview response that ended in it).',
  ),
  from: ReportBound.describe('Start (inclusive): a day (its 00:00 UTC) or an instant with its offset.'),
  to: ReportBound.describe(
    'End: a day counts whole (up to the next day’s 00:00 UTC), an instant is exclusive. At most 366 days after from.',
  ),
  format: z.enum(['csv', 'json']).default('csv').describe('csv (RFC 4180, UTF-8) or json; csv by default.'),
});
export type CreateReportRequest = z.infer<typeof CreateReportRequest>;

export const ReportParams = z.strictObject({ id: z.string().regex(/^rpt_[0-9A-Za-z]{16,64}$/, 'a report id (rpt_…)') });

/**
 * A report's record: `pending` when asked for, `running` while the engine gathers it, then `ready`
 * (its rows, and the file at `/v1/reports/{id}/content`, with a `report.ready` event) or `failed`
 * (with the reason).
 */
export const ReportRecord = z.object({
  id: z.string(),
  kind: ReportKind,
  format: z.enum(['csv', 'json']),
  from: z.string().describe('The period’s start (inclusive), as read.'),
  to: z.string().describe('The period’s end (exclusive), as read.'),
  status: z.enum(['pending', 'running', 'ready', 'failed']),
  rows: z.number().int().nullable().describe('Rows in the file once ready.'),
  failure_reason: z.string().nullable().describe('Why it failed, when it did.'),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  expires_at: z.string().describe('When the report and its file are deleted.'),
});
export type ReportRecord = z.infer<typeof ReportRecord>;

const Percentiles = z.object({
  p50: z.number().nullable().describe('Median milliseconds; null when nothing was measured that day.'),
  p95: z.number().nullable(),
});

/** One UTC day of `GET /v1/reports/daily`: what the console draws its charts from. */
export const ReportDay = z.object({
  day: z.string().describe('The UTC day, e.g. 2026-03-10.'),
  opened: z
    .number()
    .int()
    .describe('Conversations opened that day; the three counts below and both times are of these.'),
  answered_by_ai: z.number().int(),
  handed_over: z.number().int(),
  resolved: z.number().int(),
  first_answer_ms: Percentiles.describe('From the first customer message to the first reply (the AI’s or a person’s).'),
  handover_wait_ms: Percentiles.describe('From the first handover to the first answer of a person.'),
  csat: z.object({
    responses: z.number().int().describe('Survey answers first given that day.'),
    average: z.number().nullable(),
  }),
});
export type ReportDay = z.infer<typeof ReportDay>;

export const ReportDays = z.object({
  from: z.string().describe('The first day’s 00:00 UTC.'),
  to: z.string().describe('The day after the last day, 00:00 UTC (exclusive).'),
  days: z.array(ReportDay).describe('Every day of the period, oldest first, quiet days too.'),
});
export type ReportDays = z.infer<typeof ReportDays>;
