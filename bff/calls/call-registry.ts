import { randomUUID } from 'node:crypto';
import type { ConversationRecord } from '../store/conversations.ts';

/** Who ended a call: a side hanging up (or declining), or a socket that dropped. */
export type EndedBy = 'customer' | 'person' | 'network';

/** A person call between one customer's socket and, once accepted, one person's socket. */
export interface Call {
  id: string;
  conversation: ConversationRecord;
  accountId: number;
  /** The widget socket that called: the only one of the customer's side that may signal or hang up. */
  customerSocket: string;
  /** The person who accepted, with the console socket they accepted from. */
  person?: { socket: string; userId: number; name: string } | undefined;
  answeredAt?: number | undefined;
  /** The engine's call (call_…), once it began it; undefined while it did not answer. */
  engineCallId?: Promise<string | undefined> | undefined;
  /** Ends the call as missed when nobody takes it. */
  ringOut: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The calls of this node, by id. A call lives only while its two sockets do, so it is kept in
 * memory; both sockets must reach the node that holds it (see docs/ARCHITECTURE.md "Calls").
 */
export function createCallRegistry() {
  const calls = new Map<string, Call>();
  return {
    add(call: Omit<Call, 'id'>): Call {
      const made = { ...call, id: `pcall_${randomUUID()}` };
      calls.set(made.id, made);
      return made;
    },
    get: (id: string) => calls.get(id),
    /** Takes the call out (once): whoever gets it ends it. */
    take(id: string): Call | undefined {
      const call = calls.get(id);
      calls.delete(id);
      return call;
    },
    ofConversation: (conversationId: number) =>
      [...calls.values()].find((call) => call.conversation.id === conversationId),
    /** The calls a socket (a customer's or a person's) is a side of. */
    ofSocket: (socketId: string) =>
      [...calls.values()].filter((call) => call.customerSocket === socketId || call.person?.socket === socketId),
  };
}

export type CallRegistry = ReturnType<typeof createCallRegistry>;
