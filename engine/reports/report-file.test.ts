import { describe, expect, it } from 'vitest';
import type { ReportRecord } from '../../shared/index.ts';
import { csvCell, reportFile, toCsv } from './report-file.ts';

describe('report files', () => {
  it('quotes cells with commas, quotes and line breaks, and leaves plain ones bare', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('she said "hi"')).toBe('"she said ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(-12)).toBe('-12');
  });

  it('opens text a spreadsheet would run as a formula with an apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('fine = good')).toBe('fine = good');
  });

  it('writes a header and one CRLF-ended line per row, in the columns’ order', () => {
    const csv = toCsv({
      columns: ['id', 'comment', 'rating'],
      rows: [
        { rating: 5, id: 'cnv_1', comment: 'Great, thanks' },
        { id: 'cnv_2', comment: null, rating: 1 },
      ],
    });
    expect(csv).toBe('id,comment,rating\r\ncnv_1,"Great, thanks",5\r\ncnv_2,,1\r\n');
  });

  it('names the download by kind, first day and id', () => {
    const record: ReportRecord = {
      id: 'rpt_x',
      kind: 'csat',
      format: 'csv',
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-04-01T00:00:00.000Z',
      status: 'ready',
      rows: 1,
      failure_reason: null,
      created_at: '2026-04-02T00:00:00.000Z',
      finished_at: '2026-04-02T00:00:00.000Z',
      expires_at: '2026-04-09T00:00:00.000Z',
    };
    expect(reportFile(record)).toEqual({
      contentType: 'text/csv; charset=utf-8',
      fileName: 'csat-2026-03-01-rpt_x.csv',
    });
  });
});
