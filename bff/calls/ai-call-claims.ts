import type { Logger, Queryable } from '../../shared/server/index.ts';

/**
 * The rows of the calls with the AI (issue 30; migration 048), so that a conversation has one at a
 * time across nodes, though each call lives in its node's memory: a call claims its conversation's
 * row, its node renews the lease while it lasts, and lets it go when it ends. A row whose lease
 * lapsed was a stopped node's: a new call takes it over.
 */
export function createAiCallClaims(db: Queryable, node: string, leaseMs: number) {
  const lease = (at: Date) => new Date(at.getTime() + leaseMs);
  return {
    /** Claims the conversation for a call; false when a call (on any node) holds it. */
    async claim(conversationId: number, callId: string, at: Date): Promise<boolean> {
      const rows = await db.query<{ id: string }>(
        `INSERT INTO ai_calls (conversation_id, id, node, held_until) VALUES ($1, $2, $3, $4)
         ON CONFLICT (conversation_id) DO UPDATE SET id = excluded.id, node = excluded.node, held_until = excluded.held_until
         WHERE ai_calls.held_until < $5 RETURNING id`,
        [conversationId, callId, node, lease(at), at],
      );
      return rows.length > 0;
    },
    /** The call ended: its conversation may call again. */
    release: async (callId: string) => void (await db.query('DELETE FROM ai_calls WHERE id = $1', [callId])),
    /** This node still holds its calls. */
    renew: async (at: Date) =>
      void (await db.query('UPDATE ai_calls SET held_until = $2 WHERE node = $1', [node, lease(at)])),
  };
}

export type AiCallClaims = ReturnType<typeof createAiCallClaims>;

/** Renews this node's claims every third of a lease until the returned stop is called. */
export function keepRenewing(
  claims: AiCallClaims,
  { now, logger }: { now: () => Date; logger: Logger },
  leaseMs: number,
) {
  const timer = setInterval(() => {
    claims.renew(now()).catch((error: unknown) => logger.warn({ err: error }, 'the AI calls were not renewed'));
  }, leaseMs / 3);
  timer.unref();
  return () => clearInterval(timer);
}
