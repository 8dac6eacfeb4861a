import { ParleyError, type CustomerView } from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import type { BrainMemory } from '../brain/brain.ts';
import type { Caller } from './environment.ts';

type Owner = Pick<Caller, 'accountId' | 'environment'>;

/** The most conversations one customer view lists (the newest); `conversation_count` says how many there are. */
export const CUSTOMER_CONVERSATIONS_SHOWN = 100;

interface CustomerConversationRow {
  id: string;
  state: CustomerView['conversations'][number]['state'];
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
  resolved: boolean | null;
  locale: string | null;
  awaiting_action: BrainMemory['awaitingAction'];
  last_answer: BrainMemory['lastAnswer'];
  unanswered_streak: number;
  turns: number;
  total: number;
  first_seen: Date;
}

/**
 * What the engine remembers of one customer of the owner's account and environment: their
 * conversations (the newest 100) with each one's memory, when they were first and last seen, and
 * what they told the AI across conversations (the inputs of the actions it asked for). Undefined
 * when the reference has no conversation there.
 */
export async function findCustomer(
  db: Queryable,
  owner: Owner,
  customerRef: string,
): Promise<CustomerView | undefined> {
  const rows = await db.query<CustomerConversationRow>(
    `SELECT c.id, c.state, c.created_at, c.updated_at, c.closed_at, c.resolved, c.locale, c.awaiting_action, c.last_answer, c.unanswered_streak,
            (SELECT count(*)::int FROM turns t WHERE t.conversation_id = c.id) AS turns,
            count(*) OVER ()::int AS total, min(c.created_at) OVER () AS first_seen
     FROM conversations c WHERE c.account_id = $1 AND c.environment = $2 AND c.customer_ref = $3
     ORDER BY c.created_at DESC, c.id DESC LIMIT $4`,
    [owner.accountId, owner.environment, customerRef, CUSTOMER_CONVERSATIONS_SHOWN],
  );
  const [newest] = rows;
  if (!newest) return undefined;
  const [seen] = await db.query<{ last_written: Date | null }>(
    `SELECT max(t.created_at) AS last_written FROM turns t JOIN conversations c ON c.id = t.conversation_id
     WHERE c.account_id = $1 AND c.environment = $2 AND c.customer_ref = $3 AND t.role = 'customer'`,
    [owner.accountId, owner.environment, customerRef],
  );
  const requests = await db.query<{ inputs: Record<string, unknown> }>(
    `SELECT r.inputs FROM action_requests r JOIN conversations c ON c.id = r.conversation_id
     WHERE c.account_id = $1 AND c.environment = $2 AND c.customer_ref = $3 ORDER BY r.created_at DESC, r.id DESC LIMIT 100`,
    [owner.accountId, owner.environment, customerRef],
  );
  // The newest value of each input wins: the oldest are spread first.
  const inputs = Object.assign({}, ...requests.map((request) => request.inputs).reverse()) as Record<string, unknown>;
  const lastOpened = newest.created_at;
  const lastWritten = seen?.last_written;
  return {
    customer_ref: customerRef,
    first_seen_at: newest.first_seen.toISOString(),
    last_seen_at: (lastWritten && lastWritten > lastOpened ? lastWritten : lastOpened).toISOString(),
    conversation_count: newest.total,
    conversations: rows.map((row) => ({
      id: row.id,
      state: row.state,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      closed_at: row.closed_at?.toISOString() ?? null,
      resolved: row.resolved,
      turns: row.turns,
      memory: {
        locale: row.locale,
        awaiting_action: row.awaiting_action,
        last_answer: row.last_answer,
        unanswered_streak: row.unanswered_streak,
      },
    })),
    memory: { locale: rows.find((row) => row.locale)?.locale ?? null, inputs },
  };
}

/**
 * Moves every conversation of `from` (with what the AI remembers in each) onto `into`, in the
 * owner's account and environment only; afterwards `from` names no one. A 404 when `from` has no
 * conversation there (a customer of another environment or account cannot be merged).
 */
export async function mergeCustomers(sql: Sql, owner: Owner, into: string, from: string, now: Date): Promise<number> {
  if (into === from)
    throw new ParleyError('invalid_request', 'A customer cannot be merged with itself: from names the same reference.');
  const moved = await sql.query(
    'UPDATE conversations SET customer_ref = $3, updated_at = $5 WHERE account_id = $1 AND environment = $2 AND customer_ref = $4 RETURNING id',
    [owner.accountId, owner.environment, into, from, now],
  );
  if (moved.length === 0)
    throw new ParleyError(
      'not_found',
      `No customer ${from} for this key (a customer of another environment or account cannot be merged).`,
    );
  return moved.length;
}
