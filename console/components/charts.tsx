import { band, linePath, PLOT, points, valueAxis, yOf } from './chart-geometry.ts';

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

function Figure<V>({ id, title, summary, series, children }: ChartProps<V> & { children: preact.ComponentChildren }) {
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${PLOT.width} ${PLOT.height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
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
