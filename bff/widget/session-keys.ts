import { randomBytes } from 'node:crypto';
import { parseSessionKeys, type Queryable, type SecretBox, type SessionKey } from '../../shared/server/index.ts';
import { readSetting } from '../store/inboxes.ts';

/**
 * The widget session tokens' key set: SESSION_KEYS when given; otherwise one made on first start
 * and kept in the BFF's store (sealed), so that tokens outlive a restart without any setting. Several nodes
 * on one store share it too; SESSION_KEYS is for rotating keys or sharing them with an engine.
 */
export async function ensureSessionKeys(
  db: Queryable,
  configured: SessionKey[] | undefined,
  box: SecretBox,
): Promise<SessionKey[]> {
  if (configured) return configured;
  const stored = await readSetting(db, 'session_keys');
  if (stored) return parseSessionKeys(box.open(stored));
  const made = `k${Date.now().toString(36)}:${randomBytes(32).toString('base64url')}`;
  // Two nodes starting on an empty store at once: the first key written is the one both use. Kept sealed.
  await db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    'session_keys',
    box.seal(made),
  ]);
  const kept = await readSetting(db, 'session_keys');
  return parseSessionKeys(kept ? box.open(kept) : made);
}
