import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../shared/server/index.ts';
import type { Environment } from './inboxes.ts';

/** One customer of one inbox, in one environment: whose conversations a lookup may find. */
export interface ConversationOwner {
  inboxId: string;
  customerRef: string;
  environment: Environment;
}

/** A conversation as the BFF keeps it: its own ids, the customer, and the engine's id once known. */
export interface ConversationRecord {
  id: number;
  uuid: string;
  inboxId: string;
  customerRef: string;
  environment: Environment;
  /** The customer's language when the widget said it. */
  locale: string | null;
  engineConversationId: string | null;
  status: 'open' | 'resolved';
  handledBy: 'ai' | 'human';
  closeRequested: boolean;
  engineClosed: boolean;
  customerLastReadId: number;
  createdAt: Date;
}

export interface ConversationRow {
  id: number;
  uuid: string;
  inbox_id: string;
  customer_ref: string;
  environment: Environment;
  locale: string | null;
  engine_conversation_id: string | null;
  status: 'open' | 'resolved';
  handled_by: 'ai' | 'human';
  close_requested: boolean;
  engine_closed: boolean;
  customer_last_read_id: number;
  created_at: Date;
}

export const CONVERSATION_COLUMNS =
  'c.id, c.uuid, c.inbox_id, c.customer_ref, c.environment, c.locale, c.engine_conversation_id, c.status, c.handled_by, c.close_requested, c.engine_closed, c.customer_last_read_id, c.created_at';

/**
 * A row as `row_to_json` gives it, its timestamps ISO strings. The statements of every message
 * return their row as one JSON column: node-postgres describes each column of a result anew for every
 * statement (two objects keyed by every column's name, and a copy of one for each row). Measured
 * alone, a statement of 30 columns cost its client 55 to 86 µs of CPU, the same row as JSON 29 µs
 * (docs/PERFORMANCE.md, round 5).
 */
export type JsonRow<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

/** A conversation from a `row_to_json` row (see `JsonRow`). */
export const conversationFromJson = (row: JsonRow<ConversationRow>): ConversationRecord =>
  toConversationRecord({ ...row, created_at: new Date(row.created_at) });

export const toConversationRecord = (row: ConversationRow): ConversationRecord => ({
  id: row.id,
  uuid: row.uuid,
  inboxId: row.inbox_id,
  customerRef: row.customer_ref,
  environment: row.environment,
  locale: row.locale,
  engineConversationId: row.engine_conversation_id,
  status: row.status,
  handledBy: row.handled_by,
  closeRequested: row.close_requested,
  engineClosed: row.engine_closed,
  customerLastReadId: row.customer_last_read_id,
  createdAt: row.created_at,
});

/** Opens a conversation; `pageUrl` is the page the customer was on (an http(s) address), kept for the people who answer. */
export async function insertConversation(
  db: Queryable,
  owner: ConversationOwner,
  now: Date,
  contact: {
    name?: string | undefined;
    email?: string | undefined;
    pageUrl?: string | undefined;
    locale?: string | undefined;
  } = {},
): Promise<ConversationRecord> {
  const pageUrl = contact.pageUrl && /^https?:\/\//i.test(contact.pageUrl) ? contact.pageUrl.slice(0, 2000) : null;
  const [row] = await db.query<ConversationRow>(
    `INSERT INTO conversations AS c (uuid, inbox_id, customer_ref, environment, contact_name, contact_email, page_url, locale, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING ${CONVERSATION_COLUMNS}`,
    [
      randomUUID(),
      owner.inboxId,
      owner.customerRef,
      owner.environment,
      contact.name ?? null,
      contact.email ?? null,
      pageUrl,
      contact.locale ?? null,
      now,
    ],
  );
  return toConversationRecord(row!);
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `uuid` can be a conversation's public id (anything else is found nowhere, without asking the store). */
export const isConversationUuid = (uuid: string): boolean => UUID_PATTERN.test(uuid);

/** The customer's conversation by its public id; undefined for anyone else's or a malformed id. */
export async function findCustomerConversation(
  db: Queryable,
  owner: ConversationOwner,
  uuid: string,
  lock = false,
): Promise<ConversationRecord | undefined> {
  if (!isConversationUuid(uuid)) return undefined;
  const [row] = await db.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.uuid = $1 AND c.inbox_id = $2 AND c.customer_ref = $3 AND c.environment = $4${lock ? ' FOR UPDATE' : ''}`,
    [uuid, owner.inboxId, owner.customerRef, owner.environment],
  );
  return row && toConversationRecord(row);
}

export async function findConversationById(
  db: Queryable,
  id: number,
  lock = false,
): Promise<ConversationRecord | undefined> {
  const [row] = await db.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row && toConversationRecord(row);
}

export async function findConversationByEngineId(
  db: Queryable,
  engineConversationId: string,
  lock = false,
): Promise<ConversationRecord | undefined> {
  const [row] = await db.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.engine_conversation_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [engineConversationId],
  );
  return row && toConversationRecord(row);
}

/** Records the engine's id for a conversation unless one is already there; gives the one that holds. */
export async function attachEngineConversation(
  db: Queryable,
  id: number,
  engineConversationId: string,
): Promise<string> {
  const [row] = await db.query<{ engine_conversation_id: string }>(
    'UPDATE conversations SET engine_conversation_id = COALESCE(engine_conversation_id, $2) WHERE id = $1 RETURNING engine_conversation_id',
    [id, engineConversationId],
  );
  return row!.engine_conversation_id;
}

/** A snooze that lasts until the customer writes again (which clears it: store/messages.ts). */
export const UNTIL_CUSTOMER_WRITES = 'infinity';

export interface ConversationChanges {
  status?: 'open' | 'resolved';
  handledBy?: 'ai' | 'human';
  closeRequested?: boolean;
  engineClosed?: boolean;
  resolvedByAi?: boolean;
  /** A person's snooze: until a time, or until the customer writes; null ends it. */
  snoozedUntil?: Date | typeof UNTIL_CUSTOMER_WRITES | null;
}

export async function updateConversation(
  db: Queryable,
  id: number,
  changes: ConversationChanges,
  now: Date,
): Promise<void> {
  const sets = ['updated_at = $2'];
  const params: unknown[] = [id, now];
  const columns: [keyof ConversationChanges, string][] = [
    ['status', 'status'],
    ['handledBy', 'handled_by'],
    ['closeRequested', 'close_requested'],
    ['engineClosed', 'engine_closed'],
    ['resolvedByAi', 'resolved_by_ai'],
    ['snoozedUntil', 'snoozed_until'],
  ];
  for (const [key, column] of columns) {
    if (changes[key] === undefined) continue;
    params.push(changes[key]);
    sets.push(`${column} = $${params.length}`);
  }
  await db.query(`UPDATE conversations SET ${sets.join(', ')} WHERE id = $1`, params);
}

/**
 * Opens a resolved conversation again for people, on a new engine conversation (`engineConversationId`,
 * already handed over there): the old one has ended for good, so its close is no longer owed. Only
 * while the conversation is still resolved on the engine conversation `from` and no relay is passing
 * something on for it (a relay that finished the old close afterwards would mark the new one closed).
 * Gives what held it back, if anything. Run it in a transaction.
 */
export async function reopenConversation(
  db: Queryable,
  id: number,
  from: string | null,
  engineConversationId: string,
  now: Date,
): Promise<'reopened' | 'changed' | 'relay_busy'> {
  const [current] = await db.query<{ status: string; engine_conversation_id: string | null; relay_busy: boolean }>(
    `SELECT status, engine_conversation_id, relay_owner IS NOT NULL AND relay_lease_until >= $2 AS relay_busy
     FROM conversations WHERE id = $1 FOR UPDATE`,
    [id, now],
  );
  if (!current || current.status !== 'resolved' || current.engine_conversation_id !== from) return 'changed';
  if (current.relay_busy) return 'relay_busy';
  await db.query(
    `UPDATE conversations SET status = 'open', handled_by = 'human', engine_conversation_id = $2, engine_closed = false, close_requested = false,
       resolved_by_ai = NULL, snoozed_until = NULL, updated_at = $3 WHERE id = $1`,
    [id, engineConversationId, now],
  );
  return 'reopened';
}

/** Moves the customer's read position forward (never back); gives the position that holds. */
export async function markReadUpTo(db: Queryable, id: number, lastReadId: number): Promise<number> {
  const [row] = await db.query<{ customer_last_read_id: number }>(
    `UPDATE conversations SET customer_last_read_id = GREATEST(customer_last_read_id, LEAST($2, COALESCE((SELECT max(id) FROM messages WHERE conversation_id = $1), 0)))
     WHERE id = $1 RETURNING customer_last_read_id`,
    [id, lastReadId],
  );
  return row!.customer_last_read_id;
}
