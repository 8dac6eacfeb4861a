import type { ReportRecord } from '../../shared/index.ts';
import type { ReportCell, ReportTable } from '../store/report-table.ts';

/**
 * A cell as CSV text (RFC 4180). A cell that a spreadsheet would read as a formula (it starts with
 * =, +, -, @, a tab or a carriage return) is opened with an apostrophe, so that a customer's words
 * in a report never run in the reader's spreadsheet (OWASP "CSV injection"); a negative number is
 * a number, not a formula, and stays as it is. Cells with a comma, a quote or a line break are quoted.
 */
export function csvCell(value: ReportCell): string {
  if (value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The table as CSV: a header line, then one line per row, lines ended by CRLF (RFC 4180). */
export function toCsv({ columns, rows }: ReportTable): string {
  const lines = [columns.map((column) => csvCell(column))];
  for (const row of rows) lines.push(columns.map((column) => csvCell(row[column] ?? null)));
  return lines.map((cells) => `${cells.join(',')}\r\n`).join('');
}

/** The table as a JSON document that names what it holds. */
export function toJson(record: ReportRecord, table: ReportTable): string {
  return JSON.stringify({ id: record.id, kind: record.kind, from: record.from, to: record.to, rows: table.rows });
}

/** The file's type and name for its download, e.g. `conversations-2026-03-01-rpt_….csv`. */
export function reportFile(record: ReportRecord): { contentType: string; fileName: string } {
  const day = record.from.slice(0, 10);
  return record.format === 'csv'
    ? { contentType: 'text/csv; charset=utf-8', fileName: `${record.kind}-${day}-${record.id}.csv` }
    : { contentType: 'application/json; charset=utf-8', fileName: `${record.kind}-${day}-${record.id}.json` };
}
