import type { Queryable } from '../../shared/server/index.ts';

/** Customer messages stored and not yet accepted by the engine (the relay's queue, on every node). */
export async function countPending(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE upstream = 'pending'");
  return row?.n ?? 0;
}

/** Helpdesk webhook deliveries still to be made (waiting for their first attempt or a retry). */
export async function pendingDeliveries(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'",
  );
  return row?.n ?? 0;
}
