import {
  band,
  linePath,
  PLOT,
  points,
  ROWS,
  rowsHeight,
  SEVERITIES,
  stackedRow,
  valueAxis,
  yOf,
  type MonitorFindings,
} from './chart-geometry.ts';

/** One series of a chart: its name in the legend, its colour (a class of the reports sheet), a value per day. */
export interface Series<V> {
  name: string;
  tone: 'one' | 'two' | 'three';
  values: readonly V[];
}

interface ChartProps<V> {
  id: string;
  title: string;
  /** What the chart shows, in words, for people who cannot see it (the SVG's desc). */
  summary: string;
  days: readonly string[];
  series: readonly Series<V>[];
  format?: (value: number) => string;
  /** The value axis reaches at least this far (a rating's 5; a second for an empty time chart). */
  least?: number;
}

/** The value axis (ticks and their labels) and a few day labels under the plot. */
function Axes({
  days,
  axis: { top, ticks },
  format,
}: {
  days: readonly string[];
  axis: { top: number; ticks: number[] };
  format: (value: number) => string;
}) {
  const labelled = days.length <= 1 ? [0] : [0, Math.floor((days.length - 1) / 2), days.length - 1];
  return (
    <g class="axes" aria-hidden="true">
      {ticks.map((tick) => (
        <g key={tick}>
          <line x1={PLOT.left} x2={PLOT.width - PLOT.right} y1={yOf(tick, top)} y2={yOf(tick, top)} />
          <text x={PLOT.left - 4} y={yOf(tick, top) + 4} text-anchor="end">
            {format(tick)}
          </text>
        </g>
      ))}
      {[...new Set(labelled)].map((index) => {
        const { x, width } = band(index, days.length);
        return (
          <text key={index} x={x + width / 2} y={PLOT.height - 6} text-anchor="middle">
            {days[index]?.slice(5)}
          </text>
        );
      })}
    </g>
  );
}

function Figure({
  id,
  title,
  summary,
  series,
  children,
  size = PLOT,
}: Pick<ChartProps<unknown>, 'id' | 'title' | 'summary'> & {
  series: readonly Pick<Series<unknown>, 'name' | 'tone'>[];
  children: preact.ComponentChildren;
  size?: { width: number; height: number };
}) {
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${size.width} ${size.height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {children}
      </svg>
      <figcaption>
        <strong>{title}</strong>
        <span class="legend">
          {series.map((line) => (
            <span key={line.name} class={`key ${line.tone}`}>
              {line.name}
            </span>
          ))}
        </span>
      </figcaption>
    </figure>
  );
}

/** Counts per day as grouped bars, one bar per series. */
export function BarChart(props: ChartProps<number>) {
  const format = props.format ?? String;
  const axis = valueAxis(Math.max(props.least ?? 0, ...props.series.flatMap((line) => line.values)));
  const { top } = axis;
  return (
    <Figure {...props}>
      <Axes days={props.days} axis={axis} format={format} />
      {props.days.map((day, index) => {
        const { x, width } = band(index, props.days.length);
        const bar = (width * 0.8) / props.series.length;
        return (
          <g key={day}>
            {props.series.map((line, which) => {
              const value = line.values[index] ?? 0;
              const y = yOf(value, top);
              return (
                <rect
                  key={line.name}
                  class={`bar ${line.tone}`}
                  x={x + width * 0.1 + which * bar}
                  y={y}
                  width={Math.max(bar - 0.5, 0.5)}
                  height={yOf(0, top) - y}
                />
              );
            })}
          </g>
        );
      })}
    </Figure>
  );
}

/** Values per day as lines; a day without a value leaves a gap. */
export function LineChart(props: ChartProps<number | null>) {
  const format = props.format ?? String;
  const measured = props.series.flatMap((line) => line.values).filter((value): value is number => value !== null);
  const axis = valueAxis(Math.max(props.least ?? 0, ...measured));
  return (
    <Figure {...props}>
      <Axes days={props.days} axis={axis} format={format} />
      {props.series.map((line) => (
        <g key={line.name} class={`line ${line.tone}`}>
          <path d={linePath(line.values, axis.top)} />
          {points(line.values, axis.top).map(({ x, y }) => (
            <circle key={x} cx={x} cy={y} r={2.5} />
          ))}
        </g>
      ))}
    </Figure>
  );
}

const SEVERITY_TONES = { high: 'two', medium: 'one', low: 'three' } as const;

/**
 * Findings per monitor as horizontal bars, one row per monitor (its name on the left, its total
 * after the bar), each bar split by severity.
 */
export function MonitorChart({
  id,
  title,
  summary,
  monitors,
}: {
  id: string;
  title: string;
  summary: string;
  monitors: readonly MonitorFindings[];
}) {
  const top = Math.max(0, ...monitors.map((monitor) => monitor.total));
  const series = SEVERITIES.map((severity) => ({ name: severity, tone: SEVERITY_TONES[severity] }));
  return (
    <Figure
      id={id}
      title={title}
      summary={summary}
      series={series}
      size={{ width: ROWS.width, height: rowsHeight(monitors.length) }}
    >
      <g class="axes" aria-hidden="true">
        {monitors.length === 0 && (
          <text x={ROWS.width / 2} y={ROWS.top + ROWS.row / 2 + 4} text-anchor="middle">
            No findings in this period
          </text>
        )}
        {monitors.map((monitor, index) => {
          const y = ROWS.top + index * ROWS.row;
          const parts = stackedRow(
            SEVERITIES.map((severity) => monitor[severity]),
            top,
          );
          const end = parts.at(-1)!;
          return (
            <g key={monitor.id}>
              <text x={ROWS.label - 6} y={y + ROWS.row / 2 + 4} text-anchor="end">
                {monitor.name.length > 22 ? `${monitor.name.slice(0, 21)}…` : monitor.name}
              </text>
              {parts.map((part, which) => (
                <rect
                  key={SEVERITIES[which]}
                  class={`bar ${SEVERITY_TONES[SEVERITIES[which]!]}`}
                  x={part.x}
                  y={y + (ROWS.row - ROWS.bar) / 2}
                  width={part.width}
                  height={ROWS.bar}
                />
              ))}
              <text x={end.x + end.width + 4} y={y + ROWS.row / 2 + 4}>
                {monitor.total}
              </text>
            </g>
          );
        })}
      </g>
    </Figure>
  );
}
