import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { writeFile } from 'node:fs/promises';
import { Session as InspectorSession } from 'node:inspector/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { io, type Socket } from 'socket.io-client';
import { WIDGET_NAMESPACE, type WidgetClientEvents, type WidgetServerEvents } from '../shared/index.ts';
import { EngineClient } from '../bff/index.ts';
import { engineFetch, type EngineFetch } from '../bff/engine-link/engine-client.ts';
import { createLogger } from '../shared/server/index.ts';
import { DRIVERS, request, startEngine, startStack, type Driver } from '../test/stack.ts';
import { countExchange } from './bff-exchange.ts';
import { startBaseline, type FloorEngine } from './baseline-bff.ts';
import { openSql } from '../shared/server/index.ts';
import { dropSchemas, uniqueSchemaPrefix } from '../test/stack.ts';

/**
 * `npm run bench:bff`: the two BFF budgets of DESIGN.md "Budgets". Numbers, not a pass/fail test.
 *
 * 1. Added latency. Visitors (a child process, so their sockets and fetches do not run on the BFF's
 *    event loop) send widget messages over HTTP at a paced rate and time each one until the AI's
 *    reply arrives as `message:created` on their socket. The engine runs in a child process of its
 *    own, so its work does not run on the BFF's event loop either. The BFF (this process) reaches it
 *    through an EngineClient whose `fetch` is timed; each call is keyed by its Idempotency-Key
 *    (`send-<conversation>-<message_id>`), so every message has its own engine time, which is
 *    subtracted from its total.
 *    In the same run, on the same store and at the same rate, the same visitors drive a BASELINE
 *    (bench/baseline-bff.ts: bare Koa + Socket.IO, one POST → one INSERT → one emit), the least a
 *    BFF can do per message; its added latency is the whole POST → emit received. Both report CPU
 *    per message (this process's user + system time over the run, per stored message) and the
 *    ratios Parley / baseline are printed.
 * 0. What one exchange costs, counted: SQL statements and socket pushes per message (bench/bff-exchange.ts).
 * 2. Idle connections. Visitors in a child process open authenticated `/widget` sockets and leave
 *    them idle; this process (the BFF) reports its heap and RSS growth per connection, after GC.
 *
 * BENCH_RUNS (store:rate pairs, `PGlite:50,PostgreSQL:50,PostgreSQL:200`; `none` for the idle part alone), BENCH_SECONDS (10), BENCH_WARMUP
 * (5: seconds of the same traffic before each measured run, not measured), BENCH_REPEAT (1: rounds of
 * baseline then Parley, with the median CPU ratio printed), BENCH_FLOOR (1: also the floor after each
 * baseline, the baseline that asks the engine for the reply as any BFF must; see docs/PERFORMANCE.md),
 * BENCH_SESSIONS (one visitor per message a second), BENCH_IDLE (idle connections, 10000, as the
 * budget is set; the BFF's cap of 200 sockets per address is lifted for this part only, since every
 * visitor comes from 127.0.0.1). BENCH_IDLE_STARTED=0 connects the idle sockets without the widget's start before
 * them (by default each visitor starts first, as the widget does). BENCH_PROFILE=<folder> writes a CPU profile of this process over each measured run
 * (`<store>-<rate>-<target>.cpuprofile`, for Chrome's DevTools or `node --cpu-prof`'s readers).
 */
const RUNS_GIVEN = process.env['BENCH_RUNS'] ?? 'PGlite:50,PostgreSQL:50,PostgreSQL:200';
const RUNS = (RUNS_GIVEN === 'none' ? [] : RUNS_GIVEN.split(',')).map((run) => {
  const [store, rate] = run.trim().split(':');
  const driver = DRIVERS.find((candidate) => candidate.name.toLowerCase() === store?.toLowerCase());
  if (!driver || !(Number(rate) > 0))
    throw new TypeError(`BENCH_RUNS takes store:rate pairs (PGlite:50,PostgreSQL:200), got ${JSON.stringify(run)}`);
  return { driver, rate: Number(rate) };
});
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
// Before each measured run, the same traffic for this long, not measured: V8 compiles a target's hot
// code with its optimising compiler (on other threads, counted in the process's CPU) only after it
// ran for a while, and Parley has more code to warm than the baseline.
const WARMUP_SECONDS = Number(process.env['BENCH_WARMUP'] ?? 5);
// Rounds of baseline then Parley per store and rate (BENCH_REPEAT): the median ratio is printed.
const REPEAT = Math.max(1, Number(process.env['BENCH_REPEAT'] ?? 1));
// BENCH_FLOOR=1 also measures the floor (bench/baseline-bff.ts with the engine) after each baseline.
const FLOOR = process.env['BENCH_FLOOR'] === '1';
// One message per visitor per second keeps each well under the widget routes' 120 a minute, and
// leaves a conversation a second to get its answer before its next message (the relay forwards
// one message per conversation at a time, so a faster visitor would measure queueing, not the BFF).
const sessionsFor = (rate: number) => Number(process.env['BENCH_SESSIONS'] ?? Math.max(1, Math.ceil(rate)));
const IDLE = Number(process.env['BENCH_IDLE'] ?? 10_000);
// Heap per idle connection, KB (issue 34; socket.io's own chart shows about 9–10 KB for a bare server).
const IDLE_HEAP_BUDGET_KB = 12;
// BENCH_IDLE_STARTED=0: the sockets connect without the widget's start before them (their tokens first verified by the socket).
const IDLE_STARTED = process.env['BENCH_IDLE_STARTED'] !== '0';
const REPLY_TIMEOUT_MS = 10_000;
const QUESTIONS = [
  'How do I return an item?',
  'How long does delivery take?',
  'Which payment methods do you accept?',
  'Do you ship abroad?',
];

/** What the orchestrator asks of the visitors' process; each command gets exactly one answer. */
type VisitorCommand =
  | { kind: 'sessions'; url: string; siteKey: string; count: number; target: Target }
  | { kind: 'open' }
  | { kind: 'converse'; rate: number; seconds: number; prefix: string }
  | { kind: 'start' }
  | { kind: 'connect' }
  | { kind: 'release' };

/**
 * Parley's BFF; the bare baseline (whose emit is the visitor's own message, and whose socket joins
 * the conversation's room); or the floor (the baseline that also asks the engine and emits its reply).
 */
type Target = 'parley' | 'baseline' | 'floor';

interface Sample {
  conversation: string;
  messageId: string;
  /** POST sent → the AI's `message:created` received. */
  totalMs: number;
  /** POST sent → its 201 received. */
  storedMs: number;
  /** Sent while an earlier message of its conversation was still unanswered (so it waited in the relay's queue). */
  queued: boolean;
}

interface Conversed {
  samples: Sample[];
  sendSeconds: number;
  refused: number;
  unanswered: number;
}

interface Connected {
  connected: number;
  failed: number;
  firstError: string | undefined;
}

interface Failure {
  error: string;
}

const isFailure = (message: unknown): message is Failure =>
  typeof message === 'object' && message !== null && 'error' in message;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const ascending = (values: number[]) => values.sort((a, b) => a - b);
const ms = (value: number) => value.toFixed(1);

// ---------------------------------------------------------------------------------------------
// The engine's process: the real engine on its own event loop, as it would be in production.

async function serveEngine(driverName: string): Promise<void> {
  const driver = DRIVERS.find((candidate) => candidate.name === driverName);
  if (!driver) throw new TypeError(`no driver named ${driverName}`);
  try {
    const engine = await startEngine(driver);
    // The orchestrator disconnects when it is done (or gone): stop, dropping the run's schemas.
    process.once('disconnect', () => void engine.stop().finally(() => process.exit(0)));
    process.send!({ url: engine.url, apiKey: engine.apiKey });
  } catch (error) {
    process.send!({ error: reason(error) } satisfies Failure, () => process.exit(1));
  }
}

// ---------------------------------------------------------------------------------------------
// The visitors' process: sessions, sockets and paced messages, off the BFF's event loop.

type WidgetSocket = Socket<WidgetServerEvents, WidgetClientEvents>;

/**
 * A message waiting for the AI's answer: settled with the time the answer arrived, or with undefined
 * when none will. Settling twice is harmless (an answer may come after the timeout).
 */
type Waiting = (answeredAt: number | undefined) => void;

interface Visitor {
  token: string;
  socket?: WidgetSocket;
  conversation?: string;
  /** Its messages waiting for an answer, oldest first: the relay forwards a conversation's messages in order. */
  waiting: Waiting[];
  /** Handed over or closed: the AI will not answer any more. */
  retired: boolean;
}

function serveVisitors(): void {
  let url = '';
  let target: Target = 'parley';
  let visitors: Visitor[] = [];

  const connect = (visitor: Visitor) =>
    new Promise<WidgetSocket>((resolve, reject) => {
      // forceNew: one connection per visitor, as separate browsers would have (the client would
      // otherwise multiplex every socket to the same URL over one connection).
      const auth = { token: target === 'parley' ? visitor.token : visitor.conversation };
      const socket: WidgetSocket = io(url + WIDGET_NAMESPACE, {
        auth,
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      visitor.socket = socket;
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', (error) => {
        socket.close();
        reject(error);
      });
    });

  const post = (path: string, token: string, body: unknown) => request(url + path, { token, body });

  async function inBatches<T>(
    items: readonly T[],
    width: number,
    work: (item: T, index: number) => Promise<void>,
  ): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(width, items.length) }, async () => {
        while (next < items.length) {
          const index = next++;
          await work(items[index]!, index);
        }
      }),
    );
  }

  async function makeSessions(count: number, siteKey: string): Promise<{ made: number }> {
    visitors = Array.from({ length: count }, () => ({ token: '', waiting: [], retired: false }));
    await inBatches(visitors, 32, async (visitor) => {
      const response = await request(`${url}/v1/widget-sessions`, { token: siteKey, body: {} });
      if (response.status !== 201)
        throw new Error(`POST /v1/widget-sessions answered ${response.status}: ${JSON.stringify(response.body)}`);
      visitor.token = response.body.token;
    });
    return { made: visitors.length };
  }

  /** Sends one message and waits for the AI's answer on the socket. */
  async function converse(
    visitor: Visitor,
    messageId: string,
    text: string,
  ): Promise<Sample | 'refused' | 'unanswered'> {
    const queued = visitor.waiting.length > 0;
    let settle: Waiting = () => undefined;
    const answered = new Promise<number | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), REPLY_TIMEOUT_MS);
      settle = (answeredAt) => {
        clearTimeout(timer);
        resolve(answeredAt);
      };
    });
    visitor.waiting.push(settle);
    const begin = performance.now();
    // An overloaded BFF may not even accept the connection in time (fetch fails): that is a refusal too.
    // As the widget does, Parley's visitor names its socket, which then gets no push of its own message
    // (the baseline's one emit is that push, so it gets none).
    const body = {
      text,
      message_id: messageId,
      ...(target === 'parley' && visitor.socket?.id ? { socket_id: visitor.socket.id } : {}),
    };
    const status = await post(`/v1/widget/conversations/${visitor.conversation}/messages`, visitor.token, body).then(
      (response) => response.status,
      () => 0,
    );
    const storedMs = performance.now() - begin;
    if (status !== 201) {
      // Not stored, so no answer will come for it.
      const at = visitor.waiting.indexOf(settle);
      if (at >= 0) visitor.waiting.splice(at, 1);
      settle(undefined);
      return 'refused';
    }
    // The answer may be pushed before the POST's own 201 arrives: what counts is when it was pushed.
    const answeredAt = await answered;
    return answeredAt === undefined
      ? 'unanswered'
      : { conversation: visitor.conversation!, messageId, totalMs: answeredAt - begin, storedMs, queued };
  }

  async function startConversations(): Promise<void> {
    await inBatches(visitors, 32, async (visitor) => {
      const opened = await post('/v1/widget/conversations', visitor.token, {});
      if (opened.status !== 201)
        throw new Error(`POST /v1/widget/conversations answered ${opened.status}: ${JSON.stringify(opened.body)}`);
      visitor.conversation = opened.body.id;
      const socket = await connect(visitor);
      // Parley's and the floor's visitors wait for the AI's answer; the baseline's for its own message, emitted once stored.
      const awaited = target === 'baseline' ? 'customer' : 'ai';
      socket.on('message:created', (message) => {
        if (message.author === awaited && message.conversation_id === visitor.conversation)
          visitor.waiting.shift()?.(performance.now());
      });
      const retire = () => {
        visitor.retired = true;
        for (const settle of visitor.waiting.splice(0)) settle(undefined);
      };
      socket.on('conversation:handed_over', retire);
      socket.on('conversation:closed', retire);
    });
    // Warm up: each conversation's first message also opens it at the engine, and code gets compiled.
    await inBatches(visitors, 16, async (visitor, index) => {
      await converse(visitor, 'warm-up', QUESTIONS[index % QUESTIONS.length]!);
    });
  }

  async function converseAtRate(rate: number, seconds: number, prefix: string): Promise<Conversed> {
    const result: Conversed = { samples: [], sendSeconds: 0, refused: 0, unanswered: 0 };
    const total = Math.round(rate * seconds);
    const inFlight: Promise<void>[] = [];
    const started = performance.now();
    // Open loop: message i goes out at started + i/rate whatever happened to the ones before it,
    // so an overloaded BFF shows as latency rather than as fewer messages. Visitors take turns.
    for (let index = 0; index < total; index++) {
      const wait = started + (index * 1000) / rate - performance.now();
      if (wait > 1) await sleep(wait);
      const visitor = visitors[index % visitors.length]!;
      if (visitor.retired) {
        result.unanswered++;
        continue;
      }
      inFlight.push(
        converse(visitor, `${prefix}-${index}`, QUESTIONS[index % QUESTIONS.length]!).then((outcome) => {
          if (outcome === 'refused') result.refused++;
          else if (outcome === 'unanswered') result.unanswered++;
          else result.samples.push(outcome);
        }),
      );
    }
    result.sendSeconds = (performance.now() - started) / 1000;
    await Promise.all(inFlight);
    return result;
  }

  /** Each visitor's widget starts as it does before its socket opens: `POST /v1/widget/start`, with its token. */
  async function startEach(): Promise<{ started: number }> {
    await inBatches(visitors, 32, async (visitor) => {
      const response = await fetch(`${url}/v1/widget/start`, {
        method: 'POST',
        body: new URLSearchParams({ token: visitor.token }),
      });
      if (response.status !== 200) throw new Error(`POST /v1/widget/start answered ${response.status}`);
      await response.arrayBuffer();
    });
    return { started: visitors.length };
  }

  async function connectIdle(): Promise<Connected> {
    let connected = 0;
    let firstError: string | undefined;
    await inBatches(visitors, 100, async (visitor) => {
      try {
        await connect(visitor);
        connected++;
      } catch (error) {
        firstError ??= reason(error);
      }
    });
    return { connected, failed: visitors.length - connected, firstError };
  }

  async function handle(command: VisitorCommand): Promise<unknown> {
    switch (command.kind) {
      case 'sessions':
        url = command.url;
        target = command.target;
        return makeSessions(command.count, command.siteKey);
      case 'open':
        await startConversations();
        return { opened: visitors.length };
      case 'converse':
        return converseAtRate(command.rate, command.seconds, command.prefix);
      case 'start':
        return startEach();
      case 'connect':
        return connectIdle();
      case 'release':
        for (const visitor of visitors) visitor.socket?.close();
        return { released: visitors.length };
    }
  }

  process.on('message', (command: VisitorCommand) => {
    handle(command).then(
      (answer) => process.send!(answer as object),
      (error: unknown) => process.send!({ error: reason(error) } satisfies Failure),
    );
  });
  process.once('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------
// The orchestrator: this process is the BFF whose time and memory are measured.

function startHelper(role: 'engine' | 'visitors', ...args: string[]): ChildProcess {
  // The same file and the same tsx loader (fork passes this process's execArgv on).
  return fork(fileURLToPath(import.meta.url), [role, ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** Sends a command (if any) and waits for the helper's one answer. */
function ask<T>(helper: ChildProcess, command?: VisitorCommand): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      done();
      if (isFailure(message)) reject(new Error(message.error));
      else resolve(message as T);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`a helper process exited (${code}) before answering`));
    };
    const done = () => {
      helper.off('message', onMessage);
      helper.off('exit', onExit);
    };
    helper.on('message', onMessage);
    helper.on('exit', onExit);
    if (command) helper.send(command);
  });
}

function stopHelper(helper: ChildProcess): Promise<void> {
  if (helper.exitCode !== null || helper.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => helper.kill(), 5_000);
    helper.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (helper.connected) helper.disconnect();
    else helper.kill();
  });
}

interface EngineCalls {
  /** Wall time of the BFF's engine calls, per Idempotency-Key, retries summed. */
  ms: Map<string, number>;
  /** Calls that timed out, could not connect, or were answered with an error status. */
  failed: number;
}

/**
 * The EngineClient's own way of calling (`engineFetch`, as `Metrics.timedFetch` uses it), recording
 * how long each engine call took, body included, under its Idempotency-Key.
 */
function timedFetch(calls: EngineCalls): EngineFetch {
  return async (url, request) => {
    const key = request.headers['idempotency-key'];
    const begin = performance.now();
    const took = () => {
      if (key) calls.ms.set(key, (calls.ms.get(key) ?? 0) + performance.now() - begin);
    };
    try {
      const response = await engineFetch(url, request);
      const text = await response.text();
      took();
      if (!response.ok) calls.failed++;
      return {
        ok: response.ok,
        status: response.status,
        headers: response.headers,
        text: () => Promise.resolve(text),
        body: [Buffer.from(text)],
      };
    } catch (error) {
      took();
      calls.failed++;
      throw error;
    }
  };
}

/** One target's run at one rate on one store. */
interface Measured {
  target: Target;
  sent: number;
  sentPerSecond: number;
  answered: number;
  refused: number;
  unanswered: number;
  /** Waited in the relay behind an earlier message of their conversation. */
  queued: number;
  engineFailed: number;
  stored: number[];
  engines: number[];
  added: number[];
  /** This process's CPU time (user + system) over the run, per stored message, ms. */
  cpuMs: number;
  /** The event loop's utilisation over the run. */
  busy: number;
  loopDelayP99: number;
}

const PROFILE_DIR = process.env['BENCH_PROFILE'];

/** Records this process's CPU profile while `work` runs, when BENCH_PROFILE names a folder. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return work();
  const inspector = new InspectorSession();
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await inspector.post('Profiler.stop');
    await writeFile(`${PROFILE_DIR}/${name}.cpuprofile`, JSON.stringify(profile));
    inspector.disconnect();
  }
}

/** Drives `target`'s visitors at `rate` and measures this process (the BFF) meanwhile. */
async function converseMeasured(
  visitors: ChildProcess,
  target: Target,
  rate: number,
  calls: EngineCalls | undefined,
  store: string,
): Promise<Measured> {
  if (WARMUP_SECONDS > 0)
    await ask<Conversed>(visitors, { kind: 'converse', rate, seconds: WARMUP_SECONDS, prefix: 'warm' });
  if (calls) calls.failed = 0;
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const busyBefore = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const run = await profiled(`${store}-${rate}-${target}`, () =>
    ask<Conversed>(visitors, { kind: 'converse', rate, seconds: SECONDS, prefix: 'bench' }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  const busy = performance.eventLoopUtilization(busyBefore).utilization;
  loopDelay.disable();
  const engines: number[] = [];
  const added: number[] = [];
  const stored: number[] = [];
  for (const sample of run.samples) {
    const engineTime = calls ? calls.ms.get(`send-${sample.conversation}-${sample.messageId}`) : 0;
    if (engineTime === undefined) continue;
    engines.push(engineTime);
    added.push(sample.totalMs - engineTime);
    stored.push(sample.storedMs);
  }
  [engines, added, stored].forEach(ascending);
  const sent = run.samples.length + run.refused + run.unanswered;
  return {
    target,
    sent,
    sentPerSecond: sent / run.sendSeconds,
    answered: added.length,
    refused: run.refused,
    unanswered: run.unanswered,
    queued: run.samples.filter((sample) => sample.queued).length,
    engineFailed: calls?.failed ?? 0,
    stored,
    engines,
    added,
    cpuMs: (cpu.user + cpu.system) / 1000 / Math.max(1, sent - run.refused),
    busy,
    loopDelayP99: loopDelay.percentile(99) / 1e6,
  };
}

async function measureParley(driver: Driver, rate: number): Promise<Measured> {
  const engineProcess = startHelper('engine', driver.name);
  const visitors = startHelper('visitors');
  try {
    const engine = await ask<{ url: string; apiKey: string }>(engineProcess);
    const calls: EngineCalls = { ms: new Map(), failed: 0 };
    // AI_API_URL: the BFF uses the engine in the child process instead of starting one here.
    const stack = await startStack(
      driver,
      { AI_API_URL: engine.url, AI_API_KEY: engine.apiKey },
      // Failed engine calls are counted below instead of logged line by line.
      {
        engine: new EngineClient({ baseUrl: engine.url, apiKey: engine.apiKey, fetch: timedFetch(calls) }),
        logger: createLogger('bench-bff', process.env['LOG_LEVEL'] ?? 'error'),
        // The bench's visitors write faster than people do; fairness has tests of its own.
        messageLimits: {
          perCustomerPerMinute: 1_000_000,
          perAddressPerMinute: 1_000_000,
          perInboxPerMinute: 1_000_000,
        },
      },
    );
    try {
      await ask(visitors, {
        kind: 'sessions',
        url: stack.url,
        siteKey: stack.siteKey,
        count: sessionsFor(rate),
        target: 'parley',
      });
      await ask(visitors, { kind: 'open' });
      calls.failed = 0;
      return await converseMeasured(visitors, 'parley', rate, calls, driver.name);
    } finally {
      await ask(visitors, { kind: 'release' }).catch(() => undefined);
      await stack.stop();
    }
  } finally {
    await stopHelper(visitors);
    await stopHelper(engineProcess);
  }
}

/** The baseline, or (`target` floor) the baseline that asks the engine in its child process for each reply. */
async function measureBaseline(
  driver: Driver,
  rate: number,
  target: 'baseline' | 'floor' = 'baseline',
): Promise<Measured> {
  const prefix = uniqueSchemaPrefix();
  const sql = await openSql({ databaseUrl: driver.databaseUrl, dataDir: 'memory://', schema: `${prefix}baseline` });
  const engineProcess = target === 'floor' ? startHelper('engine', driver.name) : undefined;
  const visitors = startHelper('visitors');
  try {
    const baseline = await startBaseline(sql, engineProcess ? await ask<FloorEngine>(engineProcess) : undefined);
    try {
      await ask(visitors, { kind: 'sessions', url: baseline.url, siteKey: '', count: sessionsFor(rate), target });
      await ask(visitors, { kind: 'open' });
      return await converseMeasured(visitors, target, rate, undefined, driver.name);
    } finally {
      await ask(visitors, { kind: 'release' }).catch(() => undefined);
      await baseline.close();
    }
  } finally {
    await stopHelper(visitors);
    if (engineProcess) await stopHelper(engineProcess);
    await sql.close();
    await dropSchemas(driver.databaseUrl, prefix);
  }
}

const COLUMNS = `${'target'.padEnd(16)} ${'sent'.padStart(5)} ${'sent/s'.padStart(6)} ${'stored (201)'.padStart(13)} ${'engine'.padStart(13)} ${'BFF added p50 / p95 / p99'.padStart(25)} ${'CPU/msg'.padStart(8)} ${'busy'.padStart(5)}`;

function describe(result: Measured): string[] {
  const pair = (values: number[]) => `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))}`.padStart(13);
  const added =
    `${ms(percentile(result.added, 50))} / ${ms(percentile(result.added, 95))} / ${ms(percentile(result.added, 99))}`.padStart(
      25,
    );
  const name = result.target === 'parley' ? "Parley's BFF" : result.target;
  return [
    `${name.padEnd(16)} ${String(result.sent).padStart(5)} ${result.sentPerSecond.toFixed(1).padStart(6)} ${pair(result.stored)} ${result.target === 'parley' ? pair(result.engines) : '—'.padStart(13)} ${added} ${`${result.cpuMs.toFixed(2)} ms`.padStart(8)} ${`${(result.busy * 100).toFixed(0)}%`.padStart(5)}`,
    `${''.padEnd(16)} answered ${result.answered}; refused ${result.refused}; unanswered ${result.unanswered}` +
      (result.target === 'parley'
        ? `; ${result.queued} waited behind an earlier message of their conversation; engine calls failed ${result.engineFailed}`
        : '') +
      `; event-loop delay p99 ${ms(result.loopDelayP99)} ms`,
  ];
}

/** Latency is compared only between targets whose "BFF added" means the same (the floor's includes the engine's time). */
function ratios(parley: Measured, baseline: Measured, name = 'Parley/baseline'): string {
  const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
  const at = (p: number) => ratio(percentile(parley.added, p), percentile(baseline.added, p));
  const latency = parley.target === 'floor' || baseline.target === 'floor' ? '' : `${at(50)} / ${at(95)} / ${at(99)}`;
  return `${name.padEnd(16)} ${''.padStart(5)} ${''.padStart(6)} ${''.padStart(13)} ${''.padStart(13)} ${latency.padStart(25)} ${ratio(parley.cpuMs, baseline.cpuMs).padStart(8)}${name === 'Parley/baseline' ? '   budget: p50 ≤ 5 ms, p99 ≤ 25 ms at 200/s on PostgreSQL; CPU ≤ 2×' : ''}`;
}

/** `gc()`, exposed at run time when node was not started with --expose-gc. */
function garbageCollector(): () => void {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function settledMemory(collect: () => void): Promise<NodeJS.MemoryUsage> {
  for (let round = 0; round < 3; round++) {
    collect();
    await sleep(200);
  }
  return process.memoryUsage();
}

function openFileLimit(): number {
  try {
    return Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()) || Infinity;
  } catch {
    return Infinity;
  }
}

async function measureIdle(count: number): Promise<string[]> {
  const collect = garbageCollector();
  // Every visitor here comes from 127.0.0.1: the per-address cap is lifted for the bench, never by default.
  const stack = await startStack(DRIVERS[0], {}, { widgetSocketsPerAddress: Infinity });
  const visitors = startHelper('visitors');
  try {
    await ask(visitors, { kind: 'sessions', url: stack.url, siteKey: stack.siteKey, count, target: 'parley' });
    // The widget's start verifies the token over HTTP before the socket opens: the BFF's memory of
    // that token (WidgetSessions) is the session's, not the socket's, so it is made before measuring.
    if (IDLE_STARTED) await ask(visitors, { kind: 'start' });
    const before = await settledMemory(collect);
    const result = await ask<Connected>(visitors, { kind: 'connect' });
    const after = await settledMemory(collect);
    const lines: string[] = [];
    if (result.connected > 0) {
      const perConnection = (field: 'heapUsed' | 'external' | 'rss') =>
        ((after[field] - before[field]) / result.connected / 1024).toFixed(1).padStart(10);
      const heapKb = (after.heapUsed - before.heapUsed) / result.connected / 1024;
      lines.push(
        `${String(result.connected).padStart(8)} ${perConnection('heapUsed')} ${perConnection('external')} ${perConnection('rss')}   ` +
          `10,000 at ≤ ${IDLE_HEAP_BUDGET_KB} KB of heap each: ${heapKb <= IDLE_HEAP_BUDGET_KB ? 'met' : 'NOT met'}`,
      );
    }
    if (result.failed > 0) {
      const descriptors = /EMFILE|ENFILE|too many open files/i.test(result.firstError ?? '');
      lines.push(
        `${result.failed} of ${count} sockets did not connect: ${result.firstError}` +
          (descriptors
            ? ` — the file descriptor limit stopped them (ulimit -n is ${openFileLimit()}; raise it or lower BENCH_IDLE)`
            : ''),
      );
    }
    return lines;
  } finally {
    await ask(visitors, { kind: 'release' }).catch(() => undefined);
    await stopHelper(visitors);
    await stack.stop();
  }
}

async function main(): Promise<void> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(
    `Machine: ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(1)} at start; the BFF, the engine, the visitors and PostgreSQL share them.`,
  );
  out('');
  const counted = await countExchange();
  out(
    `One exchange, counted (PGlite, one visitor, sequential): POST a message → the AI's reply pushed and everything after it settled`,
  );
  out(
    `  ${counted.statements.toFixed(2)} SQL statements in ${counted.transactions.toFixed(2)} transactions and ${counted.pushes.toFixed(2)} socket pushes per message (${Object.entries(
      counted.perPush,
    )
      .map(([name, count]) => `${name} ${count}`)
      .join(', ')})`,
  );
  out('');
  out(
    `BFF added latency and CPU: POST /v1/widget/conversations/{id}/messages → the AI's message:created on the visitor's socket`,
  );
  out(
    `  Warmed up with ${WARMUP_SECONDS} s of the same traffic (not measured), then paced (open loop) for ${SECONDS} s, over one visitor session per message a second, each with one conversation and one websocket.`,
  );
  out(
    `  The BFF runs in this process; the engine and the visitors each run in a child process. The BFF reaches the engine through`,
  );
  out(
    `  an EngineClient whose fetch is timed: "engine" is, per message, the wall time of the BFF's HTTP call(s) for it (loopback`,
  );
  out(`  transport and body read included, retries summed), and "BFF added" = total − engine, per message. All ms.`);
  out(
    `  "baseline" is bench/baseline-bff.ts in this process, on the same store, driven by the same visitors at the same rate: bare`,
  );
  out(
    `  Koa + Socket.IO, POST → one INSERT → one emit; its "BFF added" is the whole POST → emit received. "CPU/msg" is this`,
  );
  out(
    `  process's user + system CPU over the run per stored message (with PGlite the store runs in this process and is included;`,
  );
  out(
    `  PostgreSQL's own processes are not). "busy" is the event loop's utilisation: near 100%, the BFF is saturated, and its delay`,
  );
  out(`  in picking up the engine's answers is counted as engine time (BFF added is then understated).`);
  out(
    `  Site-key sessions: test/stack.ts's startStack raises the site-key limit (20/h per address) to 100,000/h; the widget`,
  );
  out(`  routes' own limit (120/min per visitor) is left as it is and respected by the pacing.`);
  for (const { driver, rate } of RUNS) {
    out('');
    out(`${driver.name} at ${rate} messages/s`);
    out(COLUMNS);
    try {
      // Baseline and Parley in turn, REPEAT times: the same code measured twice can differ by a fifth here.
      const cpuRatios: number[] = [];
      for (let round = 0; round < REPEAT; round++) {
        const baseline = await measureBaseline(driver, rate);
        for (const line of describe(baseline)) out(line);
        const floor = FLOOR ? await measureBaseline(driver, rate, 'floor') : undefined;
        if (floor) for (const line of describe(floor)) out(line);
        const parley = await measureParley(driver, rate);
        for (const line of describe(parley)) out(line);
        out(ratios(parley, baseline));
        if (floor) out(ratios(parley, floor, 'Parley/floor'));
        if (floor) out(ratios(floor, baseline, 'floor/baseline'));
        if (parley.busy > 0.9)
          out(`  Parley's BFF was saturated here, so its queues are measured more than its own work.`);
        cpuRatios.push(parley.cpuMs / baseline.cpuMs);
      }
      if (REPEAT > 1)
        out(
          `  CPU/msg ratio over ${REPEAT} rounds: median ${percentile(ascending(cpuRatios), 50).toFixed(1)}×, from ${Math.min(...cpuRatios).toFixed(1)}× to ${Math.max(...cpuRatios).toFixed(1)}×`,
        );
    } catch (error) {
      out(`could not run: ${reason(error)}`);
    }
  }

  out('');
  const limit = openFileLimit();
  // Each process holds one descriptor per connection, plus its files, database and the like.
  const count = Math.min(IDLE, limit - 256);
  out(
    `Idle /widget connections on one BFF process (PGlite), authenticated, websocket; the visitors run in a child process` +
      (IDLE_STARTED
        ? ', each after its widget start (POST /v1/widget/start).'
        : ', with no request before (BENCH_IDLE_STARTED=0).'),
  );
  out(
    `  Growth of this process between "sessions made" and "all sockets connected", after GC, per connection, in KB. The RSS`,
  );
  out(
    `  growth can come out below the heap's (the heap grows into pages already resident); the larger figure is the honest one.`,
  );
  if (count < IDLE)
    out(
      `  ulimit -n is ${limit}: ${IDLE} connections need about ${IDLE + 256} descriptors in each process, so only ${count} are opened. Raise it (ulimit -n) to measure all.`,
    );
  out(`${'conns'.padStart(8)} ${'heap'.padStart(10)} ${'external'.padStart(10)} ${'RSS'.padStart(10)}   budget`);
  if (count > 0) {
    try {
      for (const line of await measureIdle(count)) out(line);
    } catch (error) {
      out(`could not run: ${reason(error)}`);
    }
  }
}

const [role, argument] = process.argv.slice(2);
if (role === 'engine') await serveEngine(argument ?? '');
else if (role === 'visitors') serveVisitors();
else await main();
