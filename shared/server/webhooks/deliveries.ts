import { newId } from '../../ids.ts';
import { ParleyError } from '../../errors.ts';
import type { Queryable } from '../sql.ts';

/**
 * Deliveries and their attempts, the same for every room that sends webhooks (the engine's
 * `X-Service-*`, the helpdesk's `X-Desk-*`). Each room keeps three tables of the same shape in its
 * own schema: `webhook_endpoints` (at least `id`, `url`, `secret`, `enabled`, `disabled_reason`,
 * `failing_since`, `deleted_at`), `webhook_deliveries` and `webhook_attempts`; who may see an
 * endpoint is the room's own business, checked before these are called.
 */

/** Waits between attempts (SPEC "Webhook delivery"): 8 attempts over about a day. */
export const RETRY_WAITS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];
const MAX_ATTEMPTS = RETRY_WAITS_MS.length + 1;
/** An endpoint whose every attempt has failed for this long is switched off. */
const SWITCH_OFF_AFTER_MS = 5 * 24 * 3600_000;
/** Deliveries and their attempts are kept this long. */
const KEEP_DELIVERIES_MS = 30 * 24 * 3600_000;
/** A page of the deliveries list. */
export const DELIVERIES_PAGE = 100;

/** One event on its way to one endpoint, before it is written. */
export interface NewDelivery {
  endpointId: string;
  eventId: string;
  eventType: string;
  /** The event's place in its room's order: an endpoint's deliveries are sent in this order. */
  eventSeq: number | string;
  /** The exact body every attempt posts. */
  body: string;
}

/**
 * Writes deliveries, due at once, in the caller's transaction (so an event and its deliveries
 * commit together). The same event twice to one endpoint is written once. Gives the new ids.
 */
export async function insertDeliveries(
  db: Queryable,
  deliveries: readonly NewDelivery[],
  now: Date,
): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const params: unknown[] = [now];
  const rows = deliveries.map((delivery) => {
    const at = params.length;
    params.push(
      newId('webhookDelivery'),
      delivery.endpointId,
      delivery.eventId,
      delivery.eventType,
      delivery.eventSeq,
      delivery.body,
    );
    return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}, 'pending', $1, $1)`;
  });
  const inserted = await db.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, event_seq, body, status, next_attempt_at, created_at)
     VALUES ${rows.join(', ')} ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING id`,
    params,
  );
  return inserted.map((row) => row.id);
}

/** A delivery claimed for one attempt, with what it takes to send it. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  body: string;
  roundAttempts: number;
  url: string;
  secret: string;
}

/**
 * Claims deliveries that are due, for `leaseMs`: another process skips them meanwhile, and takes
 * them up again only if this one died before recording the attempt. At most `perEndpoint` of one
 * endpoint are claimed at once (its first ones in event order), so that sending them one after
 * another always ends within the lease; endpoints in `skipEndpoints` (this process is still
 * sending to them) are left for later. Pings are claimed even when their endpoint is switched off
 * (its events wait), so that a repaired receiver can be tested before it is switched on; a delivery
 * named by `only` (a ping sent at once) is claimed alone.
 */
export async function claimDue(
  db: Queryable,
  now: Date,
  leaseMs: number,
  limit: number,
  options: { only?: string | undefined; perEndpoint?: number; skipEndpoints?: readonly string[] } = {},
): Promise<ClaimedDelivery[]> {
  const params: unknown[] = [now, new Date(now.getTime() + leaseMs), limit, options.perEndpoint ?? limit];
  // A switched-off endpoint gets its pings all the same (and their retries): a ping is how a repair is tested.
  const filters = options.only ? [`d2.id = $${params.push(options.only)}`] : ["(e2.enabled OR d2.event_type = 'ping')"];
  if (options.skipEndpoints?.length)
    filters.push(`NOT (d2.endpoint_id = ANY($${params.push(options.skipEndpoints)}::text[]))`);
  // FOR UPDATE takes no window function: lock candidates first, then keep each endpoint's first few.
  const rows = await db.query<{
    id: string;
    endpoint_id: string;
    event_id: string;
    event_type: string;
    event_seq: string;
    body: string;
    round_attempts: number;
    url: string;
    secret: string;
  }>(
    `UPDATE webhook_deliveries d SET next_attempt_at = $2
     FROM (
       SELECT ranked.id FROM (
         SELECT candidate.id, candidate.next_attempt_at, candidate.event_seq,
           row_number() OVER (PARTITION BY candidate.endpoint_id ORDER BY candidate.event_seq) AS place
         FROM (
           SELECT d2.id, d2.endpoint_id, d2.event_seq, d2.next_attempt_at
           FROM webhook_deliveries d2 JOIN webhook_endpoints e2 ON e2.id = d2.endpoint_id
           WHERE d2.status = 'pending' AND d2.next_attempt_at <= $1 AND e2.deleted_at IS NULL AND ${filters.join(' AND ')}
           ORDER BY d2.next_attempt_at, d2.event_seq LIMIT $3 * 4 FOR UPDATE OF d2 SKIP LOCKED
         ) candidate
       ) ranked
       WHERE ranked.place <= $4 ORDER BY ranked.next_attempt_at, ranked.event_seq LIMIT $3
     ) due, webhook_endpoints e
     WHERE d.id = due.id AND e.id = d.endpoint_id
     RETURNING d.id, d.endpoint_id, d.event_id, d.event_type, d.event_seq, d.body, d.round_attempts, e.url, e.secret`,
    params,
  );
  // RETURNING keeps no order: put each endpoint's deliveries back in their events' order.
  rows.sort((a, b) => Number(a.event_seq) - Number(b.event_seq));
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    body: row.body,
    roundAttempts: row.round_attempts,
    url: row.url,
    secret: row.secret,
  }));
}

export interface AttemptResult {
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The receiver's answer, when the sender was asked to keep it (`answerLimit`). */
  answer?: string;
}

export const succeeded = (result: AttemptResult) =>
  result.status !== null && result.status >= 200 && result.status < 300;

/**
 * Records one attempt and moves the delivery on: delivered after a 2xx; otherwise retried after
 * the next wait, or failed after the 8th attempt. The endpoint's failing streak starts or ends
 * here, and five days of it switch the endpoint off.
 */
export async function recordAttempt(
  tx: Queryable,
  delivery: ClaimedDelivery,
  result: AttemptResult,
  now: Date,
): Promise<void> {
  await tx.query(
    'INSERT INTO webhook_attempts (delivery_id, at, status, error, duration_ms) VALUES ($1, $2, $3, $4, $5)',
    [delivery.id, now, result.status, result.error, Math.round(result.durationMs)],
  );
  if (succeeded(result)) {
    await tx.query(
      "UPDATE webhook_deliveries SET status = 'delivered', round_attempts = round_attempts + 1, next_attempt_at = NULL WHERE id = $1",
      [delivery.id],
    );
    await tx.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1', [delivery.endpointId]);
    return;
  }
  const attempts = delivery.roundAttempts + 1;
  const wait = RETRY_WAITS_MS[attempts - 1];
  if (attempts >= MAX_ATTEMPTS || wait === undefined) {
    await tx.query(
      "UPDATE webhook_deliveries SET status = 'failed', round_attempts = $2, next_attempt_at = NULL WHERE id = $1",
      [delivery.id, attempts],
    );
  } else {
    await tx.query('UPDATE webhook_deliveries SET round_attempts = $2, next_attempt_at = $3 WHERE id = $1', [
      delivery.id,
      attempts,
      new Date(now.getTime() + wait),
    ]);
  }
  await tx.query(
    `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2),
       enabled = CASE WHEN COALESCE(failing_since, $2) <= $3 THEN false ELSE enabled END,
       disabled_reason = CASE WHEN COALESCE(failing_since, $2) <= $3 THEN 'Every delivery failed for 5 days.' ELSE disabled_reason END
     WHERE id = $1`,
    [delivery.endpointId, now, new Date(now.getTime() - SWITCH_OFF_AFTER_MS)],
  );
}

/** Switches an endpoint on again (after it was switched off for failing). */
export async function enableEndpointRow(db: Queryable, endpointId: string): Promise<void> {
  await db.query(
    'UPDATE webhook_endpoints SET enabled = true, disabled_reason = NULL, failing_since = NULL WHERE id = $1 AND deleted_at IS NULL',
    [endpointId],
  );
}

/**
 * Sends a delivery of `endpointId` that is not pending again, as a new round of attempts starting
 * now. The caller has checked that the endpoint is the asker's.
 */
export async function resendDelivery(db: Queryable, endpointId: string, id: string, now: Date): Promise<void> {
  const [row] = await db.query<{ status: string }>(
    'SELECT status FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2',
    [id, endpointId],
  );
  if (!row) throw new ParleyError('not_found', `No webhook delivery ${id} here.`);
  if (row.status === 'pending') throw new ParleyError('invalid_state', `Delivery ${id} is still being attempted.`);
  await db.query(
    "UPDATE webhook_deliveries SET status = 'pending', round_attempts = 0, next_attempt_at = $2 WHERE id = $1",
    [id, now],
  );
}

/** A delivery as the APIs show it, with every attempt. */
export interface DeliveryRecord {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  next_attempt_at: string | null;
  attempts: { at: string; status: number | null; error: string | null; duration_ms: number }[];
  created_at: string;
}

/**
 * Deliveries of one endpoint, newest first, each with its attempts: `limit` of them (100), either
 * page `page` (from 1; the helpdesk pages by number) or those older than the delivery `after` (a
 * cursor, as the engine pages; the order is a total one, so paging never skips or repeats).
 */
export async function listDeliveries(
  db: Queryable,
  endpointId: string,
  filter: {
    status?: string | undefined;
    only?: string | undefined;
    page?: number;
    after?: string | undefined;
    limit?: number;
  } = {},
): Promise<DeliveryRecord[]> {
  const limit = filter.limit ?? DELIVERIES_PAGE;
  const params: unknown[] = [endpointId, limit, ((filter.page ?? 1) - 1) * limit];
  let where = '';
  if (filter.status) where += ` AND d.status = $${params.push(filter.status)}`;
  if (filter.only) where += ` AND d.id = $${params.push(filter.only)}`;
  // Compared in the store, not through JavaScript dates, which would lose the microseconds.
  if (filter.after)
    where += ` AND (d.created_at, d.event_seq, d.id) < (SELECT c.created_at, c.event_seq, c.id FROM webhook_deliveries c WHERE c.id = $${params.push(filter.after)})`;
  const rows = await db.query<{
    id: string;
    endpoint_id: string;
    event_id: string;
    event_type: string;
    status: DeliveryRecord['status'];
    next_attempt_at: Date | null;
    created_at: Date;
    attempts: DeliveryRecord['attempts'];
  }>(
    `SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.status, d.next_attempt_at, d.created_at,
       COALESCE((SELECT json_agg(json_build_object('at', a.at, 'status', a.status, 'error', a.error, 'duration_ms', a.duration_ms) ORDER BY a.id)
                 FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempts
     FROM webhook_deliveries d WHERE d.endpoint_id = $1${where}
     ORDER BY d.created_at DESC, d.event_seq DESC, d.id DESC LIMIT $2 OFFSET $3`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    next_attempt_at: row.status === 'pending' && row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    attempts: row.attempts.map((attempt) => ({ ...attempt, at: new Date(attempt.at).toISOString() })),
    created_at: row.created_at.toISOString(),
  }));
}

/** Forgets deliveries (and their attempts) older than 30 days that are no longer being attempted. */
export async function pruneDeliveries(db: Queryable, now: Date): Promise<void> {
  await db.query("DELETE FROM webhook_deliveries WHERE created_at < $1 AND status <> 'pending'", [
    new Date(now.getTime() - KEEP_DELIVERIES_MS),
  ]);
}
