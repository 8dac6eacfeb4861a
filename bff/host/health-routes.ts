import { z } from 'zod';
import type { ApiRoutes, Redis, Sql } from '../../shared/server/index.ts';
import type { EngineKeys } from '../engine-link/engine-keys.ts';

/** How long one readiness check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2_000;
/** Probes come often (a load balancer per node, every few seconds): one round of checks serves them for this long. */
const CHECK_REUSE_MS = 1_000;
const TIMED_OUT = 'timed out';

const checkSchema = z.object({
  ok: z.boolean(),
  ms: z.number().int(),
  error: z.enum(['timeout', 'failed']).optional(),
});
const readySchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ store: checkSchema, engine: checkSchema, redis: checkSchema.optional() }),
});
type Check = z.infer<typeof checkSchema>;
type Readiness = z.infer<typeof readySchema>;

export interface HealthDeps {
  sql: Sql;
  engines: EngineKeys;
  redis?: { client: Redis } | undefined;
}

/**
 * `GET /healthz`: the process is alive and serving (no dependency is asked, so a slow database
 * never gets a node restarted). `GET /readyz`: the store, the engine and Redis (when the BFF uses
 * one) answer now; 503 with what failed otherwise, so a load balancer sends customers elsewhere.
 */
export function addHealthRoutes(routes: ApiRoutes, deps: HealthDeps): void {
  let last: { at: number; result: Promise<Readiness> } | undefined;
  const readiness = () => {
    if (!last || Date.now() - last.at > CHECK_REUSE_MS) last = { at: Date.now(), result: checkAll(deps) };
    return last.result;
  };
  routes
    .add(
      {
        method: 'get',
        path: '/healthz',
        tag: 'Operations',
        summary: 'The process is alive',
        responses: { 200: { description: 'Alive.', schema: z.object({ status: z.literal('ok') }) } },
      },
      (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { status: 'ok' };
      },
    )
    .add(
      {
        method: 'get',
        path: '/readyz',
        tag: 'Operations',
        summary: 'The store, the engine and Redis answer',
        responses: {
          200: { description: 'Ready: every dependency answered.', schema: readySchema },
          503: { description: 'Not ready: the checks say which dependency failed.', schema: readySchema },
        },
      },
      async (ctx) => {
        const result = await readiness();
        ctx.set('Cache-Control', 'no-store');
        ctx.status = result.status === 'ready' ? 200 : 503;
        ctx.body = result;
      },
    );
}

async function checkAll({ sql, engines, redis }: HealthDeps): Promise<Readiness> {
  const [store, engine, cache] = await Promise.all([
    timed(async () => {
      await sql.query('SELECT 1');
    }),
    timed(async () => {
      await engines.first.me();
    }),
    redis
      ? timed(async () => {
          await redis.client.ping();
        })
      : undefined,
  ]);
  const checks = { store, engine, ...(cache ? { redis: cache } : {}) };
  return { status: Object.values(checks).every((check) => check.ok) ? 'ready' : 'not_ready', checks };
}

async function timed(work: () => Promise<void>): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(TIMED_OUT)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    // The cause stays out of a public answer (it can name hosts and ports); the kind is enough to act on.
    const timedOut = (error as Error).message === TIMED_OUT;
    return { ok: false, ms: Math.round(performance.now() - started), error: timedOut ? 'timeout' : 'failed' };
  } finally {
    clearTimeout(timer);
  }
}
