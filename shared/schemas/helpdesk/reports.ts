import { z } from 'zod';
import { CreateReportRequest, ReportSummaryQuery } from '../engine-reports.ts';
import { IdParam } from './fields.ts';

/**
 * The console's reports (administrators): figures by day for its charts, and reports that arrive
 * later, asked for and downloaded through the BFF from the account's engine account.
 */
const Environment = z
  .enum(['live', 'sandbox'])
  .default('live')
  .describe('Whose conversations: live customers (the default) or sandbox ones.');

export const ReportFiguresQuery = ReportSummaryQuery.extend({ environment: Environment });
export type ReportFiguresQuery = z.infer<typeof ReportFiguresQuery>;

export const DeskReportRequest = CreateReportRequest.extend({ environment: Environment });
export type DeskReportRequest = z.infer<typeof DeskReportRequest>;

export const DeskReportParams = z.strictObject({
  account_id: IdParam,
  id: z.string().regex(/^rpt_[0-9A-Za-z]{16,64}$/, 'a report id (rpt_…)'),
});

export const DeskReportQuery = z.strictObject({ environment: Environment });
