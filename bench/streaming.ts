import { io } from 'socket.io-client';
import { WIDGET_NAMESPACE, type WidgetClientEvents, type WidgetServerEvents } from '../shared/index.ts';
import type { Socket } from 'socket.io-client';
import { fakeModel } from '../test/fake-llm.ts';
import { startStack } from '../test/stack.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../test/widget-client.ts';

/**
 * `npm run bench:stream`: how long a customer waits for a reply an LLM writes, through the whole
 * stack (the widget's socket ← BFF ← engine ← model), against the model's own times in the same
 * run. The model is an OpenAI-compatible server written for the tests (a real model cannot run
 * here), writing 10 pieces 30 ms apart. Numbers, not a pass/fail test. BENCH_REPLIES (30).
 */
const REPLIES = Number(process.env['BENCH_REPLIES'] ?? 30);
const PIECES = Array.from({ length: 10 }, (_, index) => `piece ${index + 1} of the reply, `);

const model = fakeModel();
const baseUrl = await model.start();
const stack = await startStack(undefined, { LLM_BASE_URL: baseUrl, LLM_MODEL: 'bench-model' });
const samples: { modelFirst: number; modelLast: number; firstPiece: number; whole: number }[] = [];
try {
  for (let round = 0; round < REPLIES; round++) {
    let asked = 0;
    model.answer(() => {
      asked = performance.now();
      return { pieces: PIECES };
    });
    const visitor = await newVisitor(stack.url, stack.siteKey);
    const conversation = await openWidgetConversation(stack.url, visitor.token);
    const socket: Socket<WidgetServerEvents, WidgetClientEvents> = io(stack.url + WIDGET_NAMESPACE, {
      auth: { token: visitor.token },
      transports: ['websocket'],
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
    let firstPieceAt = 0;
    const done = new Promise<number>((resolve) => {
      socket.on('message:delta', () => (firstPieceAt ||= performance.now()));
      socket.on('message:created', (message) => message.author === 'ai' && resolve(performance.now()));
    });
    const sentAt = performance.now();
    await sendWidgetMessage(stack.url, visitor.token, conversation.id, 'How do I return an item?', `bench-${round}`);
    const wholeAt = await done;
    socket.close();
    const modelLastAt = model.streamedAt.last - Date.now() + performance.now();
    samples.push({
      modelFirst: asked - sentAt,
      modelLast: modelLastAt - sentAt,
      firstPiece: firstPieceAt - sentAt,
      whole: wholeAt - sentAt,
    });
  }
} finally {
  await stack.stop();
  await model.stop();
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const row = (label: string, values: number[]) =>
  `${label.padEnd(44)} p50 ${percentile(values, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(values, 95).toFixed(1).padStart(7)} ms`;
const lines = [
  `Streamed replies: ${samples.length}, each 10 pieces 30 ms apart, timed from the customer's send`,
  row(
    "model asked (the model's first piece)",
    samples.map((s) => s.modelFirst),
  ),
  row(
    "first piece on the customer's socket",
    samples.map((s) => s.firstPiece),
  ),
  row(
    "model's last piece written",
    samples.map((s) => s.modelLast),
  ),
  row(
    "whole reply on the customer's socket",
    samples.map((s) => s.whole),
  ),
  row(
    'stack overhead on the first piece',
    samples.map((s) => s.firstPiece - s.modelFirst),
  ),
  row(
    'stack overhead on the whole reply',
    samples.map((s) => s.whole - s.modelLast),
  ),
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
