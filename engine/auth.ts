import { createHash, timingSafeEqual } from 'node:crypto';
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

/**
 * Refuses a keyed route without a valid API key (401), saying whether the key is missing or wrong,
 * and a key of a suspended account (403 `account_suspended`: the key is right, its account may not
 * use it now).
 */
export function requireApiKey(): Middleware<EngineState> {
  return async (ctx, next) => {
    bearerToken(ctx);
    if (!ctx.state.caller) throw new ParleyError('unauthorized', 'The API key is not valid or has been revoked.');
    if (ctx.state.caller.suspended)
      throw new ParleyError(
        'account_suspended',
        "This key's account is suspended by the operator; its keys are refused until it is resumed.",
      );
    await next();
  };
}

/** The operator token's SHA-256, so that two tokens compare in constant time whatever their lengths. */
const digest = (token: string) => createHash('sha256').update(token).digest();

/**
 * Lets through only requests that carry the installation's operator token
 * (`Authorization: Bearer <ENGINE_OPERATOR_TOKEN>`), compared in constant time. Without a token
 * configured every request is refused: the operator routes are off. Both refusals are 401
 * `unauthorized`, and neither says whether a token was close.
 */
export function requireOperatorToken(token: string | undefined): Middleware {
  if (token !== undefined && token.length < 32)
    throw new TypeError('the operator token must be at least 32 characters');
  const expected = token === undefined ? undefined : digest(token);
  return async (ctx, next) => {
    const given = bearerToken(ctx);
    if (!expected)
      throw new ParleyError(
        'unauthorized',
        'The operator routes are off on this engine (ENGINE_OPERATOR_TOKEN is not set).',
      );
    if (!timingSafeEqual(digest(given), expected))
      throw new ParleyError('unauthorized', 'The operator token is not valid.');
    await next();
  };
}
