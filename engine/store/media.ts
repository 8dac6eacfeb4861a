import { newId, type MediaRecord } from '../../shared/index.ts';
import type { MediaFacts, Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

interface MediaRow {
  id: string;
  account_id: string;
  environment: Caller['environment'];
  conversation_id: string | null;
  type: MediaRecord['type'];
  size: number;
  width: number | null;
  height: number | null;
  pages: number | null;
  duration_s: number | null;
  name: string | null;
  status: MediaRecord['status'];
  text: string | null;
  failure_reason: string | null;
  created_at: Date;
  processed_at: Date | null;
}

const COLUMNS =
  'id, account_id, environment, conversation_id, type, size, width, height, pages, duration_s, name, status, text, failure_reason, created_at, processed_at';

/** A medium as the API shows it. */
export const toMediaRecord = (row: MediaRow): MediaRecord => ({
  id: row.id,
  conversation_id: row.conversation_id,
  type: row.type,
  size: row.size,
  width: row.width,
  height: row.height,
  pages: row.pages,
  duration_s: row.duration_s,
  name: row.name,
  status: row.status,
  text: row.text,
  failure_reason: row.failure_reason,
  created_at: row.created_at.toISOString(),
  processed_at: row.processed_at?.toISOString() ?? null,
});

/**
 * How many bytes of media the account keeps, in both environments: its storage cap
 * (MEDIA_STORAGE_MAX_BYTES) counts them all. Locks the account's row, so that uploads of one account
 * are counted one after another (call it in the transaction that inserts).
 */
export async function lockedMediaBytes(db: Queryable, accountId: string): Promise<number> {
  await db.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
  const [row] = await db.query<{ bytes: string | number }>(
    'SELECT coalesce(sum(size), 0)::bigint AS bytes FROM media WHERE account_id = $1',
    [accountId],
  );
  return Number(row?.bytes ?? 0);
}

/** Keeps an uploaded medium (its record and its bytes), `processing` until it is understood. */
export async function insertMedia(
  db: Queryable,
  caller: Pick<Caller, 'accountId' | 'environment'>,
  upload: { facts: MediaFacts; bytes: Buffer; name: string | null; conversationId: string | null },
  now: Date,
): Promise<MediaRecord> {
  const id = newId('media');
  // One statement: the record and its bytes are kept together or not at all.
  const [row] = await db.query<MediaRow>(
    `WITH record AS (
       INSERT INTO media (id, account_id, environment, conversation_id, type, size, width, height, duration_s, name, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $12, $9, 'processing', $10) RETURNING ${COLUMNS}
     ), bytes AS (
       INSERT INTO media_bytes (media_id, bytes) SELECT id, $11 FROM record
     )
     SELECT ${COLUMNS} FROM record`,
    [
      id,
      caller.accountId,
      caller.environment,
      upload.conversationId,
      upload.facts.type,
      upload.facts.size,
      upload.facts.width ?? null,
      upload.facts.height ?? null,
      upload.name,
      now,
      upload.bytes,
      upload.facts.durationS ?? null,
    ],
  );
  return toMediaRecord(row!);
}

/** The caller's medium; undefined for anyone else's (another account's, or the other environment's). */
export async function findMedia(
  db: Queryable,
  caller: Pick<Caller, 'accountId' | 'environment'>,
  id: string,
): Promise<MediaRecord | undefined> {
  const [row] = await db.query<MediaRow>(
    `SELECT ${COLUMNS} FROM media WHERE id = $1 AND account_id = $2 AND environment = $3`,
    [id, caller.accountId, caller.environment],
  );
  return row && toMediaRecord(row);
}

/** The caller's medium with its bytes. */
export async function findMediaContent(
  db: Queryable,
  caller: Pick<Caller, 'accountId' | 'environment'>,
  id: string,
): Promise<{ record: MediaRecord; bytes: Buffer } | undefined> {
  const [row] = await db.query<MediaRow & { bytes: Uint8Array }>(
    `SELECT ${COLUMNS.split(', ')
      .map((column) => `m.${column}`)
      .join(', ')}, b.bytes
     FROM media m JOIN media_bytes b ON b.media_id = m.id WHERE m.id = $1 AND m.account_id = $2 AND m.environment = $3`,
    [id, caller.accountId, caller.environment],
  );
  // pg gives a Buffer, PGlite a Uint8Array.
  return (
    row && {
      record: toMediaRecord(row),
      bytes: Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength),
    }
  );
}

/** A medium taken for understanding, with whose it is and its bytes. */
export interface ClaimedMedia {
  record: MediaRecord;
  owner: Pick<Caller, 'accountId' | 'environment'>;
  bytes: Buffer;
  attempts: number;
  leaseUntil: Date;
}

/**
 * Takes the oldest medium still `processing` whose lease is free (never taken, or run out: the
 * process that took it died), until `leaseUntil`. SKIP LOCKED lets several engine processes take
 * different ones at once.
 */
export async function claimMedia(db: Queryable, now: Date, leaseUntil: Date): Promise<ClaimedMedia | undefined> {
  const [row] = await db.query<MediaRow & { bytes: Uint8Array; attempts: number }>(
    `WITH next AS (
       SELECT id FROM media WHERE status = 'processing' AND (lease_until IS NULL OR lease_until < $1)
       ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
     ), taken AS (
       UPDATE media m SET lease_until = $2, attempts = m.attempts + 1 FROM next WHERE m.id = next.id RETURNING m.*
     )
     SELECT ${COLUMNS.split(', ')
       .map((column) => `taken.${column}`)
       .join(', ')}, taken.attempts, b.bytes
     FROM taken JOIN media_bytes b ON b.media_id = taken.id`,
    [now, leaseUntil],
  );
  if (!row) return undefined;
  return {
    record: toMediaRecord(row),
    owner: { accountId: row.account_id, environment: row.environment },
    bytes: Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength),
    attempts: row.attempts,
    leaseUntil,
  };
}

/** When the next lease held by someone runs out, if a medium is still being understood elsewhere. */
export async function nextLeaseEnd(db: Queryable, now: Date): Promise<Date | undefined> {
  const [row] = await db.query<{ at: Date | null }>(
    "SELECT min(lease_until) AS at FROM media WHERE status = 'processing' AND lease_until >= $1",
    [now],
  );
  return row?.at ?? undefined;
}

/** How understanding ended: a voice note's words are its `text` (`transcribed`); a failure says why, and its kind. */
export type MediaOutcome =
  | { status: 'understood'; pages?: number | undefined; text?: string | undefined; transcribed?: boolean }
  | { status: 'failed'; reason: string; code?: 'not_configured' | 'unreadable' | 'unavailable' };

/**
 * Records what became of a claimed medium, only while the claim is still this one's (same lease):
 * gives false when another process took it over meanwhile, and then nothing is written.
 */
export async function settleMedia(
  db: Queryable,
  claimed: ClaimedMedia,
  outcome: MediaOutcome,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE media SET status = $3, pages = $4, text = $5, failure_reason = $6, processed_at = $7, lease_until = NULL
     WHERE id = $1 AND status = 'processing' AND lease_until = $2 RETURNING 1`,
    [
      claimed.record.id,
      claimed.leaseUntil,
      outcome.status,
      outcome.status === 'understood' ? (outcome.pages ?? null) : null,
      outcome.status === 'understood' ? (outcome.text ?? null) : null,
      outcome.status === 'failed' ? outcome.reason : null,
      now,
    ],
  );
  return rows.length > 0;
}

/**
 * Erases the media sent in these conversations (records and bytes), for a customer's forget: what
 * a customer sent is theirs. Gives how many were erased.
 */
export async function eraseMediaOfConversations(
  db: Queryable,
  caller: Pick<Caller, 'accountId' | 'environment'>,
  conversationIds: readonly string[],
): Promise<number> {
  if (conversationIds.length === 0) return 0;
  const rows = await db.query(
    'DELETE FROM media WHERE account_id = $1 AND environment = $2 AND conversation_id = ANY($3::text[]) RETURNING 1',
    [caller.accountId, caller.environment, [...conversationIds]],
  );
  return rows.length;
}
