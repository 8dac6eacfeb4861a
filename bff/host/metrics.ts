/**
 * The BFF's numbers for operators, in Prometheus's text format (`GET /metrics`, behind
 * METRICS_TOKEN). Counters and a latency histogram are kept as things happen; gauges (queue depth,
 * sockets, webhook backlog) are read when scraped. Label values are few and chosen here, never
 * taken from a request, so the series stay few.
 */
import { engineFetch, type EngineFetch } from '../engine-link/engine-client.ts';

type Labels = Record<string, string>;

const labelText = (labels: Labels): string => {
  const pairs = Object.entries(labels);
  return pairs.length === 0
    ? ''
    : `{${pairs.map(([name, value]) => `${name}="${value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`))}"`).join(',')}}`;
};

class Counter {
  readonly #values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = labelText(labels);
    this.#values.set(key, (this.#values.get(key) ?? 0) + by);
  }

  lines(): string[] {
    return [
      `# HELP ${this.name} ${this.help}`,
      `# TYPE ${this.name} counter`,
      ...[...this.#values].map(([labels, value]) => `${this.name}${labels} ${value}`),
    ];
  }
}

/** Seconds; buckets from a millisecond to half a minute (an engine call that waits on an LLM is slow). */
const LATENCY_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

class Histogram {
  readonly #series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  observe(labels: Labels, seconds: number): void {
    const key = labelText(labels);
    let series = this.#series.get(key);
    if (!series) this.#series.set(key, (series = { labels, counts: LATENCY_BUCKETS_S.map(() => 0), sum: 0, count: 0 }));
    LATENCY_BUCKETS_S.forEach((bound, index) => {
      if (seconds <= bound) series.counts[index]! += 1;
    });
    series.sum += seconds;
    series.count += 1;
  }

  lines(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      LATENCY_BUCKETS_S.forEach((bound, index) =>
        lines.push(`${this.name}_bucket${labelText({ ...labels, le: String(bound) })} ${counts[index]}`),
      );
      lines.push(
        `${this.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${count}`,
        `${this.name}_sum${labelText(labels)} ${sum}`,
        `${this.name}_count${labelText(labels)} ${count}`,
      );
    }
    return lines;
  }
}

/** A gauge read when scraped: one value per label set. */
export interface GaugeReading {
  name: string;
  help: string;
  values: { labels?: Labels; value: number }[];
}

/** An engine call's path with its ids taken out, so that each kind of call is one series. */
export const callName = (method: string, url: string): string => {
  const path = new URL(url, 'http://engine').pathname.replace(/\/(cnv|evt|key|whe|whd|acc)_[A-Za-z0-9]+/g, '/{id}');
  return `${method} ${path}`;
};

export class Metrics {
  readonly messages = new Counter(
    'parley_messages_total',
    'Messages stored by the BFF, by direction (in: from customers; out: to customers, from the AI or people).',
  );
  readonly refusals = new Counter(
    'parley_rate_limited_total',
    'Requests and socket commands refused by a rate limit, by surface.',
  );
  readonly responses = new Counter('parley_http_responses_total', 'HTTP answers of the BFF, by status class.');
  readonly engineCalls = new Histogram(
    'parley_engine_call_seconds',
    'Time of each call to the engine, by call and outcome.',
  );
  readonly #gauges: (() => Promise<GaugeReading[]> | GaugeReading[])[] = [];

  /** Adds gauges read at every scrape (a query, a socket count). */
  gauge(read: () => Promise<GaugeReading[]> | GaugeReading[]): void {
    this.#gauges.push(read);
  }

  /** The EngineClient's own way of calling (`engineFetch`), timing every call into `parley_engine_call_seconds` (give it to the EngineClient). */
  readonly timedFetch: EngineFetch = async (url, request) => {
    const started = performance.now();
    const call = callName(request.method, url);
    try {
      const response = await engineFetch(url, request);
      this.engineCalls.observe(
        { call, outcome: response.ok ? 'ok' : String(response.status) },
        (performance.now() - started) / 1000,
      );
      return response;
    } catch (error) {
      this.engineCalls.observe({ call, outcome: 'unreachable' }, (performance.now() - started) / 1000);
      throw error;
    }
  };

  /** The text a Prometheus scrape reads. */
  async render(): Promise<string> {
    const lines = [
      ...this.messages.lines(),
      ...this.refusals.lines(),
      ...this.responses.lines(),
      ...this.engineCalls.lines(),
    ];
    for (const read of this.#gauges) {
      for (const gauge of await read()) {
        lines.push(
          `# HELP ${gauge.name} ${gauge.help}`,
          `# TYPE ${gauge.name} gauge`,
          ...gauge.values.map(({ labels = {}, value }) => `${gauge.name}${labelText(labels)} ${value}`),
        );
      }
    }
    return `${lines.join('\n')}\n`;
  }
}
