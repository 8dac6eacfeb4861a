import { z } from 'zod';
import { ConversationState, CustomerRef } from './engine.ts';

/**
 * Customers of the AI conversation API (`/v1/customers/{customer_ref}`): what the engine remembers
 * about one, merging two references into one, and forgetting one. A customer is a `customer_ref`
 * within one account and environment; the same reference under a live key and a test key names two
 * customers.
 */

export const CustomerParams = z.strictObject({
  customer_ref: CustomerRef.describe('Your reference for the customer, percent-encoded in the path.'),
});

/** What the AI keeps between messages of one conversation. */
export const ConversationMemory = z.object({
  /** The customer's language, as the caller said it. */
  locale: z.string().nullable(),
  /** An action the AI is collecting inputs for, and what it has so far (codes masked). */
  awaiting_action: z.object({ action: z.string(), inputs: z.record(z.string(), z.unknown()) }).nullable(),
  /** The article of the AI's last answer, until the customer says whether it helped. */
  last_answer: z.object({ id: z.string(), title: z.string() }).nullable(),
  /** "Not sure" answers in a row. */
  unanswered_streak: z.number().int(),
});

export const CustomerConversation = z.object({
  id: z.string(),
  state: ConversationState,
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
  resolved: z.boolean().nullable(),
  /** How many turns it holds (the customer's, the AI's, people's and the engine's notes). */
  turns: z.number().int(),
  memory: ConversationMemory,
});

export const CustomerView = z.object({
  customer_ref: z.string(),
  /** When the customer's first conversation was opened. */
  first_seen_at: z.string(),
  /** When the customer last wrote (or a conversation of theirs was opened, if later). */
  last_seen_at: z.string(),
  /** How many conversations the customer has; the list holds the newest 100. */
  conversation_count: z.number().int(),
  conversations: z.array(CustomerConversation),
  /** What the AI remembers across conversations. */
  memory: z.object({
    /** The language of the customer's latest conversation that said one. */
    locale: z.string().nullable(),
    /** Inputs the customer gave for actions (an order number, an e-mail), the newest of each name; codes masked. */
    inputs: z.record(z.string(), z.unknown()),
  }),
});
export type CustomerView = z.infer<typeof CustomerView>;

export const MergeCustomerRequest = z.strictObject({
  from: CustomerRef.describe(
    "The other reference: its conversations and memory become this customer's, and it names no one afterwards.",
  ),
});

/** What a forget erased: counts only (the answer never names the customer, as it may be kept for an Idempotency-Key). */
export const ForgetCustomerResponse = z.object({
  forgotten: z.literal(true),
  conversations: z.number().int(),
  turns: z.number().int(),
  action_requests: z.number().int(),
  events: z.number().int(),
  media: z.number().int(),
  /** The id of the customer.forgotten event that tells receivers to erase what they hold. */
  event_id: z.string(),
});
export type ForgetCustomerResponse = z.infer<typeof ForgetCustomerResponse>;
