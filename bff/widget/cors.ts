import type { Middleware } from 'koa';
import { ParleyError } from '../../shared/index.ts';

const ALLOWED_HEADERS = 'authorization, content-type, idempotency-key';
const EXPOSED_HEADERS = 'retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, idempotent-replayed';

/**
 * CORS for routes that web pages on other origins call. Credentials are never cookies (tokens
 * travel in the Authorization header), so no `Allow-Credentials`. A preflight carries no key, so
 * it is answered for any origin; which origins may use a live key or session is checked where the
 * credential is read, and a refusal for the origin carries no `Access-Control-Allow-Origin`, so the
 * refused page cannot even read the answer.
 */
export function crossOrigin(): Middleware {
  return async (ctx, next) => {
    const origin = ctx.get('origin');
    ctx.vary('Origin');
    if (!origin) return next();
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE');
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    try {
      await next();
    } catch (error) {
      if (error instanceof ParleyError && error.code === 'origin_not_allowed') {
        ctx.remove('Access-Control-Allow-Origin');
        ctx.remove('Access-Control-Expose-Headers');
      }
      throw error;
    }
  };
}
