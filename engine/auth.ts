import type { Middleware } from 'koa';
import { ParleyError } from '../shared/index.ts';
import { bearerToken, type Sql } from '../shared/server/index.ts';
import { findCallerByKey } from './store/accounts.ts';
import type { Caller } from './store/environment.ts';

export interface EngineState {
  caller: Caller;
}

/**
 * Checks the bearer API key on every request. Keys are looked up by their hash on each call,
 * so a revoked key fails on the very next request.
 */
export function apiKeyAuth(sql: Sql): Middleware<EngineState> {
  return async (ctx, next) => {
    const key = bearerToken(ctx);
    const caller = await findCallerByKey(sql, key);
    if (!caller) throw new ParleyError('unauthorized', 'The API key is not valid or has been revoked.');
    ctx.state.caller = caller;
    await next();
  };
}
