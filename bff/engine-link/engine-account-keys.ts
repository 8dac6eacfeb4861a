import { ParleyError } from '../../shared/index.ts';
import type { OperatorKeyCreated } from '../../shared/schemas/engine-operator.ts';
import type { Logger, Queryable, Sql } from '../../shared/server/index.ts';
import type { Environment } from '../store/inboxes.ts';
import { engineTrouble } from './engine-account-provisioning.ts';
import { EngineCallError } from './engine-client.ts';
import type { EngineOperator } from './engine-operator.ts';
import {
  countUnrevokedEngineAccountKeys,
  engineAccountIdOf,
  findEngineAccountKey,
  insertEngineAccountKey,
  listEngineAccountKeys,
  markEngineAccountKeyRevoked,
  type EngineAccountKey,
} from './engine-accounts-store.ts';

/** Unrevoked keys an account may hold per environment: enough to rotate on a few servers (the new key before the old is revoked). */
export const ENGINE_ACCOUNT_KEYS_MAX = 10;

/** A key just made at the engine and not yet kept here: the whole key is in `created` only. */
export interface OpenedEngineAccountKey {
  accountId: number;
  engineAccountId: string;
  created: OperatorKeyCreated;
}

export interface EngineAccountKeysDeps {
  sql: Sql;
  /** The engine's operator routes (AI_OPERATOR_TOKEN); without them no key can be made or revoked. */
  operator: EngineOperator | undefined;
  logger: Logger;
  now: () => Date;
}

/** The engine's operator routes, or a refusal naming what this installation lacks for keys. */
function operatorOrRefuse(operator: EngineOperator | undefined): EngineOperator {
  if (operator) return operator;
  throw new ParleyError(
    'not_configured',
    "This installation cannot make API keys: the BFF has no AI_OPERATOR_TOKEN (the engine's ENGINE_OPERATOR_TOKEN).",
  );
}

/**
 * The account's own engine account. An account made before accounts had their own is served by
 * the installation's engine account (AI_API_KEY), which the BFF goes to the engine with but does
 * not operate: its keys are the installation operator's to give (`npm run engine:account`).
 */
async function engineAccountOf(sql: Sql, accountId: number): Promise<string> {
  const engineAccountId = await engineAccountIdOf(sql, accountId);
  if (engineAccountId) return engineAccountId;
  throw new ParleyError(
    'unprocessable',
    "This account is served by the installation's engine account (AI_API_KEY), which this server does not operate: its API keys come from the installation's operator. Accounts made through the Platform API have an engine account of their own, and get their keys here.",
  );
}

/**
 * The API keys of an account's own engine account that its administrators hand to their site's
 * server (the BFF's own keys of it stay sealed and are never among them): made and revoked at the
 * engine through its operator routes, and remembered here without the key, so that only these are
 * listed and revoked. As with the engine account itself, the engine comes first: a failure there
 * keeps nothing here, and a key made there that could not be kept here is revoked again.
 */
export function createEngineAccountKeys({ sql, operator, logger, now }: EngineAccountKeysDeps) {
  return {
    /** Makes a key of `environment` at the engine (422 for an account without an engine account of its own, or with ENGINE_ACCOUNT_KEYS_MAX unrevoked there). */
    async open(accountId: number, environment: Environment): Promise<OpenedEngineAccountKey> {
      const engineAccountId = await engineAccountOf(sql, accountId);
      if ((await countUnrevokedEngineAccountKeys(sql, accountId, environment)) >= ENGINE_ACCOUNT_KEYS_MAX) {
        throw new ParleyError(
          'unprocessable',
          `This account holds ${ENGINE_ACCOUNT_KEYS_MAX} ${environment} API keys already: revoke one it no longer uses first.`,
          {
            problems: [{ field: 'environment', message: `at most ${ENGINE_ACCOUNT_KEYS_MAX} unrevoked keys` }],
          },
        );
      }
      const created = await operatorOrRefuse(operator).createKey(engineAccountId, environment).catch(engineTrouble);
      return { accountId, engineAccountId, created };
    },

    /** Keeps the new key (without the key) in the caller's transaction. */
    keep(tx: Queryable, opened: OpenedEngineAccountKey): Promise<EngineAccountKey> {
      const { created } = opened;
      return insertEngineAccountKey(tx, {
        accountId: opened.accountId,
        engineKeyId: created.id,
        environment: created.environment,
        prefix: created.prefix,
        createdAt: new Date(created.created_at),
      });
    },

    /** Revokes at the engine a key that could not be kept here after all. */
    async abandon(opened: OpenedEngineAccountKey): Promise<void> {
      await operator?.revokeKey(opened.engineAccountId, opened.created.id).catch((error: unknown) => {
        logger.warn(
          { err: error, engineAccount: opened.engineAccountId, key: opened.created.id },
          'an API key made for an account was not kept and could not be revoked; revoke it at the engine',
        );
      });
    },

    /** The account's keys, revoked ones too, oldest first. */
    list: (accountId: number): Promise<EngineAccountKey[]> => listEngineAccountKeys(sql, accountId),

    /** One of the account's keys; a 404 for any other. */
    async find(accountId: number, id: number): Promise<EngineAccountKey> {
      const key = await findEngineAccountKey(sql, accountId, id);
      if (!key) throw new ParleyError('not_found', `No API key ${id} in this account.`);
      return key;
    },

    /** Revokes the key at the engine: from the next request on it is refused there and here. One the engine no longer has is as good as revoked. */
    async revokeAtEngine(key: EngineAccountKey): Promise<void> {
      const engineAccountId = await engineAccountIdOf(sql, key.accountId);
      if (!engineAccountId) return;
      await operatorOrRefuse(operator)
        .revokeKey(engineAccountId, key.engineKeyId)
        .catch((error: unknown) => {
          if (error instanceof EngineCallError && error.status === 404) return;
          engineTrouble(error);
        });
    },

    /** Records the revocation, in the caller's transaction. */
    markRevoked: (tx: Queryable, key: EngineAccountKey): Promise<void> =>
      markEngineAccountKeyRevoked(tx, key.id, now()),
  };
}

export type EngineAccountKeys = ReturnType<typeof createEngineAccountKeys>;
