import { describe, expect, it } from 'vitest';
import {
  band,
  duration,
  findingsPerMonitor,
  linePath,
  niceStep,
  PLOT,
  points,
  ROWS,
  rowsHeight,
  stackedRow,
  valueAxis,
  yOf,
} from './chart-geometry.ts';

describe("the Reports page's chart arithmetic", () => {
  it('picks round steps and an axis top that holds the largest value', () => {
    expect(niceStep(10)).toBe(5);
    expect(niceStep(7)).toBe(2);
    expect(niceStep(0.9)).toBe(0.5);
    expect(niceStep(0)).toBe(1);
    expect(valueAxis(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(valueAxis(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(valueAxis(5, 4)).toEqual({ top: 6, ticks: [0, 2, 4, 6] });
  });

  it('puts 0 at the bottom of the plot and the top value at its top, never above', () => {
    expect(yOf(0, 10)).toBe(PLOT.height - PLOT.bottom);
    expect(yOf(10, 10)).toBe(PLOT.top);
    expect(yOf(20, 10)).toBe(PLOT.top);
  });

  it('splits the width into one band per day', () => {
    const first = band(0, 4);
    const last = band(3, 4);
    expect(first.x).toBe(PLOT.left);
    expect(last.x + last.width).toBeCloseTo(PLOT.width - PLOT.right);
  });

  it('draws a line through the days with a value and breaks it at days without one', () => {
    const path = linePath([1, 2, null, 4], 4);
    expect(path.match(/M/g)).toHaveLength(2);
    expect(path.match(/L/g)).toHaveLength(1);
    expect(linePath([null, null], 4)).toBe('');
  });

  it('marks each day with a value, so that a lone day shows too', () => {
    expect(points([null, 3, null], 6)).toEqual([{ x: band(1, 3).x + band(1, 3).width / 2, y: yOf(3, 6) }]);
  });

  it('writes durations as people read them', () => {
    expect(duration(850)).toBe('850 ms');
    expect(duration(12_340)).toBe('12.3 s');
    expect(duration(210_000)).toBe('3.5 min');
    expect(duration(7_560_000)).toBe('2.1 h');
  });

  it('adds up the monitors report per monitor and severity, most findings first', () => {
    const row = (day: string, id: string, name: string, severity: string, findings: number) => ({
      day,
      monitor_id: id,
      monitor_name: name,
      severity,
      findings,
      conversations: 1,
    });
    const monitors = findingsPerMonitor([
      row('2026-03-01', 'mon_a', 'Lawyer', 'high', 2),
      row('2026-03-01', 'mon_b', 'Guarantee', 'medium', 1),
      row('2026-03-02', 'mon_a', 'Lawyer or chargeback', 'high', 1),
      row('2026-03-02', 'mon_a', 'Lawyer or chargeback', 'low', 4),
      row('2026-03-02', 'mon_c', 'Angry', 'medium', 1),
    ]);
    expect(monitors).toEqual([
      { id: 'mon_a', name: 'Lawyer or chargeback', high: 3, medium: 0, low: 4, total: 7 },
      { id: 'mon_c', name: 'Angry', high: 0, medium: 1, low: 0, total: 1 },
      { id: 'mon_b', name: 'Guarantee', high: 0, medium: 1, low: 0, total: 1 },
    ]);
    expect(findingsPerMonitor([])).toEqual([]);
  });

  it('lays a row of parts end to end from the label, the largest total filling the room', () => {
    const [high, medium, low] = stackedRow([3, 0, 1], 4);
    expect(high!.x).toBe(ROWS.label);
    expect(medium).toEqual({ x: high!.x + high!.width, width: 0 });
    expect(low!.x + low!.width).toBeCloseTo(ROWS.width - ROWS.right, 0);
    expect(stackedRow([0], 0)).toEqual([{ x: ROWS.label, width: 0 }]);
    expect(rowsHeight(0)).toBe(rowsHeight(1));
    expect(rowsHeight(3)).toBe(ROWS.top * 2 + 3 * ROWS.row);
  });
});
