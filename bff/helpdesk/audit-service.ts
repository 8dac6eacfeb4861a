import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import type { AuditLogQuery } from '../../shared/schemas/helpdesk/index.ts';
import { auditLogShape } from './shapes.ts';
import { findAccount } from './store/accounts.ts';
import { changesBetween, listAudit, writeAudit, type Actor, type AuditEntry } from './store/audit-log.ts';

/** Audit log entries per page, as Chatwoot's. */
export const AUDIT_PER_PAGE = 15;

/** A change to one of an account's records: the record as the API shows it, before and after. */
export interface AuditedChange {
  accountId: number;
  actor: Actor;
  type: string;
  id: string | number;
  action: AuditEntry['action'];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/**
 * Writes a change's audit entry with `db`, the transaction that makes the change, so the change and
 * its entry are kept or lost together.
 */
export type RecordChange = (db: Queryable, change: AuditedChange) => Promise<void>;

/** The audit log: what the other services write to it, and the Application API's pages of it. */
export function createAuditService({ sql, now }: { sql: Sql; now: () => Date }) {
  const record: RecordChange = (db, { accountId, actor, type, id, action, before, after }) => {
    const changes = changesBetween(before, after);
    return writeAudit(db, { accountId, actor, auditableType: type, auditableId: id, action, changes }, now());
  };

  return {
    record,

    async auditLogs(accountId: number, query: z.infer<typeof AuditLogQuery>) {
      const account = await findAccount(sql, accountId);
      if (!account) throw new ParleyError('not_found', `No account ${accountId}.`);
      if (account.features['audit_logs'] === false) {
        throw new ParleyError('unprocessable', 'The audit_logs feature is not enabled for this account.');
      }
      const given = [query.types, query['types[]']].flat();
      const named = given.filter((value): value is string => typeof value === 'string');
      const types = named
        .flatMap((value) => value.split(','))
        .map((value) => value.trim())
        .filter(Boolean);
      const page = await listAudit(sql, accountId, {
        page: query.page,
        perPage: AUDIT_PER_PAGE,
        q: query.q,
        types: types.length ? types : undefined,
        since: query.since === undefined ? undefined : new Date(query.since * 1000),
        until: query.until === undefined ? undefined : new Date(query.until * 1000),
        sort: query.sort,
      });
      return {
        per_page: AUDIT_PER_PAGE,
        total_entries: page.total,
        current_page: query.page,
        audit_logs: page.entries.map(auditLogShape),
      };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
