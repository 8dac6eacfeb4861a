import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { connectWidget, newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { WIDGET_REQUESTS_PER_MINUTE } from './app.ts';

const TOKEN = 'metrics-token-for-the-tests-0123';

/** One value of a scrape: the sample line of `series` (name and labels exactly as written). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let stack: TestStack;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    stack = await startStack(undefined, { METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
  });
  const scrape = () => request(`${stack.url}/metrics`, { token: TOKEN });

  it('refuses a scrape without the token, or with another, with 401 and shows nothing', async () => {
    for (const token of [undefined, 'metrics-token-for-the-tests-0124', 'x']) {
      const refused = await request(`${stack.url}/metrics`, token === undefined ? {} : { token });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('unauthorized');
      expect(JSON.stringify(refused.body)).not.toContain('parley_');
    }
  });

  it('counts messages in and out, times the engine calls, and reads the queue, the webhook backlog and the sockets when scraped', async () => {
    const { token } = await newVisitor(stack.url);
    const conversation = await openWidgetConversation(stack.url, token);
    const tab = await connectWidget(stack.url, token);
    sockets.push(tab.socket);
    const before = (await scrape()).body as string;
    expect(sample(before, 'parley_sockets{namespace="/widget"}')).toBeGreaterThanOrEqual(1);

    expect(
      (await sendWidgetMessage(stack.url, token, conversation.id, 'How do I return an item?', 'metrics-1')).status,
    ).toBe(201);
    await until(
      () => tab.received.filter((message) => message.author === 'ai'),
      (answers) => answers.length === 1,
      'the answer',
    );
    const after = await scrape();
    expect(after.status).toBe(200);
    expect(after.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = after.body as string;
    const delta = (series: string) => (sample(text, series) ?? 0) - (sample(before, series) ?? 0);
    expect(delta('parley_messages_total{direction="in"}')).toBe(1);
    expect(delta('parley_messages_total{direction="out"}')).toBe(1);
    expect(
      sample(text, 'parley_engine_call_seconds_count{call="POST /v1/conversations/{id}/messages",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'parley_relay_queue_depth')).toBe(0);
    expect(sample(text, 'parley_webhook_backlog')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE parley_engine_call_seconds histogram');
  });

  it('counts each request a rate limit refused', async () => {
    const { token } = await newVisitor(stack.url);
    const statuses: number[] = [];
    // Limits count in clock-minute windows: a boundary among these requests may let up to twice
    // the limit through, so one more than that, sent within a minute, must meet a refusal.
    for (let index = 0; index < 2 * WIDGET_REQUESTS_PER_MINUTE + 1; index += 1)
      statuses.push((await request(`${stack.url}/v1/widget/config`, { token })).status);
    const refused = statuses.filter((status) => status === 429).length;
    expect(refused).toBeGreaterThan(0);
    const text = (await scrape()).body as string;
    expect(sample(text, 'parley_rate_limited_total{surface="http"}')).toBe(refused);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('is off: 404, as an unknown path, whatever is sent', async () => {
    for (const options of [{}, { token: TOKEN }])
      expect((await request(`${stack.url}/metrics`, options)).status).toBe(404);
  });
});
