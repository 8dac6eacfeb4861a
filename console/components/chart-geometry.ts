/**
 * The arithmetic of the Reports page's charts, apart from their drawing so that it can be tested:
 * a value axis with round ticks, and where bars and line points go in a plot of a given size.
 */

/** The plot's size in SVG units, and the room kept for the axis labels. */
export const PLOT = { width: 360, height: 170, left: 46, bottom: 20, top: 8, right: 8 } as const;

/** A round step (1, 2 or 5 times a power of ten) that splits `max` into about `count` parts. */
export function niceStep(max: number, count = 4): number {
  if (!(max > 0)) return 1;
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!;
  return step;
}

/** The axis for values up to `max`: its top (a whole number of steps) and its ticks from 0. */
export function valueAxis(max: number, count = 4): { top: number; ticks: number[] } {
  const step = niceStep(max, count);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let tick = 0; tick <= top + step / 2; tick += step) ticks.push(Math.round(tick * 1e6) / 1e6);
  return { top, ticks };
}

/** The y of `value` on an axis up to `top` (0 at the bottom of the plot). */
export function yOf(value: number, top: number): number {
  const inner = PLOT.height - PLOT.top - PLOT.bottom;
  return PLOT.top + inner - (Math.min(value, top) / top) * inner;
}

/** The x band of the `index`-th of `count` days: where it starts and how wide it is. */
export function band(index: number, count: number): { x: number; width: number } {
  const width = (PLOT.width - PLOT.left - PLOT.right) / Math.max(count, 1);
  return { x: PLOT.left + index * width, width };
}

/**
 * A line through the values of each day, as SVG path data; a day without a value (null) breaks
 * the line rather than drawing it to zero.
 */
export function linePath(values: readonly (number | null)[], top: number): string {
  let path = '';
  let drawing = false;
  values.forEach((value, index) => {
    if (value === null) {
      drawing = false;
      return;
    }
    const { x, width } = band(index, values.length);
    path += `${drawing ? 'L' : 'M'}${round(x + width / 2)} ${round(yOf(value, top))}`;
    drawing = true;
  });
  return path;
}

/** The points of the days with a value, where a line's markers go. */
export function points(values: readonly (number | null)[], top: number): { x: number; y: number }[] {
  return values.flatMap((value, index) => {
    if (value === null) return [];
    const { x, width } = band(index, values.length);
    return [{ x: round(x + width / 2), y: round(yOf(value, top)) }];
  });
}

const round = (value: number) => Math.round(value * 10) / 10;

/** Milliseconds as people read them: 850 ms, 12 s, 3.5 min, 2.1 h. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 6_000) / 10} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}

/** A row of the monitors report (`kind: monitors`): one monitor's findings of one severity on one day. */
export interface MonitorReportRow {
  monitor_id: string;
  monitor_name: string;
  severity: string;
  findings: number;
}

/** One monitor's findings of the period, by severity, for the "findings per monitor" chart. */
export interface MonitorFindings {
  id: string;
  name: string;
  high: number;
  medium: number;
  low: number;
  total: number;
}

export const SEVERITIES = ['high', 'medium', 'low'] as const;

/**
 * The monitors report's rows (per day, monitor and severity) added up per monitor, most findings
 * first (then by name); a monitor renamed in the period shows under its latest name.
 */
export function findingsPerMonitor(rows: readonly MonitorReportRow[]): MonitorFindings[] {
  const monitors = new Map<string, MonitorFindings>();
  for (const row of rows) {
    const monitor = monitors.get(row.monitor_id) ?? {
      id: row.monitor_id,
      name: row.monitor_name,
      high: 0,
      medium: 0,
      low: 0,
      total: 0,
    };
    monitor.name = row.monitor_name;
    if (row.severity === 'high' || row.severity === 'medium' || row.severity === 'low')
      monitor[row.severity] += row.findings;
    monitor.total += row.findings;
    monitors.set(row.monitor_id, monitor);
  }
  return [...monitors.values()].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
}

/** The horizontal bar chart's size: a row per monitor, its name on the left, its count after the bar. */
export const ROWS = { width: 360, label: 120, right: 34, row: 24, bar: 14, top: 6 } as const;

/** The chart's height for `count` rows (at least one row's room, for the "none" line). */
export function rowsHeight(count: number): number {
  return ROWS.top * 2 + Math.max(count, 1) * ROWS.row;
}

/**
 * Where the parts of one row's bar go, left to right, on a scale up to `top`: each part's x and
 * width (a part of 0 has no width).
 */
export function stackedRow(parts: readonly number[], top: number): { x: number; width: number }[] {
  const inner = ROWS.width - ROWS.label - ROWS.right;
  let x = ROWS.label;
  return parts.map((part) => {
    const width = round(top > 0 ? (Math.max(part, 0) / top) * inner : 0);
    const placed = { x: round(x), width };
    x += width;
    return placed;
  });
}
