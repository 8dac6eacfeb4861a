import type { DeskFinding, DeskFindingPage } from '../../../shared/schemas/helpdesk/index.ts';
import type { Queryable } from '../../../shared/server/index.ts';

/** Findings on one page of the list. */
export const FINDINGS_PAGE = 25;

export interface FindingFilter {
  accountId: number;
  /** Only conversations of these inboxes (an agent's); undefined: every inbox of the account. */
  inboxIds?: readonly string[] | undefined;
  conversationId?: number | undefined;
  severity?: DeskFinding['severity'] | undefined;
  environment?: DeskFinding['environment'] | undefined;
  /** The last finding of the page before: older ones follow. */
  after?: number | undefined;
}

interface FindingRow {
  id: string;
  conversation_id: string;
  monitor_id: string;
  monitor_name: string | null;
  engine_message_id: string;
  excerpt: string;
  severity: DeskFinding['severity'];
  environment: DeskFinding['environment'];
  created_at: Date;
}

/**
 * A page of an account's findings, newest first: ids only grow, so `after` (the last id of the
 * page before) pages without offsets, and findings kept meanwhile show on a fresh first page.
 * A finding shows only with a conversation of its own environment: a sandbox monitor's words never
 * sit beside a live customer's conversation.
 */
export async function pageDeskFindings(db: Queryable, filter: FindingFilter): Promise<DeskFindingPage> {
  const params: unknown[] = [filter.accountId];
  const where = ['f.account_id = $1', 'f.environment = c.environment'];
  const add = (condition: string, value: unknown) => where.push(condition.replace('?', `$${params.push(value)}`));
  if (filter.inboxIds) add('c.inbox_id = ANY(?::text[])', filter.inboxIds);
  if (filter.conversationId !== undefined) add('f.conversation_id = ?', filter.conversationId);
  if (filter.severity) add('f.severity = ?', filter.severity);
  if (filter.environment) add('f.environment = ?', filter.environment);
  if (filter.after !== undefined) add('f.id < ?', filter.after);
  const rows = await db.query<FindingRow>(
    `SELECT f.id, f.conversation_id, f.monitor_id, f.monitor_name, f.engine_message_id, f.excerpt, f.severity,
            f.environment, f.created_at
     FROM monitor_findings f JOIN conversations c ON c.id = f.conversation_id
     WHERE ${where.join(' AND ')} ORDER BY f.id DESC LIMIT $${params.push(FINDINGS_PAGE + 1)}`,
    params,
  );
  const payload = rows.slice(0, FINDINGS_PAGE).map((row): DeskFinding => ({
    id: Number(row.id),
    conversation_id: Number(row.conversation_id),
    monitor_id: row.monitor_id,
    monitor_name: row.monitor_name,
    message_id: row.engine_message_id,
    excerpt: row.excerpt,
    severity: row.severity,
    environment: row.environment,
    created_at: Math.floor(row.created_at.getTime() / 1000),
  }));
  const last = payload.at(-1)?.id ?? filter.after;
  return { payload, next: last === undefined ? null : String(last), has_more: rows.length > FINDINGS_PAGE };
}
