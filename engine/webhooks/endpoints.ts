import { newId, ParleyError, randomToken, type WebhookDelivery, type WebhookEndpoint } from '../../shared/index.ts';
import {
  insertDeliveries,
  listDeliveries,
  resendDelivery,
  type Queryable,
  type SecretBox,
  type Sql,
} from '../../shared/server/index.ts';
import type { Caller, Environment } from '../store/environment.ts';

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

/** Endpoints one account may have in one environment: each is fed and sent to, so a tenant's count is bounded. */
export const MAX_ENDPOINTS = 20;

/** Adds an endpoint that receives the events recorded from now on. Gives it with its secret, shown this once. */
export async function insertEndpoint(
  db: Queryable,
  owner: Owner,
  input: { url: string; eventTypes: string[] | undefined; description: string },
  now: Date,
  box: SecretBox,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const [{ count } = { count: 0 }] = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM webhook_endpoints WHERE account_id = $1 AND environment = $2 AND deleted_at IS NULL',
    [owner.accountId, owner.environment],
  );
  if (count >= MAX_ENDPOINTS)
    throw new ParleyError(
      'unprocessable',
      `An account has at most ${MAX_ENDPOINTS} webhook endpoints in each environment; remove one first.`,
    );
  const secret = `whsec_${randomToken(32)}`;
  const [row] = await db.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, account_id, environment, url, event_types, description, secret, fed_seq, created_at)
     SELECT $1, $2, $3, $4, $5::text[], $6, $7, f.last_seq, $8 FROM feeds f WHERE f.account_id = $2 AND f.environment = $3
     RETURNING ${ENDPOINT_COLUMNS}`,
    [
      newId('webhookEndpoint'),
      owner.accountId,
      owner.environment,
      input.url,
      input.eventTypes ?? null,
      input.description,
      box.seal(secret),
      now,
    ],
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
export function deliveryBody(
  event: { id: string; type: string; created_at: string; conversation_id: string | null; data: unknown },
  environment: Environment,
): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    conversation_id: event.conversation_id,
    data: event.data,
    environment,
  });
}

/**
 * Turns the new feed events of one endpoint into deliveries and moves its cursor past them, in
 * one transaction. Endpoints another process is feeding are skipped (SKIP LOCKED). Gives how many
 * events were read, so the caller knows whether to go on.
 */
export async function feedOneEndpoint(tx: Queryable, endpointId: string, batch: number, now: Date): Promise<number> {
  const [endpoint] = await tx.query<{
    id: string;
    account_id: string;
    environment: Environment;
    event_types: string[] | null;
    fed_seq: string;
  }>(
    'SELECT id, account_id, environment, event_types, fed_seq FROM webhook_endpoints WHERE id = $1 AND enabled AND deleted_at IS NULL FOR UPDATE SKIP LOCKED',
    [endpointId],
  );
  if (!endpoint) return 0;
  const events = await tx.query<{
    seq: string;
    id: string;
    type: string;
    conversation_id: string | null;
    data: unknown;
    created_at: Date;
  }>(
    'SELECT seq, id, type, conversation_id, data, created_at FROM events WHERE account_id = $1 AND environment = $2 AND seq > $3 ORDER BY seq LIMIT $4',
    [endpoint.account_id, endpoint.environment, endpoint.fed_seq, batch],
  );
  if (events.length === 0) return 0;
  for (const event of events) {
    if (endpoint.event_types && !endpoint.event_types.includes(event.type)) continue;
    await tx.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, event_seq, body, status, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7) ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      [
        newId('webhookDelivery'),
        endpoint.id,
        event.id,
        event.type,
        event.seq,
        deliveryBody({ ...event, created_at: event.created_at.toISOString() }, endpoint.environment),
        now,
      ],
    );
  }
  await tx.query('UPDATE webhook_endpoints SET fed_seq = $2 WHERE id = $1', [endpoint.id, events.at(-1)!.seq]);
  return events.length;
}

/** Endpoints that are switched on (the ones there is feeding to do for). */
export async function enabledEndpointIds(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM webhook_endpoints WHERE enabled AND deleted_at IS NULL ORDER BY id',
  );
  return rows.map((row) => row.id);
}

const FEED_BATCH = 500;

/** The worker's feed step: every switched-on endpoint gets deliveries for its new events, a batch at a time. */
export async function feedEndpoints(sql: Sql, now: Date): Promise<void> {
  for (const id of await enabledEndpointIds(sql)) {
    while ((await sql.transaction((tx) => feedOneEndpoint(tx, id, FEED_BATCH, now))) === FEED_BATCH) {
      // A long backlog is read a batch at a time.
    }
  }
}

/** A `ping` test event for one endpoint, due at once (it is not part of the feed). */
export async function insertPing(db: Queryable, owner: Owner, endpointId: string, now: Date): Promise<string> {
  await findEndpoint(db, owner, endpointId);
  const event = { id: newId('event'), type: 'ping', created_at: now.toISOString(), conversation_id: null, data: {} };
  const [id] = await insertDeliveries(
    db,
    [{ endpointId, eventId: event.id, eventType: 'ping', eventSeq: 0, body: deliveryBody(event, owner.environment) }],
    now,
  );
  return id!;
}

/** Sends a delivery of the owner's that is not pending again, as a new round of attempts starting now. */
export async function resendOwnDelivery(db: Queryable, owner: Owner, id: string, now: Date): Promise<void> {
  const [row] = await db.query<{ endpoint_id: string }>(
    `SELECT d.endpoint_id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.id = $1 AND e.account_id = $2 AND e.environment = $3 AND e.deleted_at IS NULL`,
    [id, owner.accountId, owner.environment],
  );
  if (!row) throw new ParleyError('not_found', `No webhook delivery ${id} in this account.`);
  await resendDelivery(db, row.endpoint_id, id, now);
}

/** One delivery of one of the owner's endpoints, with its attempts. */
export async function findOwnDelivery(
  db: Queryable,
  owner: Owner,
  endpointId: string,
  id: string,
): Promise<WebhookDelivery> {
  await findEndpoint(db, owner, endpointId);
  const [delivery] = await listDeliveries(db, endpointId, { only: id });
  if (!delivery) throw new ParleyError('not_found', `No webhook delivery ${id} in this account.`);
  return delivery;
}

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  next: string | null;
  has_more: boolean;
}

/**
 * A page of the deliveries of one of the owner's endpoints, newest first, each with its attempts.
 * It pages as the feed does (SPEC: lists use cursors, never offsets): `after` is the last delivery
 * of the page before, and `next` the last of this one. The order is (created_at, event_seq, id)
 * descending, a total order, so a delivery written while a client pages is never seen twice or
 * skipped among those older than the cursor (it is newer, and shows on a fresh first page).
 */
export async function pageOwnDeliveries(
  db: Queryable,
  owner: Owner,
  endpointId: string,
  { status, after, limit }: { status?: string | undefined; after?: string | undefined; limit: number },
): Promise<DeliveryPage> {
  await findEndpoint(db, owner, endpointId);
  if (after) {
    const [cursor] = await db.query<{ id: string }>(
      'SELECT id FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2',
      [after, endpointId],
    );
    if (!cursor)
      throw new ParleyError(
        'invalid_request',
        `The cursor ${after} is not a delivery of this endpoint (deliveries are kept 30 days).`,
      );
  }
  // One more than the page: whether there is more is known without another question.
  const rows = await listDeliveries(db, endpointId, { status, after, limit: limit + 1 });
  const deliveries = rows.slice(0, limit);
  return { deliveries, next: deliveries.at(-1)?.id ?? after ?? null, has_more: rows.length > limit };
}
