/**
 * The transcripts customers asked for (migration 032), an outbox like the digests: one statement
 * per concern, composed by the route (asking) and the sender (claiming, finishing).
 */
import type { Queryable, Sql } from '../../shared/server/index.ts';

/** A message of a transcript: what the customer and the shop said (no notes, notices or survey questions). */
export interface TranscriptMessage {
  author: 'customer' | 'ai' | 'human';
  authorName: string | null;
  text: string;
  createdAt: Date;
}

/** A transcript claimed for sending. */
export interface ClaimedTranscript {
  id: number;
  conversationId: number;
  sentTo: string;
  upToId: number;
  attempts: number;
}

/**
 * Notes a transcript to send now, unless one of this conversation was asked for after
 * `notBefore`: then gives when the next one may be asked for. The conversation's row is locked
 * meanwhile, so two requests at once make one transcript.
 */
export async function requestTranscript(
  sql: Sql,
  { conversationId, sentTo, now, notBefore }: { conversationId: number; sentTo: string; now: Date; notBefore: Date },
): Promise<{ requested: true } | { requested: false; lastAt: Date }> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT id FROM conversations WHERE id = $1 FOR UPDATE', [conversationId]);
    const [recent] = await tx.query<{ requested_at: Date }>(
      `SELECT requested_at FROM email_transcripts WHERE conversation_id = $1 AND requested_at > $2
       ORDER BY requested_at DESC LIMIT 1`,
      [conversationId, notBefore],
    );
    if (recent) return { requested: false as const, lastAt: new Date(recent.requested_at) };
    await tx.query(
      `INSERT INTO email_transcripts (conversation_id, sent_to, up_to_id, requested_at, due_at)
       SELECT $1, $2, COALESCE(max(id), 0), $3, $3 FROM messages WHERE conversation_id = $1`,
      [conversationId, sentTo, now],
    );
    return { requested: true as const };
  });
}

/** Takes the lease of one unsent transcript that is due and not held by a live lease. */
export async function claimDueTranscript(
  db: Queryable,
  { owner, now, leaseUntil }: { owner: string; now: Date; leaseUntil: Date },
): Promise<ClaimedTranscript | undefined> {
  const [row] = await db.query<{
    id: string;
    conversation_id: string;
    sent_to: string;
    up_to_id: string;
    attempts: number;
  }>(
    `UPDATE email_transcripts SET lease_owner = $1, lease_until = $3
     WHERE id = (
       SELECT id FROM email_transcripts
       WHERE sent_at IS NULL AND due_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
       ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id, conversation_id, sent_to, up_to_id, attempts`,
    [owner, now, leaseUntil],
  );
  return (
    row && {
      id: Number(row.id),
      conversationId: Number(row.conversation_id),
      sentTo: row.sent_to,
      upToId: Number(row.up_to_id),
      attempts: row.attempts,
    }
  );
}

/** Marks a transcript sent (kept: its time limits the next request). */
export async function markTranscriptSent(db: Queryable, id: number, owner: string, now: Date): Promise<void> {
  await db.query(
    'UPDATE email_transcripts SET sent_at = $3, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2',
    [id, owner, now],
  );
}

/** Puts a transcript whose send failed back, due again at `dueAt`; `giveUp` ends it unsent. */
export async function postponeTranscript(
  db: Queryable,
  { id, owner, dueAt, giveUp }: { id: number; owner: string; dueAt: Date; giveUp: boolean },
): Promise<void> {
  await db.query(
    giveUp
      ? 'DELETE FROM email_transcripts WHERE id = $1 AND lease_owner = $2'
      : `UPDATE email_transcripts SET due_at = $3, attempts = attempts + 1, lease_owner = NULL, lease_until = NULL
         WHERE id = $1 AND lease_owner = $2`,
    giveUp ? [id, owner] : [id, owner, dueAt],
  );
}

/** What a transcript carries: the conversation's messages up to `upToId`, oldest first (at most 500). */
export async function transcriptMessages(
  db: Queryable,
  conversationId: number,
  upToId: number,
): Promise<TranscriptMessage[]> {
  const rows = await db.query<{
    author: TranscriptMessage['author'];
    author_name: string | null;
    text: string;
    created_at: Date;
  }>(
    `SELECT author, author_name, text, created_at FROM messages
     WHERE conversation_id = $1 AND id <= $2 AND author IN ('customer', 'ai', 'human') AND NOT private
       AND content_type <> 'input_csat' AND text <> ''
     ORDER BY id LIMIT 500`,
    [conversationId, upToId],
  );
  return rows.map((row) => ({
    author: row.author,
    authorName: row.author_name,
    text: row.text,
    createdAt: new Date(row.created_at),
  }));
}

/** Transcripts waiting to be sent, for /metrics. */
export async function countUnsentTranscripts(db: Queryable): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM email_transcripts WHERE sent_at IS NULL',
  );
  return row?.count ?? 0;
}
