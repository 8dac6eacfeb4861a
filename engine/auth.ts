import type { Context, Middleware } from 'koa';
import { ParleyError } from '../shared/index.ts';
import { bearerToken, type Sql } from '../shared/server/index.ts';
import { findCallerByKey } from './store/accounts.ts';
import type { Caller } from './store/environment.ts';

/** What a keyed route's handlers see: the caller is known. */
export interface EngineState {
  caller: Caller;
}

// The form `bearerToken` takes; anything else is no key at all.
const BEARER = /^Bearer ([\x21-\x7e]{1,4096})$/;

/**
 * Who calls: the account and environment of a valid API key, else undefined. It is asked for every
 * request before anything else, so that the rate limit counts it against the right budget. A
 * missing or wrong key is not refused here: a keyed route refuses it (`requireApiKey`), a public
 * route needs none. Keys are looked up by their hash on each call, so a revoked key fails on the
 * very next request.
 */
export async function callerOf(sql: Sql, ctx: Pick<Context, 'get'>): Promise<Caller | undefined> {
  const match = BEARER.exec(ctx.get('authorization'));
  return match ? findCallerByKey(sql, match[1]!) : undefined;
}

/** Refuses a keyed route without a valid API key (401), saying whether the key is missing or wrong. */
export function requireApiKey(): Middleware<EngineState> {
  return async (ctx, next) => {
    bearerToken(ctx);
    if (!ctx.state.caller) throw new ParleyError('unauthorized', 'The API key is not valid or has been revoked.');
    await next();
  };
}
