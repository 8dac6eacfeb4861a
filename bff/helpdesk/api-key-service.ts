import type { Sql } from '../../shared/server/index.ts';
import type { EngineAccountKeys } from '../engine-link/engine-account-keys.ts';
import type { EngineAccountKey } from '../engine-link/engine-accounts-store.ts';
import type { Environment } from '../store/inboxes.ts';
import { createAuditService } from './audit-service.ts';
import type { Actor } from './store/audit-log.ts';
import type { ApiKey } from '../../shared/schemas/helpdesk/index.ts';

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
  const { record } = createAuditService({ sql, now });

  return {
    async list(accountId: number): Promise<ApiKey[]> {
      return (await keys.list(accountId)).map((key) => apiKeyShape(key));
    },

    /**
     * Makes the key at the engine, then keeps it here with its audit entry in one transaction that
     * counts the account's keys again under its lock (`keys.keep`), so the cap holds for requests at
     * the same instant; a key made there that is not kept here is revoked again. The key is in this
     * answer only.
     */
    async create(accountId: number, actor: Actor, environment: Environment): Promise<ApiKey> {
      const opened = await keys.open(accountId, environment);
      try {
        return await sql.transaction(async (tx) => {
          const kept = await keys.keep(tx, opened);
          const after = apiKeyShape(kept);
          await record(tx, { accountId, actor, type: 'ApiKey', id: kept.id, action: 'create', before: {}, after });
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
        const before = apiKeyShape(key);
        await record(tx, { accountId, actor, type: 'ApiKey', id: key.id, action: 'destroy', before, after: {} });
      });
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
