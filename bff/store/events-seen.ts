import type { Queryable } from '../../shared/server/index.ts';

/**
 * Records that an engine event was seen; false when it was seen already, by any path (the
 * engine's answer, a webhook, the feed), so that each event counts once.
 */
export async function markEventSeen(db: Queryable, eventId: string, at: Date, byWebhook: boolean): Promise<boolean> {
  const fresh = await db.query(
    'INSERT INTO engine_events_seen (event_id, seen_at, webhook_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1',
    [eventId, at, byWebhook ? at : null],
  );
  return fresh.length > 0;
}

/** A webhook brought an event: notes it, and tells whether the event was seen before (then nothing is left to do). */
export async function confirmByWebhook(db: Queryable, eventId: string, at: Date): Promise<boolean> {
  const rows = await db.query('UPDATE engine_events_seen SET webhook_at = $2 WHERE event_id = $1 RETURNING 1', [
    eventId,
    at,
  ]);
  return rows.length > 0;
}

/** Of these events, the ones no webhook has brought (to any node). */
export async function notBroughtByWebhook(db: Queryable, eventIds: readonly string[]): Promise<string[]> {
  if (eventIds.length === 0) return [];
  const rows = await db.query<{ event_id: string }>(
    'SELECT event_id FROM engine_events_seen WHERE event_id = ANY($1::text[]) AND webhook_at IS NULL',
    [eventIds],
  );
  return rows.map((row) => row.event_id);
}

/** Which of these engine event ids are recorded already (whichever path brought them). */
export async function seenEngineEvents(db: Queryable, eventIds: readonly string[]): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = await db.query<{ event_id: string }>(
    'SELECT event_id FROM engine_events_seen WHERE event_id = ANY($1::text[])',
    [eventIds],
  );
  return new Set(rows.map((row) => row.event_id));
}

/** Forgets events seen before `before` (no path brings an event again that late); gives how many went. */
export async function forgetSeenEventsBefore(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query('DELETE FROM engine_events_seen WHERE seen_at < $1 RETURNING 1', [before]);
  return rows.length;
}
