import { randomUUID } from 'node:crypto';
import type { CallEndReason } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import {
  conversationFromJson,
  type ConversationRecord,
  type ConversationRow,
  type JsonRow,
} from '../store/conversations.ts';

/** Who ended a call: a side hanging up (or declining), or a socket or node that dropped. */
export type EndedBy = 'customer' | 'person' | 'network';

/** A person call between one customer's socket and, once accepted, one person's socket, on any nodes. */
export interface Call {
  id: string;
  conversation: ConversationRecord;
  accountId: number;
  rangAt: Date;
  /** The widget socket that called: the only one of the customer's side that may signal or hang up. */
  customerSocket: string;
  /** The person who accepted, with the console socket they accepted from. */
  person: { socket: string; userId: number; name: string } | undefined;
  answeredAt: Date | undefined;
  /** The engine's call (call_…), once it began one. */
  engineCallId: string | undefined;
  /** Set once the call has ended. */
  ended: { at: Date; by: EndedBy; reason: CallEndReason | undefined } | undefined;
}

interface CallRow {
  id: string;
  account_id: number;
  rang_at: Date;
  customer_socket: string;
  person_socket: string | null;
  person_user_id: number | null;
  person_name: string | null;
  answered_at: Date | null;
  engine_call_id: string | null;
  ended_at: Date | null;
  ended_by: EndedBy | null;
  reason: CallEndReason | null;
  conversation: JsonRow<ConversationRow>;
}

// Each statement gives the call with its conversation as it is now (its engine id may have come since the call began).
const JOINED =
  'SELECT call.*, row_to_json(c) AS conversation FROM call JOIN conversations c ON c.id = call.conversation_id';
const withConversation = (statement: string) => `WITH call AS (${statement} RETURNING *) ${JOINED}`;

const toCall = (row: CallRow): Call => ({
  id: row.id,
  conversation: conversationFromJson(row.conversation),
  accountId: row.account_id,
  rangAt: row.rang_at,
  customerSocket: row.customer_socket,
  person:
    row.person_socket === null
      ? undefined
      : { socket: row.person_socket, userId: row.person_user_id!, name: row.person_name ?? '' },
  answeredAt: row.answered_at ?? undefined,
  engineCallId: row.engine_call_id ?? undefined,
  ended: row.ended_at ? { at: row.ended_at, by: row.ended_by!, reason: row.reason ?? undefined } : undefined,
});

const LAPSED = `SELECT id, CASE WHEN customer_until < $1 OR person_until < $1 THEN 'node_gone'
    WHEN answered_at IS NULL THEN 'rang_out' ELSE 'too_long' END AS reason
  FROM person_calls WHERE ended_at IS NULL
    AND (customer_until < $1 OR person_until < $1 OR (answered_at IS NULL AND rang_at < $2) OR answered_at < $3)`;

/**
 * The calls every node sees, kept in the store: a node relays a side's signalling by the other
 * side's socket id through the Socket.IO adapter, and renews the leases of the sides it holds;
 * a side whose lease lapsed was on a node that stopped. See docs/ARCHITECTURE.md "Person calls".
 */
export function createCallRegistry(db: Queryable, node: string, leaseMs: number) {
  const lease = (at: Date) => new Date(at.getTime() + leaseMs);
  const one = async (statement: string, parameters: unknown[]) => {
    const [row] = await db.query<CallRow>(statement, parameters);
    return row && toCall(row);
  };
  return {
    /** Rings a new call; undefined when the conversation has a call under way already. */
    add: (call: { conversationId: number; accountId: number; customerSocket: string; at: Date }) =>
      one(
        withConversation(
          `INSERT INTO person_calls (id, conversation_id, account_id, rang_at, customer_socket, customer_node, customer_until)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        ),
        [
          `pcall_${randomUUID()}`,
          call.conversationId,
          call.accountId,
          call.at,
          call.customerSocket,
          node,
          lease(call.at),
        ],
      ),
    /** A call not ended yet. */
    get: (id: string) =>
      one(`WITH call AS (SELECT * FROM person_calls WHERE id = $1 AND ended_at IS NULL) ${JOINED}`, [id]),
    /** The person takes a ringing call; undefined when it was taken or ended meanwhile. */
    answer: (id: string, taken: { socket: string; userId: number; name: string; at: Date }) =>
      one(
        withConversation(
          `UPDATE person_calls SET person_socket = $2, person_node = $3, person_until = $4, person_user_id = $5,
             person_name = $6, answered_at = $7
           WHERE id = $1 AND ended_at IS NULL AND answered_at IS NULL`,
        ),
        [id, taken.socket, node, lease(taken.at), taken.userId, taken.name, taken.at],
      ),
    /** Ends the call once: whoever gets it back tells both sides. */
    end: (id: string, ended: { by: EndedBy; reason?: CallEndReason | undefined; at: Date }) =>
      one(
        withConversation(
          'UPDATE person_calls SET ended_at = $2, ended_by = $3, reason = $4 WHERE id = $1 AND ended_at IS NULL',
        ),
        [id, ended.at, ended.by, ended.reason ?? null],
      ),
    /** Notes the engine's call; the call as it is then (ended meanwhile: the engine's call is to end too). */
    recordEngineCall: (id: string, engineCallId: string) =>
      one(withConversation('UPDATE person_calls SET engine_call_id = $2 WHERE id = $1'), [id, engineCallId]),
    /** The open calls a socket (a customer's or a person's) of this node is a side of. */
    ofSocket: async (socketId: string) =>
      (
        await db.query<{ id: string }>(
          `SELECT id FROM person_calls WHERE ended_at IS NULL
             AND ((customer_node = $1 AND customer_socket = $2) OR (person_node = $1 AND person_socket = $2))`,
          [node, socketId],
        )
      ).map((row) => row.id),
    /** This node still holds its sides of its calls. */
    async renew(at: Date): Promise<void> {
      const until = lease(at);
      await db.query('UPDATE person_calls SET customer_until = $2 WHERE customer_node = $1 AND ended_at IS NULL', [
        node,
        until,
      ]);
      await db.query('UPDATE person_calls SET person_until = $2 WHERE person_node = $1 AND ended_at IS NULL', [
        node,
        until,
      ]);
    },
    /** Open calls to end now, and why: a side's node stopped, nobody took it in time, or it lasted too long. */
    lapsed: async ({ at, ringMs, maxMs }: { at: Date; ringMs: number; maxMs: number }) =>
      db.query<{ id: string; reason: CallEndReason }>(LAPSED, [
        at,
        new Date(at.getTime() - ringMs),
        new Date(at.getTime() - maxMs),
      ]),
  };
}

export type CallRegistry = ReturnType<typeof createCallRegistry>;
