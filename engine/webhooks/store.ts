import { newId, ParleyError, randomToken, type WebhookDelivery, type WebhookEndpoint } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { Caller, Environment } from '../store/environment.ts';

/** Waits between attempts (SPEC "Webhook delivery"): 8 attempts over about a day. */
export const RETRY_WAITS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000];
const MAX_ATTEMPTS = RETRY_WAITS_MS.length + 1;
/** An endpoint whose every attempt has failed for this long is switched off. */
const SWITCH_OFF_AFTER_MS = 5 * 24 * 3600_000;
/** Deliveries and their attempts are kept this long. */
const KEEP_DELIVERIES_MS = 30 * 24 * 3600_000;

type Owner = Pick<Caller, 'accountId' | 'environment'>;

interface EndpointRow {
  id: string;
  url: string;
  environment: Environment;
  event_types: string[] | null;
  description: string;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date;
}

const ENDPOINT_COLUMNS = 'id, url, environment, event_types, description, enabled, disabled_reason, created_at';

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  environment: row.environment,
  event_types: row.event_types,
  description: row.description,
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  created_at: row.created_at.toISOString(),
});

/** Adds an endpoint that receives the events recorded from now on. Gives it with its secret, shown this once. */
export async function insertEndpoint(db: Queryable, owner: Owner, input: { url: string; eventTypes: string[] | undefined; description: string }, now: Date): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = `whsec_${randomToken(32)}`;
  const [row] = await db.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, account_id, environment, url, event_types, description, secret, fed_seq, created_at)
     SELECT $1, $2, $3, $4, $5::text[], $6, $7, f.last_seq, $8 FROM feeds f WHERE f.account_id = $2 AND f.environment = $3
     RETURNING ${ENDPOINT_COLUMNS}`,
    [newId('webhookEndpoint'), owner.accountId, owner.environment, input.url, input.eventTypes ?? null, input.description, secret, now],
  );
  if (!row) throw new Error(`no feed for account ${owner.accountId} (${owner.environment})`);
  return { endpoint: toEndpoint(row), secret };
}

export async function listEndpoints(db: Queryable, owner: Owner): Promise<WebhookEndpoint[]> {
  const rows = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE account_id = $1 AND environment = $2 AND deleted_at IS NULL ORDER BY created_at, id`,
    [owner.accountId, owner.environment],
  );
  return rows.map(toEndpoint);
}

export async function findEndpoint(db: Queryable, owner: Owner, id: string): Promise<WebhookEndpoint> {
  const [row] = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND environment = $3 AND deleted_at IS NULL`,
    [id, owner.accountId, owner.environment],
  );
  if (!row) throw new ParleyError('not_found', `No webhook endpoint ${id} in this account.`);
  return toEndpoint(row);
}

/** Removes an endpoint: nothing more is sent to it. Its delivery records age out with the rest. */
export async function deleteEndpoint(db: Queryable, owner: Owner, id: string, now: Date): Promise<void> {
  await findEndpoint(db, owner, id);
  await db.query('UPDATE webhook_endpoints SET deleted_at = $2, enabled = false WHERE id = $1', [id, now]);
}

/** Switches an endpoint on again (after it was switched off for failing); it goes on from where its feed stopped. */
export async function enableEndpoint(db: Queryable, owner: Owner, id: string): Promise<WebhookEndpoint> {
  await findEndpoint(db, owner, id);
  const [row] = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET enabled = true, disabled_reason = NULL, failing_since = NULL WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
    [id],
  );
  return toEndpoint(row!);
}

/** The body every attempt of a delivery posts: the event as in the feed, plus its environment. */
export function deliveryBody(event: { id: string; type: string; created_at: string; conversation_id: string | null; data: unknown }, environment: Environment): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, conversation_id: event.conversation_id, data: event.data, environment });
}

/**
 * Turns the new feed events of one endpoint into deliveries and moves its cursor past them, in
 * one transaction. Endpoints another process is feeding are skipped (SKIP LOCKED). Gives how many
 * events were read, so the caller knows whether to go on.
 */
export async function feedOneEndpoint(tx: Queryable, endpointId: string, batch: number, now: Date): Promise<number> {
  const [endpoint] = await tx.query<{ id: string; account_id: string; environment: Environment; event_types: string[] | null; fed_seq: string }>(
    'SELECT id, account_id, environment, event_types, fed_seq FROM webhook_endpoints WHERE id = $1 AND enabled AND deleted_at IS NULL FOR UPDATE SKIP LOCKED',
    [endpointId],
  );
  if (!endpoint) return 0;
  const events = await tx.query<{ seq: string; id: string; type: string; conversation_id: string | null; data: unknown; created_at: Date }>(
    'SELECT seq, id, type, conversation_id, data, created_at FROM events WHERE account_id = $1 AND environment = $2 AND seq > $3 ORDER BY seq LIMIT $4',
    [endpoint.account_id, endpoint.environment, endpoint.fed_seq, batch],
  );
  if (events.length === 0) return 0;
  for (const event of events) {
    if (endpoint.event_types && !endpoint.event_types.includes(event.type)) continue;
    await tx.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, event_seq, body, status, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7) ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      [newId('webhookDelivery'), endpoint.id, event.id, event.type, event.seq, deliveryBody({ ...event, created_at: event.created_at.toISOString() }, endpoint.environment), now],
    );
  }
  await tx.query('UPDATE webhook_endpoints SET fed_seq = $2 WHERE id = $1', [endpoint.id, events.at(-1)!.seq]);
  return events.length;
}

/** Endpoints that are switched on (the ones there is feeding to do for). */
export async function enabledEndpointIds(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM webhook_endpoints WHERE enabled AND deleted_at IS NULL ORDER BY id');
  return rows.map((row) => row.id);
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
 * Claims deliveries that are due (or the one named by `only`), for `leaseMs`: another process
 * skips them meanwhile, and takes them up again only if this one died before recording the attempt.
 */
export async function claimDue(db: Queryable, now: Date, leaseMs: number, limit: number, only?: string): Promise<ClaimedDelivery[]> {
  const rows = await db.query<{ id: string; endpoint_id: string; event_id: string; event_type: string; event_seq: string; body: string; round_attempts: number; url: string; secret: string }>(
    `UPDATE webhook_deliveries d SET next_attempt_at = $2
     FROM (
       SELECT d2.id FROM webhook_deliveries d2 JOIN webhook_endpoints e2 ON e2.id = d2.endpoint_id
       WHERE d2.status = 'pending' AND d2.next_attempt_at <= $1 AND e2.enabled AND e2.deleted_at IS NULL ${only ? 'AND d2.id = $4' : ''}
       ORDER BY d2.next_attempt_at, d2.event_seq LIMIT $3 FOR UPDATE OF d2 SKIP LOCKED
     ) due, webhook_endpoints e
     WHERE d.id = due.id AND e.id = d.endpoint_id
     RETURNING d.id, d.endpoint_id, d.event_id, d.event_type, d.event_seq, d.body, d.round_attempts, e.url, e.secret`,
    only ? [now, new Date(now.getTime() + leaseMs), limit, only] : [now, new Date(now.getTime() + leaseMs), limit],
  );
  // RETURNING keeps no order: put each endpoint's deliveries back in feed order.
  rows.sort((a, b) => Number(a.event_seq) - Number(b.event_seq));
  return rows.map((row) => ({ id: row.id, endpointId: row.endpoint_id, eventId: row.event_id, eventType: row.event_type, body: row.body, roundAttempts: row.round_attempts, url: row.url, secret: row.secret }));
}

export interface AttemptResult {
  status: number | null;
  error: string | null;
  durationMs: number;
}

export const succeeded = (result: AttemptResult) => result.status !== null && result.status >= 200 && result.status < 300;

/**
 * Records one attempt and moves the delivery on: delivered after a 2xx; otherwise retried after
 * the next wait, or failed after the 8th attempt. The endpoint's failing streak starts or ends
 * here, and five days of it switch the endpoint off.
 */
export async function recordAttempt(tx: Queryable, delivery: ClaimedDelivery, result: AttemptResult, now: Date): Promise<void> {
  await tx.query('INSERT INTO webhook_attempts (delivery_id, at, status, error, duration_ms) VALUES ($1, $2, $3, $4, $5)', [delivery.id, now, result.status, result.error, Math.round(result.durationMs)]);
  if (succeeded(result)) {
    await tx.query("UPDATE webhook_deliveries SET status = 'delivered', round_attempts = round_attempts + 1, next_attempt_at = NULL WHERE id = $1", [delivery.id]);
    await tx.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1', [delivery.endpointId]);
    return;
  }
  const attempts = delivery.roundAttempts + 1;
  const wait = RETRY_WAITS_MS[attempts - 1];
  if (attempts >= MAX_ATTEMPTS || wait === undefined) {
    await tx.query("UPDATE webhook_deliveries SET status = 'failed', round_attempts = $2, next_attempt_at = NULL WHERE id = $1", [delivery.id, attempts]);
  } else {
    await tx.query('UPDATE webhook_deliveries SET round_attempts = $2, next_attempt_at = $3 WHERE id = $1', [delivery.id, attempts, new Date(now.getTime() + wait)]);
  }
  await tx.query(
    `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2),
       enabled = CASE WHEN COALESCE(failing_since, $2) <= $3 THEN false ELSE enabled END,
       disabled_reason = CASE WHEN COALESCE(failing_since, $2) <= $3 THEN 'Every delivery failed for 5 days.' ELSE disabled_reason END
     WHERE id = $1`,
    [delivery.endpointId, now, new Date(now.getTime() - SWITCH_OFF_AFTER_MS)],
  );
}

/** A `ping` test event for one endpoint, due at once (it is not part of the feed). */
export async function insertPing(db: Queryable, owner: Owner, endpointId: string, now: Date): Promise<string> {
  await findEndpoint(db, owner, endpointId);
  const id = newId('webhookDelivery');
  const event = { id: newId('event'), type: 'ping', created_at: now.toISOString(), conversation_id: null, data: {} };
  await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, event_seq, body, status, next_attempt_at, created_at) VALUES ($1, $2, $3, 'ping', 0, $4, 'pending', $5, $5)`,
    [id, endpointId, event.id, deliveryBody(event, owner.environment), now],
  );
  return id;
}

/** Sends a delivery that is not pending again, as a new round of attempts starting now. */
export async function resendDelivery(db: Queryable, owner: Owner, id: string, now: Date): Promise<void> {
  const [row] = await db.query<{ status: string }>(
    `SELECT d.status FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.id = $1 AND e.account_id = $2 AND e.environment = $3 AND e.deleted_at IS NULL`,
    [id, owner.accountId, owner.environment],
  );
  if (!row) throw new ParleyError('not_found', `No webhook delivery ${id} in this account.`);
  if (row.status === 'pending') throw new ParleyError('invalid_state', `Delivery ${id} is still being attempted.`);
  await db.query("UPDATE webhook_deliveries SET status = 'pending', round_attempts = 0, next_attempt_at = $2 WHERE id = $1", [id, now]);
}

/** Deliveries of an endpoint, newest first (at most 100), each with its attempts. */
export async function listDeliveries(db: Queryable, owner: Owner, endpointId: string, status?: string, only?: string): Promise<WebhookDelivery[]> {
  await findEndpoint(db, owner, endpointId);
  const params: unknown[] = [endpointId];
  let filter = '';
  if (status) filter += ` AND d.status = $${params.push(status)}`;
  if (only) filter += ` AND d.id = $${params.push(only)}`;
  const rows = await db.query<{ id: string; endpoint_id: string; event_id: string; event_type: string; status: WebhookDelivery['status']; next_attempt_at: Date | null; created_at: Date; attempts: { at: string; status: number | null; error: string | null; duration_ms: number }[] }>(
    `SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.status, d.next_attempt_at, d.created_at,
       COALESCE((SELECT json_agg(json_build_object('at', a.at, 'status', a.status, 'error', a.error, 'duration_ms', a.duration_ms) ORDER BY a.id)
                 FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempts
     FROM webhook_deliveries d WHERE d.endpoint_id = $1${filter}
     ORDER BY d.created_at DESC, d.event_seq DESC, d.id DESC LIMIT 100`,
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
  await db.query("DELETE FROM webhook_deliveries WHERE created_at < $1 AND status <> 'pending'", [new Date(now.getTime() - KEEP_DELIVERIES_MS)]);
}
