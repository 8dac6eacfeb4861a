import { fileURLToPath } from 'node:url';
import {
  migrate,
  resealStored,
  type Logger,
  type SealedColumn,
  type SecretBox,
  type Sql,
} from '../../shared/server/index.ts';
import { hashContactCapabilities } from '../client-api/store/capability-hashes.ts';
import { placeUnplacedState } from '../store/environments.ts';
import type { Environment } from '../store/inboxes.ts';

export const BFF_MIGRATIONS = fileURLToPath(new URL('../store/migrations/', import.meta.url));

/** Where the BFF keeps sealed secrets: sealed again under the current key at start (`resealStored`). */
export const BFF_SEALED_COLUMNS: readonly SealedColumn[] = [
  {
    table: 'settings',
    key: 'name',
    column: 'value',
    where:
      "name IN ('session_keys', 'engine_api_key', 'engine_api_key_live', 'engine_webhook', 'engine_webhook_live', 'engine_operator_token')",
  },
  { table: 'webhook_endpoints', key: 'id', column: 'secret' },
  { table: 'agent_bots', key: 'id', column: 'webhook_secret' },
  { table: 'inboxes', key: 'id', column: 'hmac_token', where: 'hmac_token IS NOT NULL' },
  // A Client API contact's capabilities, shown again by the API; found by their hashes (migration 042).
  { table: 'contacts', key: 'id', column: 'source_id', where: 'source_id IS NOT NULL' },
  { table: 'contacts', key: 'id', column: 'pubsub_token', where: 'pubsub_token IS NOT NULL' },
  { table: 'engine_accounts', key: 'account_id', column: 'api_keys' },
  { table: 'engine_accounts', key: 'account_id', column: 'webhooks', where: 'webhooks IS NOT NULL' },
];

/**
 * Readies the BFF's store before anything reads it: migrates it, places what was kept before
 * environments existed in the installation's first key's environment, and seals stored secrets
 * again under the current key.
 */
export async function prepareStore(
  sql: Sql,
  environment: Environment,
  secrets: SecretBox,
  logger: Logger,
): Promise<void> {
  await migrate(sql, BFF_MIGRATIONS);
  await placeUnplacedState(sql, environment);
  const hashed = await hashContactCapabilities(sql, secrets);
  if (hashed > 0) logger.info({ hashed }, 'contacts hashed under the current key, to be found by their capabilities');
  const resealed = await resealStored(sql, secrets, BFF_SEALED_COLUMNS);
  if (resealed > 0)
    logger.info({ resealed }, 'secrets stored before sealing, or under an older key, are sealed with the current key');
}
