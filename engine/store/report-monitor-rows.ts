import type { Queryable } from '../../shared/server/index.ts';
import type { Owner, ReportTable } from './report-table.ts';

/**
 * Monitor findings by the UTC day they were found, one row per monitor and severity (a monitor
 * whose severity changed in the day has a row for each): how many messages it found and in how
 * many conversations. No excerpt: the customer's words stay in the findings, not in a file kept
 * for days. Findings of a removed monitor went with it.
 */
export async function monitorRows(
  db: Queryable,
  owner: Owner,
  from: Date,
  to: Date,
  limit: number,
): Promise<ReportTable> {
  const rows = await db.query<{
    day: string;
    monitor_id: string;
    monitor_name: string;
    severity: string;
    findings: number;
    conversations: number;
  }>(
    `SELECT to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, f.monitor_id, m.name AS monitor_name,
            f.severity, count(*)::int AS findings, count(DISTINCT f.conversation_id)::int AS conversations
     FROM monitor_findings f JOIN monitors m ON m.id = f.monitor_id
     WHERE f.account_id = $1 AND f.environment = $2 AND f.created_at >= $3 AND f.created_at < $4
     GROUP BY day, f.monitor_id, m.name, f.severity
     ORDER BY day, m.name, f.monitor_id, f.severity LIMIT $5`,
    [owner.accountId, owner.environment, from, to, limit],
  );
  return { columns: MONITOR_COLUMNS, rows };
}

const MONITOR_COLUMNS = ['day', 'monitor_id', 'monitor_name', 'severity', 'findings', 'conversations'] as const;
