import { ANSWER_TIMEOUT_MS, claimDue, recordAttempt, type Logger, type Queryable, type SecretBox, type SendWebhook, type Sql } from '../../shared/server/index.ts';

/** Pings sent in one pass to switched-off endpoints, side by side: each holds the pass for one answer time at most. */
const PINGS_PER_PASS = 10;

/** Pings to switched-off (not removed) endpoints whose next attempt is due, oldest first. */
export async function duePingsOfSwitchedOffEndpoints(db: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.event_type = 'ping' AND d.status = 'pending' AND d.next_attempt_at <= $1 AND NOT e.enabled AND e.deleted_at IS NULL
     ORDER BY d.next_attempt_at, d.id LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => row.id);
}

/**
 * The worker's passes send nothing to a switched-off endpoint, but a ping is how an operator
 * tests a repaired one before switching it on (SPEC "Webhook delivery" rule 7): so a failed ping
 * is retried on the usual schedule even there, and only the endpoint's events wait. Each ping is
 * claimed on its own (another process skips it meanwhile) and its attempt recorded as any other.
 */
export async function sendDuePingsOfSwitchedOffEndpoints({ sql, send, secrets, logger, now }: { sql: Sql; send: SendWebhook; secrets: Pick<SecretBox, 'open'>; logger: Logger; now: () => Date }): Promise<void> {
  const due = await duePingsOfSwitchedOffEndpoints(sql, now(), PINGS_PER_PASS);
  await Promise.all(
    due.map(async (id) => {
      const [claimed] = await claimDue(sql, now(), 2 * ANSWER_TIMEOUT_MS, 1, { only: id });
      if (!claimed) return;
      const result = await send({ ...claimed, secret: secrets.open(claimed.secret) }, now().getTime());
      await sql.transaction((tx) => recordAttempt(tx, claimed, result, now()));
      if (result.error) logger.info({ delivery: id, endpoint: claimed.endpointId, status: result.status, error: result.error }, 'a ping to a switched-off webhook endpoint failed');
    }),
  );
}
