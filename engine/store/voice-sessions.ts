import { createHash } from 'node:crypto';
import { newId, randomToken } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';

/** A voice token's SHA-256, as the store keeps it (the token itself is never kept). */
export const voiceTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const hash = voiceTokenHash;

/** A single-use voice token for a conversation; only its hash is kept. */
export async function createVoiceSession(
  db: Queryable,
  conversationId: string,
  now: Date,
  ttlMs: number,
): Promise<{ token: string; expiresAt: Date }> {
  const token = `vst_${randomToken(32)}`;
  const expiresAt = new Date(now.getTime() + ttlMs);
  await db.query(
    'INSERT INTO voice_sessions (id, conversation_id, token_sha256, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)',
    [newId('voiceSession'), conversationId, hash(token), expiresAt, now],
  );
  return { token, expiresAt };
}

/**
 * Uses a voice token: gives its conversation the first time, 'used' after that, and undefined for
 * an unknown or expired token. The update is one statement, so two racing uses cannot both win.
 */
export async function redeemVoiceSession(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ conversationId: string } | 'used' | undefined> {
  const [won] = await db.query<{ conversation_id: string }>(
    'UPDATE voice_sessions SET used_at = $2 WHERE token_sha256 = $1 AND used_at IS NULL AND expires_at > $2 RETURNING conversation_id',
    [hash(token), now],
  );
  if (won) return { conversationId: won.conversation_id };
  const [seen] = await db.query<{ used_at: Date | null }>(
    'SELECT used_at FROM voice_sessions WHERE token_sha256 = $1',
    [hash(token)],
  );
  return seen?.used_at ? 'used' : undefined;
}
