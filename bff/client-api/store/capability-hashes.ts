import type { Queryable, SecretBox } from '../../../shared/server/index.ts';

interface CapabilityRow {
  id: number;
  source_id: string;
  pubsub_token: string;
  source_id_hash: string | null;
  pubsub_token_hash: string | null;
}

/**
 * Hashes, under the key that seals now, the capabilities of contacts that have no hash yet (stored
 * before migration 042) or one under an older key: run at start, before anything looks a contact
 * up and before `resealStored` seals the plain ones. Each row is changed only if it still holds
 * what was read, so nodes starting together are safe. Gives how many contacts were hashed.
 */
export async function hashContactCapabilities(db: Queryable, box: SecretBox): Promise<number> {
  const rows = await db.query<CapabilityRow>(
    'SELECT id, source_id, pubsub_token, source_id_hash, pubsub_token_hash FROM contacts WHERE source_id IS NOT NULL',
  );
  let hashed = 0;
  for (const row of rows) {
    const current = (hash: string | null) => hash !== null && box.isCurrentHash(hash);
    if (current(row.source_id_hash) && current(row.pubsub_token_hash)) continue;
    const changed = await db.query(
      `UPDATE contacts SET source_id_hash = $2, pubsub_token_hash = $3
        WHERE id = $1 AND source_id = $4 AND pubsub_token = $5 RETURNING 1`,
      [
        row.id,
        box.lookupHash(box.open(row.source_id)),
        box.lookupHash(box.open(row.pubsub_token)),
        row.source_id,
        row.pubsub_token,
      ],
    );
    hashed += changed.length;
  }
  return hashed;
}
