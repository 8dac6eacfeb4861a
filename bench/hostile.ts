import { fork } from 'node:child_process';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { io } from 'socket.io-client';
import { WIDGET_NAMESPACE, randomToken, type WidgetMessage } from '../shared/index.ts';
import { createLogger } from '../shared/server/index.ts';
import { readDemoConfig } from '../demo/config.ts';
import { runDemo } from '../demo/run-demo.ts';

/**
 * `npm run bench:hostile`: does one outsider stall everyone? The whole stack runs in this process as
 * `npm start` runs it (engine and BFF share one event loop, so anything that holds the engine holds
 * every shop's chat). A child process plays two parts at once:
 * - honest customers, each from an address of their own, ask the shop's questions at a steady pace
 *   and time each answer (POST → the AI's `message:created` on their socket);
 * - in the hostile phase only, an attacker sends HOSTILE_RATE requests a second, taking turns among:
 *   one long word (45,000 characters) as a visitor and as a tenant's API key, and one of 100,000; a message of digits
 *   for an action of 20 patterns of the `(?:\d|\d\d)*x` shape; JSON nested 100,000 deep; a body of
 *   20 MB; and a flood of sessions and messages from one address.
 * This process measures its event loop's delay (monitorEventLoopDelay) in each phase. The goal
 * (issue 26): p99 under 50 ms while the hostile inputs arrive, and honest answers as fast as when
 * nobody attacks. Numbers, not a pass/fail test. HOSTILE_SECONDS (15), HOSTILE_RATE (20), HONEST (4
 * customers, one question each a second).
 */
const SECONDS = Number(process.env['HOSTILE_SECONDS'] ?? 15);
const RATE = Number(process.env['HOSTILE_RATE'] ?? 20);
const HONEST = Number(process.env['HONEST'] ?? 4);
const QUESTIONS = [
  'How do I return an item?',
  'How long does delivery take?',
  'Which payment methods do you accept?',
  'Do you ship abroad?',
];

interface Target {
  url: string;
  engineUrl: string;
  siteKey: string;
  apiKey: string;
}

interface PhaseResult {
  answers: number[];
  unanswered: number;
  hostile: Record<string, Record<number, number>>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(
  url: string,
  { token, body, raw, forwardedFor }: { token?: string; body?: unknown; raw?: string; forwardedFor?: string },
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
  try {
    const response = await fetch(url, { method: 'POST', headers, body: raw ?? JSON.stringify(body ?? {}) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body: parsed };
  } catch {
    // The server closed the connection (a body it would not read to the end): that is a refusal too.
    return { status: 0, body: undefined };
  }
}

/** An honest customer from an address of its own: a session, a conversation and a socket. */
async function honestCustomer(target: Target, index: number) {
  const address = `198.51.100.${index + 1}`;
  const session = await call(`${target.url}/v1/widget-sessions`, { token: target.siteKey, forwardedFor: address });
  if (session.status !== 201) throw new Error(`honest session: ${session.status} ${JSON.stringify(session.body)}`);
  const token = session.body.token as string;
  const opened = await call(`${target.url}/v1/widget/conversations`, { token, forwardedFor: address });
  const conversation = opened.body.id as string;
  const socket = io(target.url + WIDGET_NAMESPACE, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { 'x-forwarded-for': address },
  });
  const waiting: ((at: number) => void)[] = [];
  socket.on('message:created', (message: WidgetMessage) => {
    if (message.author === 'ai' && message.conversation_id === conversation) waiting.shift()?.(performance.now());
  });
  await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('connect_error', reject));
  let asked = 0;
  return {
    /** Asks one question; the answer's time in ms, or undefined when none came within 10 s. */
    async ask(): Promise<number | undefined> {
      const begin = performance.now();
      const answered = new Promise<number | undefined>((resolve) => {
        waiting.push(resolve);
        setTimeout(() => resolve(undefined), 10_000);
      });
      const sent = await call(`${target.url}/v1/widget/conversations/${conversation}/messages`, {
        token,
        forwardedFor: address,
        body: { text: QUESTIONS[asked++ % QUESTIONS.length], message_id: `honest-${randomToken(8)}` },
      });
      if (sent.status !== 201) return undefined;
      const at = await answered;
      return at === undefined ? undefined : at - begin;
    },
    close: () => socket.close(),
  };
}

/** The attacker's kinds of request, each one call. */
function hostileKinds(
  target: Target,
  visitor: { token: string; conversation: string },
  engineConversation: string,
): Record<string, () => Promise<number>> {
  // 45,000 characters held the engine 1.8 s a message before issue 26; 100,000 made it answer 500.
  const longWord = 'a'.repeat(45_000);
  const poisonWord = 'b'.repeat(100_000);
  const digits = `track order ${'1'.repeat(5_000)}`;
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const huge = JSON.stringify({ text: 'x'.repeat(20 * 1024 * 1024) });
  const flooder = '203.0.113.7';
  const post = (url: string, options: Parameters<typeof call>[1]) => call(url, options).then((answer) => answer.status);
  const id = () => `hostile-${randomToken(10)}`;
  return {
    'long word (visitor)': () =>
      post(`${target.url}/v1/widget/conversations/${visitor.conversation}/messages`, {
        token: visitor.token,
        forwardedFor: '203.0.113.9',
        body: { text: longWord, message_id: id() },
      }),
    'long word (tenant key)': () =>
      post(`${target.engineUrl}/v1/conversations/${engineConversation}/messages`, {
        token: target.apiKey,
        body: { text: longWord, message_id: id() },
      }),
    'longer word (tenant key)': () =>
      post(`${target.engineUrl}/v1/conversations/${engineConversation}/messages`, {
        token: target.apiKey,
        body: { text: poisonWord, message_id: id() },
      }),
    'slow patterns': () =>
      post(`${target.engineUrl}/v1/conversations/${engineConversation}/messages`, {
        token: target.apiKey,
        body: { text: digits, message_id: id() },
      }),
    'deep JSON (BFF)': () =>
      post(`${target.url}/v1/widget/conversations/${visitor.conversation}/messages`, {
        token: visitor.token,
        forwardedFor: '203.0.113.9',
        raw: deep,
      }),
    'deep JSON (engine)': () =>
      post(`${target.engineUrl}/v1/conversations/${engineConversation}/messages`, { token: target.apiKey, raw: deep }),
    'huge body': () =>
      post(`${target.url}/v1/widget/conversations/${visitor.conversation}/messages`, {
        token: visitor.token,
        forwardedFor: '203.0.113.9',
        raw: huge,
      }),
    'flood from one address': async () => {
      const session = await call(`${target.url}/v1/widget-sessions`, { token: target.siteKey, forwardedFor: flooder });
      if (session.status !== 201) return session.status;
      const opened = await call(`${target.url}/v1/widget/conversations`, {
        token: session.body.token,
        forwardedFor: flooder,
      });
      if (opened.status !== 201) return opened.status;
      return post(`${target.url}/v1/widget/conversations/${opened.body.id}/messages`, {
        token: session.body.token,
        forwardedFor: flooder,
        body: { text: 'Where is my order?', message_id: id() },
      });
    },
  };
}

/** The attacker's set-up as a tenant: an action with 20 slow-shaped patterns, and a conversation of its own. */
async function prepareAttack(
  target: Target,
): Promise<{ visitor: { token: string; conversation: string }; engineConversation: string }> {
  const properties: Record<string, object> = {};
  for (let index = 0; index < 20; index++)
    properties[`input_${index}`] = { type: 'string', description: `Input ${index}`, pattern: `((?:\\d|\\d\\d)*x)` };
  const defined = await fetch(`${target.engineUrl}/v1/actions/track_order`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      description: 'Track an order.',
      triggers: [['track', 'order']],
      parameters: { type: 'object', properties },
    }),
  });
  if (!defined.ok)
    console.log(`(the engine refused the slow action: ${defined.status} ${(await defined.text()).slice(0, 200)})`);
  const opened = await call(`${target.engineUrl}/v1/conversations`, {
    token: target.apiKey,
    body: { customer_ref: `attacker-${randomToken(6)}` },
  });
  const session = await call(`${target.url}/v1/widget-sessions`, {
    token: target.siteKey,
    forwardedFor: '203.0.113.9',
  });
  const conversation = await call(`${target.url}/v1/widget/conversations`, {
    token: session.body.token,
    forwardedFor: '203.0.113.9',
  });
  return {
    visitor: { token: session.body.token, conversation: conversation.body.id },
    engineConversation: opened.body.id,
  };
}

/** The child: honest customers for both phases, the attacker in the second; results go to the parent. */
async function playCustomers(target: Target): Promise<void> {
  const customers = await Promise.all(Array.from({ length: HONEST }, (_, index) => honestCustomer(target, index)));
  const attack = await prepareAttack(target);
  const kinds = Object.entries(hostileKinds(target, attack.visitor, attack.engineConversation));
  for (const phase of ['quiet', 'hostile'] as const) {
    process.send!({ phase, started: true });
    const result: PhaseResult = { answers: [], unanswered: 0, hostile: {} };
    const pending: Promise<void>[] = [];
    const started = performance.now();
    const honestLoop = async (customer: Awaited<ReturnType<typeof honestCustomer>>) => {
      while (performance.now() - started < SECONDS * 1000) {
        const next = performance.now() + 1000;
        const took = await customer.ask();
        if (took === undefined) result.unanswered++;
        else result.answers.push(took);
        await sleep(Math.max(0, next - performance.now()));
      }
    };
    const honest = customers.map(honestLoop);
    if (phase === 'hostile') {
      for (let index = 0; index < SECONDS * RATE; index++) {
        await sleep(Math.max(0, started + (index * 1000) / RATE - performance.now()));
        const [name, send] = kinds[index % kinds.length]!;
        pending.push(
          send().then((status) => {
            const counts = (result.hostile[name] ??= {});
            counts[status] = (counts[status] ?? 0) + 1;
          }),
        );
      }
    }
    await Promise.all([...honest, ...pending]);
    process.send!({ phase, result });
  }
  for (const customer of customers) customer.close();
}

const percentile = (values: readonly number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
};

async function main(): Promise<void> {
  const logger = createLogger('bench', 'silent');
  const config = readDemoConfig({
    PORT: '0',
    ENGINE_PORT: '0',
    DATA_DIR: 'memory://',
    TRUST_PROXY_HOPS: '1',
    LOG_LEVEL: 'warn',
  });
  const demo = await runDemo(config, logger);
  const target: Target = { url: demo.url, engineUrl: demo.engineUrl, siteKey: demo.siteKey, apiKey: demo.apiKey };
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const child = fork(fileURLToPath(import.meta.url), ['customers', JSON.stringify(target)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const rows: string[] = [];
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: { phase: string; started?: boolean; result?: PhaseResult }) => {
      if (message.started) {
        loop.reset();
        loop.enable();
        return;
      }
      loop.disable();
      const { answers, unanswered, hostile } = message.result!;
      const ms = (ns: number) => (ns / 1e6).toFixed(1);
      rows.push(
        `| ${message.phase} | ${ms(loop.percentile(50))} | ${ms(loop.percentile(99))} | ${ms(loop.max)} | ${answers.length} | ${unanswered} | ${percentile(answers, 0.5).toFixed(0)} | ${percentile(answers, 0.99).toFixed(0)} |`,
      );
      for (const [name, counts] of Object.entries(hostile))
        rows.push(
          `|   ${name} | ${Object.entries(counts)
            .map(([status, count]) => `${count}× ${status === '0' ? 'closed' : status}`)
            .join(', ')} | | | | | | |`,
        );
      if (message.phase === 'hostile') resolve();
    });
    child.on('exit', (code) => (code ? reject(new Error(`the customers' process ended with ${code}`)) : resolve()));
  });
  child.kill();
  console.log(
    `bench:hostile — ${HONEST} honest customers (1 question/s each), ${RATE} hostile requests/s in the hostile phase, ${SECONDS} s a phase, PGlite in memory, one process`,
  );
  console.log(
    '| phase | loop p50 ms | loop p99 ms | loop max ms | answers | unanswered | answer p50 ms | answer p99 ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  await demo.close();
}

const [role, argument] = process.argv.slice(2);
if (role === 'customers') {
  playCustomers(JSON.parse(argument!) as Target).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  await main();
  process.exit(0);
}
