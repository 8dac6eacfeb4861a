import type { Queryable, Sql } from '../../shared/server/index.ts';
import type { EngineAccountKeys } from '../engine-link/engine-account-keys.ts';
import type { EngineAccountKey } from '../engine-link/engine-accounts-store.ts';
import type { Environment } from '../store/inboxes.ts';
import { changesBetween, writeAudit, type Actor } from './store/audit-log.ts';
import type { ApiKey } from '../../shared/schemas/helpdesk/index.ts';

/** A record's fields as the audit log compares them. */
type Fields = Record<string, unknown>;

/** A key as the Application API shows it: the whole key only in the answer that made it. */
export const apiKeyShape = (key: EngineAccountKey, shown?: string): ApiKey => ({
  id: key.id,
  environment: key.environment,
  prefix: key.prefix,
  ...(shown ? { key: shown } : {}),
  created_at: key.createdAt.toISOString(),
  revoked_at: key.revokedAt?.toISOString() ?? null,
});

/**
 * The API keys an account's administrators get for their site's server: keys of the account's own
 * engine account. Making and revoking one is audited (its prefix, never the key).
 */
export function createApiKeyService({ sql, keys, now }: { sql: Sql; keys: EngineAccountKeys; now: () => Date }) {
  const audit = (
    db: Queryable,
    accountId: number,
    actor: Actor,
    id: number,
    action: 'create' | 'destroy',
    before: Fields,
    after: Fields,
  ) =>
    writeAudit(
      db,
      { accountId, actor, auditableType: 'ApiKey', auditableId: id, action, changes: changesBetween(before, after) },
      now(),
    );

  return {
    async list(accountId: number): Promise<ApiKey[]> {
      return (await keys.list(accountId)).map((key) => apiKeyShape(key));
    },

    /** Makes the key at the engine, then keeps it here with its audit entry; the key is in this answer only. */
    async create(accountId: number, actor: Actor, environment: Environment): Promise<ApiKey> {
      const opened = await keys.open(accountId, environment);
      try {
        return await sql.transaction(async (tx) => {
          const kept = await keys.keep(tx, opened);
          await audit(tx, accountId, actor, kept.id, 'create', {}, apiKeyShape(kept));
          return apiKeyShape(kept, opened.created.key);
        });
      } catch (error) {
        await keys.abandon(opened);
        throw error;
      }
    },

    /** Revokes the key at the engine first (it fails there at once), then records it; a revoked key stays revoked. */
    async revoke(accountId: number, actor: Actor, id: number): Promise<void> {
      const key = await keys.find(accountId, id);
      if (key.revokedAt) return;
      await keys.revokeAtEngine(key);
      await sql.transaction(async (tx) => {
        await keys.markRevoked(tx, key);
        await audit(tx, accountId, actor, key.id, 'destroy', apiKeyShape(key), {});
      });
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
