import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

/** Whose rows a report gathers. */
export type Owner = Pick<Caller, 'accountId' | 'environment'>;

/** One cell of a report: what a CSV cell or a JSON value can hold. */
export type ReportCell = string | number | boolean | null | readonly unknown[];

/** A report's rows, each with the same columns in the same order. */
export interface ReportTable {
  columns: readonly string[];
  rows: Record<string, ReportCell>[];
}

/** What one kind gathers: the owner's rows of `[from, to)`, at most `limit` of them (the caller asks for one more than it keeps). */
export type Gather = (db: Queryable, owner: Owner, from: Date, to: Date, limit: number) => Promise<ReportTable>;
