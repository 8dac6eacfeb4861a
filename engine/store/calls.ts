import { newId, type CallEndedBy } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

type Owner = Pick<Caller, 'accountId' | 'environment'>;
type CallMode = 'person' | 'ai';
type EndedBy = CallEndedBy;

/** A call as the engine keeps it. */
export interface CallRecord {
  id: string;
  owner: Owner;
  conversationId: string;
  mode: CallMode;
  startedAt: Date;
  endedAt: Date | null;
}

interface CallRow {
  id: string;
  account_id: string;
  environment: Owner['environment'];
  conversation_id: string;
  mode: CallMode;
  started_at: Date;
  ended_at: Date | null;
}

const COLUMNS = 'id, account_id, environment, conversation_id, mode, started_at, ended_at';

const toRecord = (row: CallRow): CallRecord => ({
  id: row.id,
  owner: { accountId: row.account_id, environment: row.environment },
  conversationId: row.conversation_id,
  mode: row.mode,
  startedAt: row.started_at,
  endedAt: row.ended_at,
});

/** Starts a call; an AI call's stream may then be opened once with `stream` (the voice token's hash) until it expires. */
export async function insertCall(
  db: Queryable,
  call: {
    owner: Owner;
    conversationId: string;
    mode: CallMode;
    at: Date;
    stream?: { tokenHash: string; expiresAt: Date } | undefined;
  },
): Promise<string> {
  const id = newId('call');
  await db.query(
    `INSERT INTO calls (id, account_id, environment, conversation_id, mode, started_at, stream_token_sha256, stream_expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      call.owner.accountId,
      call.owner.environment,
      call.conversationId,
      call.mode,
      call.at,
      call.stream?.tokenHash ?? null,
      call.stream?.expiresAt ?? null,
    ],
  );
  return id;
}

/** The owner's call (in the owner's environment only), ended or not; undefined for anyone else's. */
export async function findCall(db: Queryable, owner: Owner, callId: string): Promise<CallRecord | undefined> {
  const [row] = await db.query<CallRow>(
    `SELECT ${COLUMNS} FROM calls WHERE id = $1 AND account_id = $2 AND environment = $3`,
    [callId, owner.accountId, owner.environment],
  );
  return row && toRecord(row);
}

/**
 * Ends a call that has not ended: its length in whole seconds, and who ended it. One statement, so
 * of two racing ends one wins and the other gets undefined.
 */
export async function endCall(
  db: Queryable,
  callId: string,
  endedBy: EndedBy,
  at: Date,
): Promise<{ durationS: number } | undefined> {
  const [row] = await db.query<{ duration_s: number }>(
    `UPDATE calls SET ended_at = $3, ended_by = $2,
       duration_s = GREATEST(0, ROUND(EXTRACT(EPOCH FROM ($3::timestamptz - started_at))))::int
     WHERE id = $1 AND ended_at IS NULL RETURNING duration_s`,
    [callId, endedBy, at],
  );
  return row && { durationS: row.duration_s };
}

/**
 * Opens an AI call's stream with the voice token that began it: once, before it expires, while the
 * call lasts. One statement, so two racing opens cannot both win. Undefined for anything else.
 */
export async function openCallStream(
  db: Queryable,
  callId: string,
  tokenHash: string,
  at: Date,
): Promise<CallRecord | undefined> {
  const [row] = await db.query<CallRow>(
    `UPDATE calls SET stream_opened_at = $3
     WHERE id = $1 AND mode = 'ai' AND stream_token_sha256 = $2 AND stream_opened_at IS NULL
       AND ended_at IS NULL AND stream_expires_at > $3
     RETURNING ${COLUMNS}`,
    [callId, tokenHash, at],
  );
  return row && toRecord(row);
}
