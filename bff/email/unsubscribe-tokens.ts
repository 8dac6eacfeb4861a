/**
 * The tokens of the digests' one-click unsubscribe links (`List-Unsubscribe`), kept only as their
 * hashes, and what using one does: the conversation's address is forgotten (and a widget visitor's
 * contact's, when it is the same), so nothing more is
 * e-mailed for it, and a digest waiting for it is dropped.
 */
import type { Queryable } from '../../shared/server/index.ts';

/** An unsubscribe link works for as long as a reply address does (30 days). */
export const UNSUBSCRIBE_TTL_MS = 30 * 24 * 3_600_000;

export async function keepUnsubscribeToken(
  db: Queryable,
  token: { hash: string; conversationId: number; now: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO email_unsubscribe_tokens (token_hash, conversation_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [token.hash, token.conversationId, token.now, new Date(token.now.getTime() + UNSUBSCRIBE_TTL_MS)],
  );
}

/** Stops the e-mails of the token's conversation; false when the token is unknown or expired. */
export async function unsubscribe(db: Queryable, hash: string, now: Date): Promise<boolean> {
  const [row] = await db.query<{ conversation_id: string }>(
    'SELECT conversation_id FROM email_unsubscribe_tokens WHERE token_hash = $1 AND expires_at > $2',
    [hash, now],
  );
  if (!row) return false;
  // A widget visitor's address kept on their contact (for their next conversations) goes too, or it would be used again.
  await db.query(
    `UPDATE contacts k SET email = NULL, updated_at = $2 FROM conversations c
     WHERE c.id = $1 AND k.inbox_id = c.inbox_id AND k.customer_ref = c.customer_ref
       AND lower(k.email) = lower(COALESCE(NULLIF(c.contact_email, ''), k.email))`,
    [row.conversation_id, now],
  );
  await db.query('UPDATE conversations SET contact_email = NULL WHERE id = $1', [row.conversation_id]);
  await db.query('DELETE FROM email_digests WHERE conversation_id = $1', [row.conversation_id]);
  return true;
}

export async function forgetExpiredUnsubscribeTokens(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM email_unsubscribe_tokens WHERE expires_at <= $1', [now]);
}
