import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '../node-script.ts';
import { until } from '../until.ts';

/**
 * One of Parley's processes (`engine/main.ts`, `bff/host/main.ts`, `demo/start.ts`) run as `npm run …`
 * runs it, `node --import tsx <script>`, that the chaos suite can kill with a real signal and start
 * again with the same settings. Its output goes to `<name>.log` in the run's folder, appended
 * across restarts.
 */

// Settings of the environment that would change what the child opens; each child is given its own.
const UNSET = [
  ...['PORT', 'HOST', 'ENGINE_PORT', 'AI_API_URL', 'AI_API_KEY', 'DATA_DIR', 'DATABASE_URL', 'REDIS_URL'],
  ...['SESSION_KEYS', 'SECRETS_KEYS', 'ENGINE_WEBHOOK_SECRET', 'LOG_LEVEL'],
];

export interface ServiceProcess {
  readonly name: string;
  /** False once the process has exited (killed by the suite, or died on its own). */
  readonly alive: boolean;
  /** Starts the process and waits until `ready` says it answers. */
  start(): Promise<void>;
  /** Sends `signal` to the process (SIGKILL: `kill -9`); for SIGKILL and SIGTERM, waits until it is gone. */
  signal(signal: NodeJS.Signals): Promise<void>;
  /** The end of its log, for a failure's message. */
  logTail(): Promise<string>;
}

export interface ServiceOptions {
  /** Names its log file, `<name>.log`. */
  name: string;
  /** The entry script, from the repository's root. */
  script: string;
  env: Record<string, string>;
  /** The run's folder, where the log goes. */
  folder: string;
  /** True once the process answers. */
  ready: () => Promise<boolean>;
}

export function serviceProcess(options: ServiceOptions): ServiceProcess {
  const logPath = join(options.folder, `${options.name}.log`);
  const log = createWriteStream(logPath, { flags: 'a' });
  let child: ChildProcess | undefined;
  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const logTail = async () => (await readFile(logPath, 'utf8').catch(() => '')).slice(-3_000);
  return {
    name: options.name,
    get alive() {
      return alive();
    },
    async start() {
      if (alive()) throw new Error(`${options.name} is running already`);
      const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !UNSET.includes(name)));
      log.write(`--- start ${new Date().toISOString()}\n`);
      child = spawn(process.execPath, ['--import', 'tsx', options.script], {
        cwd: REPO_ROOT,
        env: { ...inherited, ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.pipe(log, { end: false });
      child.stderr!.pipe(log, { end: false });
      const started = child;
      const answering = until(
        async () => {
          if (started.exitCode !== null)
            throw new Error(`${options.name} stopped at start (${started.exitCode}): ${await logTail()}`);
          return options.ready();
        },
        Boolean,
        `${options.name} to answer`,
        // A first start on a busy two-core machine (migrations, seeding, the knowledge index) has taken a minute.
        180_000,
      );
      // One that never answered must not outlive the run.
      await answering.catch(async (error: unknown) => {
        started.kill('SIGKILL');
        throw error;
      });
    },
    async signal(signal) {
      if (!alive()) return;
      const target = child!;
      const gone = new Promise((resolve) => target.once('exit', resolve));
      log.write(`--- ${signal} ${new Date().toISOString()}\n`);
      target.kill(signal);
      if (signal === 'SIGKILL' || signal === 'SIGTERM') await gone;
    },
    logTail,
  };
}

/** True when `url` answers with `status` (default 200) within two seconds. */
export async function answersWith(url: string, init: RequestInit = {}, status = 200): Promise<boolean> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === status;
  } catch {
    return false;
  }
}
