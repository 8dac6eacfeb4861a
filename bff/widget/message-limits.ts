import { ParleyError } from '../../shared/index.ts';
import { AI_MESSAGES_PER_ADDRESS_RANGE } from '../../shared/schemas/helpdesk/index.ts';
import type { Queryable, RateDecision, RateLimiter } from '../../shared/server/index.ts';
import type { Customer } from './sessions.ts';
import { aiMessagesPerAddressOf } from '../store/inboxes.ts';

/**
 * How many new messages a minute go to the engine. Every inbox shares the engine account's quota
 * (by default 300 requests a minute in live, 60 in the sandbox), so no customer, no address and no
 * inbox may use it all up.
 */
export interface MessageLimits {
  /** From one customer (a visitor, a verified customer or a Client API contact), over all their conversations. */
  perCustomerPerMinute: number;
  /**
   * From one client address (an IPv6 client by its /64) to one inbox, by all the customers the
   * shop did not vouch for together: visitors and Client API contacts without a proved identity.
   * Visitors are cheap to make (20 sessions an hour from one address), so the per-customer limit
   * alone let one address send 20 × 30 = 600 a minute (issue 26). An inbox's
   * `ai_messages_per_address_per_minute` raises it for offices and mobile networks behind one address.
   */
  perAddressPerMinute: number;
  /** To one inbox from everyone together. */
  perInboxPerMinute: number;
}

/**
 * 60 a minute from one address: a person writes a few messages a minute, so a household or a small
 * office chatting at once stays well inside it, and one address takes at most a fifth of a live
 * account's 300 engine requests a minute (five addresses to fill it, where half of one did). The
 * sandbox's 60 one address can still fill: it serves the shop's own tests, not its customers.
 */
export const MESSAGE_LIMITS: MessageLimits = {
  perCustomerPerMinute: 30,
  perAddressPerMinute: AI_MESSAGES_PER_ADDRESS_RANGE.least,
  perInboxPerMinute: AI_MESSAGES_PER_ADDRESS_RANGE.most,
};

/** The limits in force: the defaults, with `overrides` (a test or a bench lifting one) checked when the BFF is built. */
export function messageLimits(overrides: Partial<MessageLimits> = {}): MessageLimits {
  const limits = { ...MESSAGE_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1)
      throw new TypeError(`The message limit ${name} must be a positive integer, got ${value}`);
  }
  return limits;
}

/** Who sends a new message, as the limits count them. */
export interface Sender extends Customer {
  /** The client's address as limits count it (`clientLimitKey`: an IPv6 client by its /64). */
  address: string;
}

/** What counting a new message came to: the keys it was counted under (to give back), or the refusal. */
export type MessageCount = { keys: string[]; refusal?: undefined } | { keys?: undefined; refusal: ParleyError };

/**
 * Counts new messages against the limits, in fixed clock-minute windows of `limiter` (in Redis when
 * several nodes share it, so the limits hold across them). A message over a limit is refused with
 * 429 `rate_limited` and Retry-After (the end of the minute), and what was counted for it before is
 * given back: a message refused for its address takes nothing from its customer's minute.
 */
export function createMessageCounter({ limiter, limits }: { limiter: RateLimiter; limits: MessageLimits }) {
  /**
   * The address's count against the default first; only an address past it has its inbox's own
   * number read (with `db`, which may be a transaction's), so the busiest path asks the store
   * nothing more. That is also why an inbox's number can raise the default but not lower it.
   */
  async function countAddress(db: Queryable, key: string, inboxId: string, at: Date): Promise<RateDecision> {
    const byDefault = await limiter.consume(key, limits.perAddressPerMinute, at);
    if (byDefault.allowed) return byDefault;
    const raised = await aiMessagesPerAddressOf(db, inboxId);
    return raised !== null && raised > byDefault.limit ? limiter.consume(key, raised, at) : byDefault;
  }

  return {
    async count(db: Queryable, sender: Sender, at: Date): Promise<MessageCount> {
      const keys: string[] = [];
      const refuse = async (decision: RateDecision, message: string): Promise<MessageCount> => {
        await Promise.all(keys.map((key) => limiter.refund(key, at)));
        return { refusal: new ParleyError('rate_limited', message).retryAfter(decision.resetS - at.getTime() / 1000) };
      };
      const mine = `messages:customer:${sender.inboxId}:${sender.customerRef}`;
      const ownDecision = await limiter.consume(mine, limits.perCustomerPerMinute, at);
      if (!ownDecision.allowed)
        return refuse(ownDecision, `At most ${ownDecision.limit} messages a minute from one customer; wait a moment.`);
      keys.push(mine);
      // A verified customer's session was made by the shop's server, which decides who gets one; a
      // visitor's or an unproved contact's anyone can make again and again from one address.
      if (!sender.verified) {
        const address = `messages:address:${sender.inboxId}:${sender.address}`;
        const addressDecision = await countAddress(db, address, sender.inboxId, at);
        if (!addressDecision.allowed)
          return refuse(
            addressDecision,
            `At most ${addressDecision.limit} messages a minute reach this chat from one address; wait a moment.`,
          );
        keys.push(address);
      }
      const inbox = `messages:inbox:${sender.inboxId}`;
      const inboxDecision = await limiter.consume(inbox, limits.perInboxPerMinute, at);
      if (!inboxDecision.allowed)
        return refuse(inboxDecision, 'This chat is taking too many messages right now; wait a moment.');
      keys.push(inbox);
      return { keys };
    },

    /** Gives back what `count` counted at `at`, when the message was not kept after all (a retry of one kept already). */
    async giveBack(keys: readonly string[], at: Date): Promise<void> {
      await Promise.all(keys.map((key) => limiter.refund(key, at)));
    },
  };
}

export type MessageCounter = ReturnType<typeof createMessageCounter>;
