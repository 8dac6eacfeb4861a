import type { Queryable } from '../../shared/server/index.ts';
import type { MonitorFinding } from '../../shared/schemas/monitors.ts';
import type { Environment } from './environment.ts';

/**
 * Messages waiting for the LLM's yes or no on a monitor's instruction. A check is claimed with a
 * lease (SKIP LOCKED, so engine processes share them), asked outside any transaction (a model may
 * take seconds), and removed with its answer only while the lease is still the claimer's.
 */

/** Queues the monitor's instruction for one message; nothing when it is queued already. */
export async function queueCheck(
  tx: Queryable,
  check: { monitorId: string; turnId: string; accountId: string; conversationId: string },
  now: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO monitor_checks (monitor_id, turn_id, account_id, conversation_id, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING`,
    [check.monitorId, check.turnId, check.accountId, check.conversationId, now],
  );
}

export interface ClaimedCheck {
  monitorId: string;
  monitorName: string;
  turnId: string;
  accountId: string;
  environment: Environment;
  conversationId: string;
  instruction: string | null;
  severity: MonitorFinding['severity'];
  role: MonitorFinding['role'];
  text: string;
  attempts: number;
  leaseUntil: Date;
}

/** Claims the oldest check that is free (never claimed, or its lease ran out) until `leaseUntil`. */
export async function claimCheck(db: Queryable, now: Date, leaseUntil: Date): Promise<ClaimedCheck | undefined> {
  const [row] = await db.query<{
    monitor_id: string;
    monitor_name: string;
    turn_id: string;
    account_id: string;
    environment: Environment;
    conversation_id: string;
    instruction: string | null;
    severity: MonitorFinding['severity'];
    role: MonitorFinding['role'];
    text: string;
    attempts: number;
  }>(
    `WITH claimed AS (
       UPDATE monitor_checks SET lease_until = $2, attempts = attempts + 1
       WHERE (monitor_id, turn_id) = (
         SELECT monitor_id, turn_id FROM monitor_checks WHERE lease_until IS NULL OR lease_until < $1
         ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING monitor_id, turn_id, account_id, conversation_id, attempts)
     SELECT claimed.*, m.name AS monitor_name, m.environment, m.instruction, m.severity, t.role, t.text
     FROM claimed JOIN monitors m ON m.id = claimed.monitor_id JOIN turns t ON t.id = claimed.turn_id`,
    [now, leaseUntil],
  );
  if (!row) return undefined;
  return {
    monitorId: row.monitor_id,
    monitorName: row.monitor_name,
    turnId: row.turn_id,
    accountId: row.account_id,
    environment: row.environment,
    conversationId: row.conversation_id,
    instruction: row.instruction,
    severity: row.severity,
    role: row.role,
    text: row.text,
    attempts: row.attempts,
    leaseUntil,
  };
}

/** Removes a check that is still held under `claimed`'s lease; false when it is not (it ran out and was taken again). */
export async function removeCheck(tx: Queryable, claimed: ClaimedCheck): Promise<boolean> {
  const removed = await tx.query(
    'DELETE FROM monitor_checks WHERE monitor_id = $1 AND turn_id = $2 AND lease_until = $3 RETURNING 1',
    [claimed.monitorId, claimed.turnId, claimed.leaseUntil],
  );
  return removed.length > 0;
}

/** When the next lease another process holds runs out (for taking it over should that process die). */
export async function nextCheckLeaseEnd(db: Queryable, now: Date): Promise<Date | undefined> {
  const [row] = await db.query<{ at: Date | null }>(
    'SELECT min(lease_until) AS at FROM monitor_checks WHERE lease_until >= $1',
    [now],
  );
  return row?.at ?? undefined;
}
