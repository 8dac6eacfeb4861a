import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { until } from '../until.ts';

/**
 * A Redis server of the chaos suite's own on a free port (keeping nothing on disk, as the
 * machine's does), so that it can be killed and started again without touching the machine's.
 */
export interface RedisServer {
  url: string;
  /** Kills the server (SIGKILL) and waits until it is gone. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startRedis(folder: string, port: number): Promise<RedisServer> {
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    },
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder];
      child = spawn('redis-server', args, { stdio: 'ignore' });
      await until(() => pong(port), Boolean, 'redis-server to answer PING', 10_000);
    },
  };
  await server.start();
  return server;
}

/** True when something on the port answers Redis's PING with PONG. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.setTimeout(1_000, () => done(false));
  });
}
