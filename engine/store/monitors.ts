import { newId, ParleyError } from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import {
  CreateMonitorRequest,
  MONITORS_MAX,
  type CreateMonitorInput,
  type Monitor,
  type MonitorCriteria,
  type MonitorFinding,
  type MonitorFindingPage,
  type UpdateMonitorRequest,
} from '../../shared/schemas/monitors.ts';
import type { Caller } from './environment.ts';

type Owner = Pick<Caller, 'accountId' | 'environment'>;

interface MonitorRow {
  id: string;
  name: string;
  keywords: string[];
  pattern: string | null;
  instruction: string | null;
  scope: Monitor['scope'];
  severity: Monitor['severity'];
  created_at: Date;
  updated_at: Date;
}

const MONITOR_COLUMNS = 'id, name, keywords, pattern, instruction, scope, severity, created_at, updated_at';

/** A monitor as the engine keeps it, with when it began (it reads messages written from then on). */
export interface MonitorRecord extends Monitor {
  createdAt: Date;
}

const toMonitor = (row: MonitorRow): MonitorRecord => ({
  id: row.id,
  name: row.name,
  criteria: { keywords: row.keywords, pattern: row.pattern, instruction: row.instruction },
  scope: row.scope,
  severity: row.severity,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  createdAt: row.created_at,
});

/** The API's view of a monitor (without the engine's own fields). */
export const monitorView = ({ createdAt: _createdAt, ...monitor }: MonitorRecord): Monitor => monitor;

const criteriaParams = (criteria: MonitorCriteria) => [
  criteria.keywords ?? [],
  criteria.pattern ?? null,
  criteria.instruction ?? null,
];

/** Adds a monitor; refused (422) when the owner has MONITORS_MAX already. */
export async function insertMonitor(
  tx: Queryable,
  owner: Owner,
  request: CreateMonitorRequest,
  now: Date,
): Promise<MonitorRecord> {
  // Counted under the account's row lock, so two creates at once cannot both pass the cap (NO KEY:
  // rows that only point at the account, such as new conversations, are not held up).
  await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [owner.accountId]);
  const [{ count } = { count: 0 }] = await tx.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM monitors WHERE account_id = $1 AND environment = $2',
    [owner.accountId, owner.environment],
  );
  if (count >= MONITORS_MAX)
    throw new ParleyError(
      'unprocessable',
      `An account has at most ${MONITORS_MAX} monitors in each environment; remove one first.`,
    );
  const [row] = await tx.query<MonitorRow>(
    `INSERT INTO monitors (id, account_id, environment, name, keywords, pattern, instruction, scope, severity, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $10, $10) RETURNING ${MONITOR_COLUMNS}`,
    [
      newId('monitor'),
      owner.accountId,
      owner.environment,
      request.name,
      ...criteriaParams(request.criteria),
      request.scope,
      request.severity,
      now,
    ],
  );
  return toMonitor(row!);
}

/** Adds a monitor outside any request, as `POST /v1/monitors` would (the demo's seed). */
export async function addMonitor(
  sql: Sql,
  owner: Owner,
  request: CreateMonitorInput,
  now = new Date(),
): Promise<Monitor> {
  const parsed = CreateMonitorRequest.parse(request);
  return monitorView(await sql.transaction((tx) => insertMonitor(tx, owner, parsed, now)));
}

/** The owner's monitors, oldest first. */
export async function listMonitors(db: Queryable, owner: Owner): Promise<MonitorRecord[]> {
  const rows = await db.query<MonitorRow>(
    `SELECT ${MONITOR_COLUMNS} FROM monitors WHERE account_id = $1 AND environment = $2 ORDER BY created_at, id`,
    [owner.accountId, owner.environment],
  );
  return rows.map(toMonitor);
}

export async function findMonitor(db: Queryable, owner: Owner, id: string): Promise<MonitorRecord> {
  const [row] = await db.query<MonitorRow>(
    `SELECT ${MONITOR_COLUMNS} FROM monitors WHERE id = $1 AND account_id = $2 AND environment = $3`,
    [id, owner.accountId, owner.environment],
  );
  if (!row) throw new ParleyError('not_found', `No monitor ${id} in this account.`);
  return toMonitor(row);
}

/** Changes the fields given; criteria are replaced as a whole. It reads messages written from then on as it is now. */
export async function updateMonitor(
  db: Queryable,
  owner: Owner,
  id: string,
  update: UpdateMonitorRequest,
  now: Date,
): Promise<MonitorRecord> {
  const current = await findMonitor(db, owner, id);
  const criteria = update.criteria ?? {
    keywords: current.criteria.keywords,
    pattern: current.criteria.pattern ?? undefined,
    instruction: current.criteria.instruction ?? undefined,
  };
  const [row] = await db.query<MonitorRow>(
    `UPDATE monitors SET name = $2, keywords = $3::text[], pattern = $4, instruction = $5, scope = $6, severity = $7, updated_at = $8
     WHERE id = $1 RETURNING ${MONITOR_COLUMNS}`,
    [
      id,
      update.name ?? current.name,
      ...criteriaParams(criteria),
      update.scope ?? current.scope,
      update.severity ?? current.severity,
      now,
    ],
  );
  return toMonitor(row!);
}

/** Removes a monitor with its findings and the checks it was waiting for (the events it emitted stay in the feed). */
export async function deleteMonitor(db: Queryable, owner: Owner, id: string): Promise<void> {
  await findMonitor(db, owner, id);
  await db.query('DELETE FROM monitors WHERE id = $1', [id]);
}

interface FindingRow {
  id: string;
  monitor_id: string;
  conversation_id: string;
  turn_id: string;
  role: MonitorFinding['role'];
  excerpt: string;
  severity: MonitorFinding['severity'];
  created_at: Date;
}

const toFinding = (row: FindingRow): MonitorFinding => ({
  id: row.id,
  monitor_id: row.monitor_id,
  conversation_id: row.conversation_id,
  message_id: row.turn_id,
  role: row.role,
  excerpt: row.excerpt,
  severity: row.severity,
  created_at: row.created_at.toISOString(),
});

/**
 * A page of the owner's findings, newest first, of one monitor or one conversation when asked. It
 * pages as the feed does (lists use cursors, never offsets): `after` is the last finding of the page
 * before; findings written meanwhile are newer and show on a fresh first page.
 */
export async function pageFindings(
  db: Queryable,
  owner: Owner,
  options: {
    monitorId?: string | undefined;
    conversationId?: string | undefined;
    after?: string | undefined;
    limit: number;
  },
): Promise<MonitorFindingPage> {
  const params: unknown[] = [owner.accountId, owner.environment];
  const where = ['account_id = $1', 'environment = $2'];
  const filter = (condition: string, value: unknown) => {
    params.push(value);
    where.push(condition.replace('?', `$${params.length}`));
  };
  if (options.monitorId) filter('monitor_id = ?', options.monitorId);
  if (options.conversationId) filter('conversation_id = ?', options.conversationId);
  if (options.after) {
    const [cursor] = await db.query<{ seq: string }>(
      'SELECT seq FROM monitor_findings WHERE id = $1 AND account_id = $2 AND environment = $3',
      [options.after, owner.accountId, owner.environment],
    );
    if (!cursor)
      throw new ParleyError('invalid_request', `The cursor ${options.after} is not a finding of this account.`);
    filter('seq < ?', cursor.seq);
  }
  params.push(options.limit + 1);
  const rows = await db.query<FindingRow>(
    `SELECT id, monitor_id, conversation_id, turn_id, role, excerpt, severity, created_at FROM monitor_findings
     WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT $${params.length}`,
    params,
  );
  const findings = rows.slice(0, options.limit).map(toFinding);
  return { findings, next: findings.at(-1)?.id ?? options.after ?? null, has_more: rows.length > options.limit };
}
