import { performance } from 'node:perf_hooks';
import { DRIVERS, request, startEngine, type Driver } from '../test/stack.ts';

/**
 * `npm run bench:engine`: messages per second and latency of open + message on one engine process,
 * over real HTTP on loopback, with PGlite and with PostgreSQL. Numbers, not a pass/fail test.
 */
const CONVERSATIONS = Number(process.env['BENCH_CONVERSATIONS'] ?? 300);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 8);
const QUESTIONS = [
  'How do I return an item?',
  'How long does delivery take?',
  'Which payment methods do you accept?',
  'Do you ship abroad?',
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(driver: Driver): Promise<string> {
  const engine = await startEngine(driver);
  try {
    const post = async (path: string, body: unknown) => {
      const response = await request(engine.url + path, { token: engine.apiKey, body });
      if (response.status >= 300)
        throw new Error(`${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
      return response.body;
    };
    // Warm up: the knowledge base is built on first use, and connections open.
    for (let index = 0; index < 10; index++) {
      const { id } = await post('/v1/conversations', { customer_ref: `warm-${index}` });
      await post(`/v1/conversations/${id}/messages`, { text: QUESTIONS[index % QUESTIONS.length] });
    }
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CONVERSATIONS) {
          const index = next++;
          const begin = performance.now();
          const { id } = await post('/v1/conversations', { customer_ref: `bench-${index}` });
          await post(`/v1/conversations/${id}/messages`, {
            text: QUESTIONS[index % QUESTIONS.length],
            message_id: `m-${index}`,
          });
          latencies.push(performance.now() - begin);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return `${driver.name.padEnd(10)} ${String(CONVERSATIONS).padStart(6)} ${(CONVERSATIONS / seconds).toFixed(1).padStart(12)} ${percentile(latencies, 50).toFixed(1).padStart(10)} ${percentile(latencies, 99).toFixed(1).padStart(10)}`;
  } finally {
    await engine.stop();
  }
}

process.stdout.write(`Engine: open + one message, ${CONCURRENCY} at a time, over HTTP on loopback\n`);
process.stdout.write(
  `${'store'.padEnd(10)} ${'convs'.padStart(6)} ${'messages/s'.padStart(12)} ${'p50 ms'.padStart(10)} ${'p99 ms'.padStart(10)}\n`,
);
for (const driver of DRIVERS) {
  try {
    process.stdout.write(`${await run(driver)}\n`);
  } catch (error) {
    process.stdout.write(`${driver.name.padEnd(10)} could not run: ${(error as Error).message}\n`);
  }
}
