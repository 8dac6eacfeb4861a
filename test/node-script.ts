import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs one of the project's entry scripts (`bff/host/main.ts`, a CLI) as its own Node process, as
 * `npm run …` does: `node --import tsx <script>` from the repository's root. The child gets this
 * process's environment without the settings that would change what it opens
 * (DATABASE_URL, REDIS_URL, …), then `env`.
 */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const UNSET = [
  ...['PORT', 'HOST', 'ENGINE_PORT', 'AI_API_URL', 'AI_API_KEY', 'DATA_DIR', 'DATABASE_URL', 'REDIS_URL'],
  ...['SESSION_KEYS', 'ENGINE_WEBHOOK_SECRET', 'LOG_LEVEL'],
];

export interface RunningScript {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** The exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

function spawnScript(script: string, args: string[], env: Record<string, string>) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !UNSET.includes(name)));
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Starts `script` (a path from the repository's root) with `args`; the caller ends it. */
export function startNodeScript(script: string, args: string[] = [], env: Record<string, string> = {}): RunningScript {
  const child = spawnScript(script, args, env);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Runs `script` to its end; gives its exit code and what it wrote. */
export async function runNodeScript(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnScript(script, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
  return { code, stdout, stderr };
}
