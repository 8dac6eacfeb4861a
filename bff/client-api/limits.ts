import type { Context } from 'koa';
import { ParleyError } from '../../shared/index.ts';
import type { RateDecision } from '../../shared/server/index.ts';

/**
 * The helpdesk Client API's limits (issue 12). It takes no credential (SPEC "Authentication" rule
 * 4), so whoever learns an inbox identifier, which a site's page may show, could otherwise flood
 * the inbox, make contacts by the thousand, or have the AI answer without end. Counted in fixed
 * one-minute windows by the BFF's flood limiter (in Redis when several nodes share it).
 */
export const CLIENT_API_LIMITS = {
  /** Requests from one client address a minute, on every Client API route. */
  requestsPerAddress: 120,
  /** Requests naming one inbox a minute, from all addresses together. */
  requestsPerInbox: 1_200,
  /** Contacts one client address may create a minute. */
  contactsPerAddress: 20,
  /** Messages one contact may send a minute, over all its conversations. */
  messagesPerContact: 30,
  /** Conversations one contact may start a minute. */
  conversationsPerContact: 10,
} as const;

export type ClientApiLimit = keyof typeof CLIENT_API_LIMITS;
export type ClientApiLimits = Record<ClientApiLimit, number>;

/** The limits in force: the defaults, with `overrides` (a test lifting one) checked when the routes are built. */
export function clientApiLimits(overrides: Partial<ClientApiLimits> = {}): ClientApiLimits {
  const limits = { ...CLIENT_API_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1)
      throw new TypeError(`The Client API limit ${name} must be a positive integer, got ${value}`);
  }
  return limits;
}

/** How much one answer of the Client API lists. */
export const CLIENT_API_PAGES = {
  /** A contact's conversations per page (`page`, from 1: the newest conversations first). */
  conversations: 25,
  /** Messages per page of `GET …/messages` (`before=<id>` for older ones), as Chatwoot's MessageFinder. */
  messages: 20,
  /** The newest messages a conversation carries in its `messages`. */
  messagesInConversation: 100,
} as const;

/**
 * Refuses a request that a limit did not allow: 429 rate_limited (the `bad_request_error` shape on
 * these routes) with `Retry-After`, the seconds to the end of the minute, and that limit's
 * `X-RateLimit-*` (SPEC "Errors" rule 2: the caller waits that long and sends again).
 */
export function refuseOverLimit(
  ctx: Pick<Context, 'set'>,
  { decision, at }: { decision: RateDecision; at: Date },
  message: string,
): void {
  if (decision.allowed) return;
  const retryAfter = Math.max(1, decision.resetS - Math.floor(at.getTime() / 1000));
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', '0');
  ctx.set('X-RateLimit-Reset', String(decision.resetS));
  ctx.set('Retry-After', String(retryAfter));
  throw new ParleyError('rate_limited', `${message} Try again in ${retryAfter} s.`);
}
