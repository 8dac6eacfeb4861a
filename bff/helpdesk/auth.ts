import type { Context, Middleware } from 'koa';
import { ParleyError } from '../../shared/index.ts';
import { clientAddress, type Sql } from '../../shared/server/index.ts';
import { accountSuspended, accountSuspendedError, roleIn, type Role } from './store/accounts.ts';
import { findAgentBot, type AgentBotRecord } from './store/agent-bots.ts';
import type { Actor } from './store/audit-log.ts';
import { findPlatformToken, findTokenHolder, type TokenHolder } from './store/credentials.ts';
import { findUser, type UserRecord } from './store/users.ts';
import type { HelpdeskCounter } from './rate-limits.ts';

/** The helpdesk's credential header, as Chatwoot's (SPEC Authentication rule 3). */
export const TOKEN_HEADER = 'api_access_token';

const tokenOf = (ctx: Context): string => {
  const token = ctx.get(TOKEN_HEADER);
  if (!token) throw new ParleyError('unauthorized', `Send your access token in the ${TOKEN_HEADER} header.`);
  if (token.length > 200) throw new ParleyError('unauthorized', 'The access token is not valid.');
  return token;
};

export interface PlatformState {
  platformTokenId: number;
  actor: Actor;
}

/**
 * Counts the request against its address, then looks its token up with `find`: a token that is
 * missing or not valid counts against the address's wrong tokens (401, 429 past their limit), a
 * valid one against its holder (issue 33). Every answer carries the last count's X-RateLimit headers.
 */
async function countedHolder<H>(
  ctx: Context,
  counter: HelpdeskCounter,
  find: (token: string) => Promise<H | undefined>,
  holderKey: (holder: H) => string,
): Promise<H | undefined> {
  await counter.address(ctx);
  const token = ctx.get(TOKEN_HEADER);
  const holder = token && token.length <= 200 ? await find(token) : undefined;
  if (holder === undefined) {
    await counter.wrongToken(ctx);
    tokenOf(ctx); // A missing token is told how to send one.
    return undefined;
  }
  await counter.caller(ctx, holderKey(holder));
  return holder;
}

/** Lets through only requests with a valid platform app token (counted: rate-limits.ts). */
export function platformAuth(sql: Sql, trustProxyHops: number, counter: HelpdeskCounter): Middleware<PlatformState> {
  return async (ctx, next) => {
    const id = await countedHolder(
      ctx,
      counter,
      (token) => findPlatformToken(sql, token),
      (holder) => `platform:${holder}`,
    );
    if (id === undefined) throw new ParleyError('unauthorized', 'The platform token is not valid.');
    ctx.state.platformTokenId = id;
    ctx.state.actor = {
      type: 'PlatformApp',
      id,
      name: 'platform app',
      remoteAddress: clientAddress(ctx.req, trustProxyHops),
    };
    await next();
  };
}

/** Who calls the Application API: a person, or an agent bot acting with its own token. */
export type Caller = { kind: 'user'; user: UserRecord } | { kind: 'agent_bot'; bot: AgentBotRecord };

export interface ApplicationState {
  caller: Caller;
  actor: Actor;
}

/** The person or bot a token (access token or console session) belongs to, while it is valid. */
export async function callerOfToken(sql: Sql, token: string, now: Date): Promise<Caller | undefined> {
  if (token.length > 200) return undefined;
  return callerOf(sql, await findTokenHolder(sql, token, now));
}

/** The person or bot who holds a token, while they exist. */
export async function callerOf(sql: Sql, holder: TokenHolder | undefined): Promise<Caller | undefined> {
  return holder?.kind === 'user'
    ? await findUser(sql, holder.id).then((user) => user && { kind: 'user' as const, user })
    : holder?.kind === 'agent_bot'
      ? await findAgentBot(sql, holder.id).then((bot) => bot && { kind: 'agent_bot' as const, bot })
      : undefined;
}

/** Lets through only requests with a valid (unexpired) access token of a person or an agent bot (counted: rate-limits.ts). */
export function applicationAuth(
  sql: Sql,
  now: () => Date,
  trustProxyHops: number,
  counter: HelpdeskCounter,
): Middleware<ApplicationState> {
  return async (ctx, next) => {
    const caller = await countedHolder(
      ctx,
      counter,
      (token) => callerOfToken(sql, token, now()),
      (holder) => (holder.kind === 'user' ? `user:${holder.user.id}` : `agent_bot:${holder.bot.id}`),
    );
    if (!caller) throw new ParleyError('unauthorized', 'The access token is not valid.');
    ctx.state.caller = caller;
    const remoteAddress = clientAddress(ctx.req, trustProxyHops);
    ctx.state.actor =
      caller.kind === 'user'
        ? { type: 'User', id: caller.user.id, name: caller.user.email, remoteAddress }
        : { type: 'AgentBot', id: caller.bot.id, name: caller.bot.name, remoteAddress };
    await next();
  };
}

/**
 * What the caller may be in an account: its role, `bot` for a bot of the account, or nothing. A
 * member of a suspended account is refused (403 `account_suspended`): the account's people and bots
 * reach nothing of it until the operator resumes it.
 */
export async function standingIn(sql: Sql, caller: Caller, accountId: number): Promise<Role | 'bot' | undefined> {
  const standing =
    caller.kind === 'agent_bot'
      ? caller.bot.accountId === accountId
        ? 'bot'
        : undefined
      : await roleIn(sql, accountId, caller.user.id);
  if (standing && (await accountSuspended(sql, accountId))) throw accountSuspendedError();
  return standing;
}

/**
 * Checks the caller's standing in the account: any standing by default, `administrator` when
 * asked. Anyone else is refused with 401, as SPEC's Application API rows say.
 */
export async function requireStanding(
  sql: Sql,
  caller: Caller,
  accountId: number,
  needed: 'member' | 'administrator' = 'member',
): Promise<Role | 'bot'> {
  const standing = await standingIn(sql, caller, accountId);
  if (!standing) throw new ParleyError('unauthorized', 'You are not a member of this account.');
  if (needed === 'administrator' && standing !== 'administrator')
    throw new ParleyError('unauthorized', 'Only an administrator of this account may do this.');
  return standing;
}

/**
 * Helpdesk routes answer a failed validation with 422 (SPEC Errors rule 1), where `/v1` routes
 * answer 400: the same problem, the helpdesk's status.
 */
export const validationIs422: Middleware = async (_ctx, next) => {
  try {
    await next();
  } catch (error) {
    if (error instanceof ParleyError && error.code === 'invalid_request')
      throw new ParleyError('unprocessable', error.message, error.details);
    throw error;
  }
};
