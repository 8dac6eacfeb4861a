import { newId, ParleyError, randomToken } from '../../../shared/index.ts';
import { insertDeliveries, type Queryable, type SecretBox } from '../../../shared/server/index.ts';

/** The helpdesk's webhook events (Chatwoot's names). */
export const DESK_EVENT_TYPES = [
  'conversation_created',
  'conversation_status_changed',
  'conversation_updated',
  'message_created',
  'message_updated',
  'webwidget_triggered',
] as const;
export type DeskEventType = (typeof DESK_EVENT_TYPES)[number];

/** An account's webhook, as the store keeps it. */
export interface DeskWebhookRecord {
  id: string;
  number: number;
  accountId: number;
  name: string | null;
  url: string;
  eventTypes: string[] | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: Date;
}

interface WebhookRow {
  id: string;
  number: number;
  account_id: number;
  name: string | null;
  url: string;
  event_types: string[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date;
}

const COLUMNS = 'id, number, account_id, name, url, event_types, enabled, disabled_reason, created_at';

const toWebhook = (row: WebhookRow): DeskWebhookRecord => ({
  id: row.id,
  number: row.number,
  accountId: row.account_id,
  name: row.name,
  url: row.url,
  eventTypes: row.event_types,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  createdAt: row.created_at,
});

export interface DeskWebhookFields {
  url?: string | undefined;
  name?: string | null | undefined;
  /** Null or empty: every event. */
  eventTypes?: readonly string[] | null | undefined;
}

/** Webhooks one account may have (each is sent to, so a tenant's count is bounded). */
export const MAX_DESK_WEBHOOKS = 20;

/** Adds an account webhook; gives it with its signing secret, which is shown this once. */
export async function insertDeskWebhook(
  db: Queryable,
  accountId: number,
  fields: DeskWebhookFields & { url: string },
  now: Date,
  box: SecretBox,
): Promise<{ webhook: DeskWebhookRecord; secret: string }> {
  const [{ count } = { count: 0 }] = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM webhook_endpoints WHERE account_id = $1 AND agent_bot_id IS NULL AND deleted_at IS NULL',
    [accountId],
  );
  if (count >= MAX_DESK_WEBHOOKS) {
    throw new ParleyError('unprocessable', `An account has at most ${MAX_DESK_WEBHOOKS} webhooks; remove one first.`, {
      problems: [{ field: 'url', message: 'too many webhooks' }],
    });
  }
  const secret = `whsec_${randomToken(32)}`;
  const [row] = await db.query<WebhookRow>(
    `INSERT INTO webhook_endpoints (id, account_id, name, url, event_types, secret, created_at) VALUES ($1, $2, $3, $4, $5::text[], $6, $7) RETURNING ${COLUMNS}`,
    [
      newId('webhookEndpoint'),
      accountId,
      fields.name ?? null,
      fields.url,
      fields.eventTypes?.length ? fields.eventTypes : null,
      box.seal(secret),
      now,
    ],
  );
  return { webhook: toWebhook(row!), secret };
}

export async function listDeskWebhooks(db: Queryable, accountId: number): Promise<DeskWebhookRecord[]> {
  const rows = await db.query<WebhookRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE account_id = $1 AND agent_bot_id IS NULL AND deleted_at IS NULL ORDER BY number`,
    [accountId],
  );
  return rows.map(toWebhook);
}

/** One of the account's webhooks by its number; a bot's outgoing_url or another account's is not found. */
export async function findDeskWebhook(db: Queryable, accountId: number, number: number): Promise<DeskWebhookRecord> {
  const [row] = await db.query<WebhookRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE account_id = $1 AND number = $2 AND agent_bot_id IS NULL AND deleted_at IS NULL`,
    [accountId, number],
  );
  if (!row) throw new ParleyError('not_found', `No webhook ${number} in this account.`);
  return toWebhook(row);
}

export async function updateDeskWebhook(
  db: Queryable,
  id: string,
  fields: DeskWebhookFields,
): Promise<DeskWebhookRecord> {
  const [row] = await db.query<WebhookRow>(
    `UPDATE webhook_endpoints SET url = COALESCE($2, url), name = CASE WHEN $3::boolean THEN $4 ELSE name END,
       event_types = CASE WHEN $5::boolean THEN $6::text[] ELSE event_types END WHERE id = $1 RETURNING ${COLUMNS}`,
    [
      id,
      fields.url ?? null,
      fields.name !== undefined,
      fields.name ?? null,
      fields.eventTypes !== undefined,
      fields.eventTypes?.length ? fields.eventTypes : null,
    ],
  );
  return toWebhook(row!);
}

/** Removes a webhook: nothing more is sent to it, and its deliveries go with it. */
export async function deleteDeskWebhook(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
}

/**
 * Keeps an agent bot's endpoint in step with its `outgoing_url`: made, moved or removed in the
 * caller's transaction. Its deliveries are signed with the bot's secret.
 */
export async function syncBotEndpoint(
  db: Queryable,
  bot: { id: number; accountId: number | null; outgoingUrl: string | null },
  now: Date,
): Promise<void> {
  if (!bot.outgoingUrl) {
    await db.query('DELETE FROM webhook_endpoints WHERE agent_bot_id = $1', [bot.id]);
    return;
  }
  const updated = await db.query(
    'UPDATE webhook_endpoints SET url = $2 WHERE agent_bot_id = $1 AND deleted_at IS NULL RETURNING id',
    [bot.id, bot.outgoingUrl],
  );
  if (updated.length > 0) return;
  await db.query(
    `INSERT INTO webhook_endpoints (id, account_id, agent_bot_id, url, secret, created_at)
     SELECT $1, b.account_id, b.id, $3, b.webhook_secret, $4 FROM agent_bots b WHERE b.id = $2`,
    [newId('webhookEndpoint'), bot.id, bot.outgoingUrl, now],
  );
}

/** An endpoint that hears of a conversation in an inbox: the account's webhooks, and the outgoing_url of the inbox's bot. */
export interface DeskTarget {
  endpointId: string;
  eventTypes: string[] | null;
  accountId: number;
  accountName: string;
  inboxNumber: number;
  inboxName: string;
}

interface DeskTargetRow {
  endpoint_id: string;
  event_types: string[] | null;
  account_id: number;
  account_name: string;
  inbox_number: number;
  inbox_name: string;
}

const toDeskTarget = (row: DeskTargetRow): DeskTarget => ({
  endpointId: row.endpoint_id,
  eventTypes: row.event_types,
  accountId: row.account_id,
  accountName: row.account_name,
  inboxNumber: row.inbox_number,
  inboxName: row.inbox_name,
});

const TARGETS_FROM = `FROM inboxes i JOIN accounts a ON a.id = i.account_id
     JOIN webhook_endpoints e ON e.enabled AND e.deleted_at IS NULL
       AND ((e.agent_bot_id IS NULL AND e.account_id = a.id) OR e.agent_bot_id = i.agent_bot_id)`;

/** Who hears of what happens in an inbox (one statement; none at all for most shops, and then nothing more is read). */
export async function deskTargets(db: Queryable, inboxId: string): Promise<DeskTarget[]> {
  const rows = await db.query<DeskTargetRow>(
    `SELECT e.id AS endpoint_id, e.event_types, a.id AS account_id, a.name AS account_name, i.display_id AS inbox_number, i.name AS inbox_name
     ${TARGETS_FROM}
     WHERE i.id = $1 ORDER BY e.number`,
    [inboxId],
  );
  return rows.map(toDeskTarget);
}

/** One helpdesk event, with its body (without the account and inbox, which the targets add). */
export interface DeskEvent {
  type: DeskEventType;
  body: Record<string, unknown>;
}

/**
 * Writes a delivery of each event to each target that takes its type, in the caller's transaction.
 * Each event gets one id (`X-Desk-Event-Id`) and a place in the helpdesk's order. Gives the number
 * of deliveries written.
 */
export async function writeDeskDeliveries(
  db: Queryable,
  targets: readonly DeskTarget[],
  events: readonly DeskEvent[],
  now: Date,
): Promise<number> {
  const first = targets[0];
  if (!first || events.length === 0) return 0;
  const places = (
    await db.query<{ seq: string }>("SELECT nextval('desk_event_seq')::text AS seq FROM generate_series(1, $1)", [
      events.length,
    ])
  )
    .map((row) => Number(row.seq))
    .sort((a, b) => a - b);
  const numbered = events.map((event, index) => ({ ...event, id: newId('event'), seq: places[index]! }));
  const deliveries = targets.flatMap((target) =>
    numbered
      .filter((event) => !target.eventTypes || target.eventTypes.includes(event.type))
      .map((event) => ({
        endpointId: target.endpointId,
        eventId: event.id,
        eventType: event.type,
        eventSeq: event.seq,
        body: JSON.stringify({
          event: event.type,
          ...event.body,
          account: { id: target.accountId, name: target.accountName },
          inbox: { id: target.inboxNumber, name: target.inboxName },
        }),
      })),
  );
  return (await insertDeliveries(db, deliveries, now)).length;
}
