import { Worker } from 'node:worker_threads';

/** What a BFF node in a worker thread is built from (see worker-node-main.ts). */
export interface WorkerNodeData {
  /** The node's variables, as a deployment sets them (DATABASE_URL, REDIS_URL, SECRETS_KEYS, AI_API_URL, AI_API_KEY…). */
  env: Record<string, string>;
  /** The schema prefix of the nodes it joins (their store and their Redis keys). */
  schemaPrefix: string;
  inboxId: string;
  callLeaseMs: number;
}

export interface WorkerNode {
  url: string;
  /** Stops the thread at once, as `kill -9` stops a process: none of its handlers run, its connections drop. */
  kill(): Promise<void>;
}

/**
 * A BFF node in a thread of its own, for tests of what the other nodes do when one dies: the
 * thread is stopped mid-flight (`Worker.terminate`), which a node in the test's own thread cannot
 * be. The thread loads TypeScript through tsx, as `npm run bff` does.
 */
export async function startWorkerNode(data: WorkerNodeData): Promise<WorkerNode> {
  const main = new URL('./worker-node-main.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(main)}); });`;
  const worker = new Worker(boot, { eval: true, workerData: data });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (message: { url: string }) => resolve(message.url));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the worker node stopped (${code}) before it listened`)));
  });
  return { url, kill: async () => void (await worker.terminate()) };
}
