import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import { bearerToken, type ApiRoutes } from '../../shared/server/index.ts';
import type { Metrics } from './metrics.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics`: the BFF's numbers in Prometheus's text format, for whoever holds METRICS_TOKEN.
 * Without a token configured the route is off and answers 404, as any unknown path.
 */
export function addMetricsRoutes(routes: ApiRoutes, metrics: Metrics, token: string | undefined): void {
  const expected = token === undefined ? undefined : digest(token);
  routes.add(
    {
      method: 'get',
      path: '/metrics',
      tag: 'Operations',
      security: 'metricsToken',
      summary: "The BFF's metrics for Prometheus (on when METRICS_TOKEN is set)",
      responses: {
        200: { description: 'Prometheus text format 0.0.4.', schema: z.string(), contentType: 'text/plain' },
      },
      errors: ['not_found'],
    },
    async (ctx) => {
      if (!expected) throw new ParleyError('not_found', `No route for ${ctx.method} ${ctx.path}.`);
      if (!timingSafeEqual(digest(bearerToken(ctx)), expected))
        throw new ParleyError('unauthorized', 'Send the metrics token (METRICS_TOKEN) as the bearer credential.');
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/plain; version=0.0.4; charset=utf-8';
      ctx.body = await metrics.render();
    },
  );
}
