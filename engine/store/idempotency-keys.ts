import { ParleyError } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';

/**
 * The records of Idempotency-Key requests (engine/idempotency.ts): the first answer to each key,
 * per credential and route, kept a day. A first request still running is held by the engine
 * process that runs it (`held_by`) until `held_until`, a lease that process renews every few
 * seconds while it runs: a record whose process died (`kill -9`, a lost database connection) is
 * taken over by a retry once its lease lapsed, within seconds (issue 34). Each record names the
 * customer or conversation it was about, when the request or its answer does, so that a forget
 * finds it whatever the key's own text holds (issue 33).
 */

/** The record a request claims: its credential's key, the Idempotency-Key, the route, and when it was claimed. */
export interface KeyClaim {
  keyId: string;
  key: string;
  route: string;
  at: Date;
}

/** Whom a request was about, as far as its path, body or answer say. */
export interface RequestSubject {
  customerRef: string | null;
  conversationId: string | null;
}

export interface ClaimTimes {
  /** Records older than this are out of date: the key may be used anew. */
  keptMs: number;
  /** How long a running record stays held without its process renewing it. */
  leaseMs: number;
  /** A record written before leases existed (no `held_until`) counts as abandoned after this. */
  abandonedMs: number;
}

const ago = (at: Date, ms: number) => new Date(at.getTime() - ms);

/**
 * One statement claims the key for `holder`: a new one, or one whose record is out of date (older
 * than a day, or running with a lapsed lease) is taken over in place. False when another request holds it.
 */
export async function claimKey(
  db: Queryable,
  claim: KeyClaim & { requestHash: string; holder: string; subject: RequestSubject },
  times: ClaimTimes,
): Promise<boolean> {
  const { keyId, key, route, at, requestHash, holder, subject } = claim;
  const claimed = await db.query(
    `INSERT INTO idempotency_keys (key_id, idempotency_key, route, request_sha256, state, created_at, held_by, held_until, customer_ref, conversation_id)
       VALUES ($1, $2, $3, $4, 'running', $5, $8, $9, $10, $11)
       ON CONFLICT (key_id, idempotency_key, route) DO UPDATE
         SET request_sha256 = EXCLUDED.request_sha256, state = 'running', status = NULL, body = NULL, created_at = EXCLUDED.created_at,
           held_by = EXCLUDED.held_by, held_until = EXCLUDED.held_until,
           customer_ref = EXCLUDED.customer_ref, conversation_id = EXCLUDED.conversation_id
         WHERE idempotency_keys.created_at < $6
           OR (idempotency_keys.state = 'running' AND (idempotency_keys.held_until < $5
             OR (idempotency_keys.held_until IS NULL AND idempotency_keys.created_at < $7)))
       RETURNING 1`,
    [
      keyId,
      key,
      route,
      requestHash,
      at,
      ago(at, times.keptMs),
      ago(at, times.abandonedMs),
      holder,
      new Date(at.getTime() + times.leaseMs),
      subject.customerRef,
      subject.conversationId,
    ],
  );
  return claimed.length > 0;
}

/** Renews the lease of a running claim until `until`; nothing once it is done or taken over. */
export async function renewClaim(db: Queryable, { keyId, key, route, at }: KeyClaim, until: Date): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET held_until = $5
     WHERE key_id = $1 AND idempotency_key = $2 AND route = $3 AND created_at = $4 AND state = 'running'`,
    [keyId, key, route, at, until],
  );
}

/** The first request's answer, to replay; refused while it runs, or when this request is not the same. */
export async function keptAnswer(
  db: Queryable,
  { keyId, key, route }: KeyClaim,
  requestHash: string,
): Promise<{ status: number; body: string | null }> {
  const [first] = await db.query<{ request_sha256: string; state: string; status: number; body: string | null }>(
    'SELECT request_sha256, state, status, body FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2 AND route = $3',
    [keyId, key, route],
  );
  if (!first)
    throw new ParleyError(
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is being settled; retry in a moment.',
    );
  if (first.request_sha256 !== requestHash) {
    throw new ParleyError(
      'idempotency_key_reused',
      'This Idempotency-Key was used with a different request body. Use a new key for a new request.',
    );
  }
  if (first.state === 'running')
    throw new ParleyError(
      'idempotency_key_in_use',
      'The first request with this Idempotency-Key is still running; retry after it finishes.',
    );
  return first;
}

// Both match the claim's time too: a slow first request that a retry took over as abandoned
// must not overwrite or delete the retry's record.
export const keepAnswer = (
  db: Queryable,
  { keyId, key, route, at }: KeyClaim,
  answer: { status: number; body: string | null; subject: RequestSubject },
) =>
  db.query(
    `UPDATE idempotency_keys SET state = 'done', status = $5, body = $6, held_by = NULL, held_until = NULL,
       customer_ref = COALESCE(customer_ref, $7), conversation_id = COALESCE(conversation_id, $8)
     WHERE key_id = $1 AND idempotency_key = $2 AND route = $3 AND created_at = $4`,
    [keyId, key, route, at, answer.status, answer.body, answer.subject.customerRef, answer.subject.conversationId],
  );

export const forgetClaim = (db: Queryable, { keyId, key, route, at }: KeyClaim) =>
  db.query(
    'DELETE FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2 AND route = $3 AND created_at = $4',
    [keyId, key, route, at],
  );

/** Deletes the records older than `before`. */
export const pruneKeys = (db: Queryable, before: Date) =>
  db.query('DELETE FROM idempotency_keys WHERE created_at < $1', [before]);
