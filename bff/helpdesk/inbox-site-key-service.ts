/**
 * An inbox's site keys: made (shown whole once), their allowed origins changed, revoked (never
 * deleted). Every change is audited with its before and after.
 */
import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { RecordChange } from './audit-service.ts';
import {
  createInboxSiteKey,
  findInboxSiteKey,
  listInboxSiteKeys,
  revokeSiteKey,
  setSiteKeyOrigins,
  type InboxRecord,
  type SiteKeyRecord,
} from './store/account-inboxes.ts';
import type { Actor } from './store/audit-log.ts';
import type { SiteKey, SiteKeyCreate } from '../../shared/schemas/helpdesk/index.ts';

export const siteKeyShape = (key: SiteKeyRecord, shown = false): SiteKey => ({
  id: key.id,
  environment: key.environment,
  key_prefix: `${key.key.slice(0, 12)}…`,
  ...(shown ? { key: key.key } : {}),
  allowed_origins: key.allowedOrigins,
  created_at: key.createdAt.toISOString(),
  revoked_at: key.revokedAt?.toISOString() ?? null,
});

export interface InboxSiteKeyServiceDeps {
  sql: Sql;
  now: () => Date;
  record: RecordChange;
  /** The account's inbox of that number, or not_found. */
  inboxOf: (accountId: number, displayId: number) => Promise<InboxRecord>;
}

export function createInboxSiteKeyService({ sql, now, record, inboxOf }: InboxSiteKeyServiceDeps) {
  async function keyOf(accountId: number, displayId: number, id: number): Promise<SiteKeyRecord> {
    const inbox = await inboxOf(accountId, displayId);
    const key = await findInboxSiteKey(sql, inbox.id, id);
    if (!key) throw new ParleyError('not_found', `No site key ${id} on this inbox.`);
    return key;
  }

  return {
    async siteKeys(accountId: number, displayId: number) {
      return (await listInboxSiteKeys(sql, (await inboxOf(accountId, displayId)).id)).map((key) => siteKeyShape(key));
    },
    async createSiteKey(accountId: number, actor: Actor, displayId: number, body: z.infer<typeof SiteKeyCreate>) {
      const inbox = await inboxOf(accountId, displayId);
      return sql.transaction(async (tx) => {
        const key = await createInboxSiteKey(tx, inbox.id, body.environment, body.allowed_origins);
        const after = siteKeyShape(key);
        await record(tx, { accountId, actor, type: 'SiteKey', id: key.id, action: 'create', before: {}, after });
        return siteKeyShape(key, true);
      });
    },
    async setSiteKeyOrigins(accountId: number, actor: Actor, displayId: number, keyId: number, origins: string[]) {
      const key = await keyOf(accountId, displayId, keyId);
      if (key.environment === 'sandbox')
        throw new ParleyError(
          'unprocessable',
          'A sandbox site key works from any origin; only a live key lists origins.',
        );
      if (key.revokedAt) throw new ParleyError('unprocessable', 'This site key is revoked.');
      return sql.transaction(async (tx) => {
        await setSiteKeyOrigins(tx, key.id, origins);
        const shown = { before: siteKeyShape(key), after: siteKeyShape({ ...key, allowedOrigins: origins }) };
        await record(tx, { accountId, actor, type: 'SiteKey', id: key.id, action: 'update', ...shown });
        return shown.after;
      });
    },
    async revokeSiteKey(accountId: number, actor: Actor, displayId: number, keyId: number) {
      const key = await keyOf(accountId, displayId, keyId);
      await sql.transaction(async (tx) => {
        await revokeSiteKey(tx, key.id, now());
        if (key.revokedAt) return;
        const before = siteKeyShape(key);
        await record(tx, { accountId, actor, type: 'SiteKey', id: key.id, action: 'destroy', before, after: {} });
      });
    },
  };
}
