import type { Queryable } from '../../../shared/server/index.ts';

/** Who made a change: a person, an agent bot, or the operator's platform token. */
export interface Actor {
  type: 'User' | 'AgentBot' | 'PlatformApp';
  id: number;
  /** The person's e-mail address or the bot's name, kept as it was then. */
  name: string;
  remoteAddress?: string | undefined;
}

export interface AuditEntry {
  accountId: number;
  actor: Actor;
  auditableType: string;
  auditableId: string | number;
  action: 'create' | 'update' | 'destroy';
  /** Each changed field with its value before and after (`[before, after]`), as Chatwoot's audited changes. */
  changes: Record<string, [unknown, unknown]>;
}

export interface AuditLogRecord {
  id: number;
  accountId: number;
  userId: number | null;
  userType: Actor['type'];
  username: string;
  auditableType: string;
  auditableId: string;
  action: AuditEntry['action'];
  auditedChanges: Record<string, [unknown, unknown]>;
  remoteAddress: string | null;
  createdAt: Date;
}

/**
 * The changed fields between two versions of a record, as `[before, after]`; secrets are never
 * written (their field shows as changed, with no values).
 */
export function changesBetween(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
  secret: readonly string[] = [],
): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    const was = before?.[key];
    const is = after?.[key];
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    changes[key] = secret.includes(key) ? ['[hidden]', '[hidden]'] : [was ?? null, is ?? null];
  }
  return changes;
}

export async function writeAudit(db: Queryable, entry: AuditEntry, now: Date): Promise<void> {
  if (entry.action === 'update' && Object.keys(entry.changes).length === 0) return;
  await db.query(
    `INSERT INTO audit_logs (account_id, user_id, user_type, username, auditable_type, auditable_id, action, audited_changes, remote_address, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10)`,
    [
      entry.accountId,
      entry.actor.id,
      entry.actor.type,
      entry.actor.name,
      entry.auditableType,
      String(entry.auditableId),
      entry.action,
      JSON.stringify(entry.changes),
      entry.actor.remoteAddress ?? null,
      now,
    ],
  );
}

export interface AuditQuery {
  page: number;
  perPage: number;
  /** Part of the acting person's name or e-mail address. */
  q?: string | undefined;
  types?: string[] | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  sort: 'asc' | 'desc';
}

/** One page of an account's audit log, with the number of entries that match in all. */
export async function listAudit(
  db: Queryable,
  accountId: number,
  query: AuditQuery,
): Promise<{ entries: AuditLogRecord[]; total: number }> {
  const params: unknown[] = [accountId];
  const where = ['account_id = $1'];
  if (query.q) {
    params.push(`%${query.q.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`);
    where.push(
      `(lower(username) LIKE $${params.length} OR (user_type = 'User' AND user_id IN (SELECT id FROM users WHERE lower(name) LIKE $${params.length})))`,
    );
  }
  if (query.types?.length) {
    params.push(query.types);
    where.push(`auditable_type = ANY($${params.length}::text[])`);
  }
  if (query.since) {
    params.push(query.since);
    where.push(`created_at >= $${params.length}`);
  }
  if (query.until) {
    params.push(query.until);
    where.push(`created_at <= $${params.length}`);
  }
  const filter = where.join(' AND ');
  const [count] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM audit_logs WHERE ${filter}`,
    params,
  );
  const rows = await db.query<{
    id: number;
    account_id: number;
    user_id: number | null;
    user_type: Actor['type'];
    username: string;
    auditable_type: string;
    auditable_id: string;
    action: AuditEntry['action'];
    audited_changes: Record<string, [unknown, unknown]>;
    remote_address: string | null;
    created_at: Date;
  }>(
    `SELECT * FROM audit_logs WHERE ${filter} ORDER BY created_at ${query.sort === 'asc' ? 'ASC' : 'DESC'}, id ${query.sort === 'asc' ? 'ASC' : 'DESC'}
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, query.perPage, (query.page - 1) * query.perPage],
  );
  return {
    total: count?.total ?? 0,
    entries: rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      userId: row.user_id,
      userType: row.user_type,
      username: row.username,
      auditableType: row.auditable_type,
      auditableId: row.auditable_id,
      action: row.action,
      auditedChanges: row.audited_changes,
      remoteAddress: row.remote_address,
      createdAt: row.created_at,
    })),
  };
}
