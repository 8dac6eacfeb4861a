import { ParleyError } from '../../shared/index.ts';
import type { OperatorKey, OperatorKeyCreated } from '../../shared/schemas/engine-operator.ts';
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
 * not operate: its keys are the installation operator's to give (`npm run engine:account`) until
 * it is moved to one of its own (engine-account-moves.ts).
 */
async function engineAccountOf(db: Queryable, accountId: number): Promise<string> {
  const engineAccountId = await engineAccountIdOf(db, accountId);
  if (engineAccountId) return engineAccountId;
  throw new ParleyError(
    'unprocessable',
    "This account is served by the installation's engine account (AI_API_KEY), which this server does not operate: its API keys come from the installation's operator, until the operator moves it to an engine account of its own (npm run bff:accounts -- move-engine <account_id>). Accounts made through the Platform API, and moved ones, get their keys here.",
  );
}

/** The engine account's keys as the engine has them (its operator routes). */
const engineKeys = (operator: EngineOperator | undefined, engineAccountId: string): Promise<OperatorKey[]> =>
  operatorOrRefuse(operator).listKeys(engineAccountId).catch(engineTrouble);

/** Marks revoked here the account's keys the engine has revoked, or no longer has. */
async function markRevokedAtEngine(
  db: Queryable,
  { logger, now }: Pick<EngineAccountKeysDeps, 'logger' | 'now'>,
  accountId: number,
  atEngine: readonly OperatorKey[],
): Promise<void> {
  const byId = new Map(atEngine.map((key) => [key.id, key]));
  for (const key of await listEngineAccountKeys(db, accountId)) {
    if (key.revokedAt) continue;
    const there = byId.get(key.engineKeyId);
    if (there && !there.revoked_at) continue;
    await markEngineAccountKeyRevoked(db, key.id, there?.revoked_at ? new Date(there.revoked_at) : now());
    logger.info({ account: accountId, key: key.id }, 'an API key revoked at the engine is marked revoked');
  }
}

/** Marks revoked here what the engine has revoked, when it can be asked (a failure is logged: the list is then the last known). */
async function followEngineRevocations(deps: EngineAccountKeysDeps, accountId: number): Promise<void> {
  const engineAccountId = await engineAccountIdOf(deps.sql, accountId);
  if (!engineAccountId || !deps.operator) return;
  const atEngine = await engineKeys(deps.operator, engineAccountId).catch((error: unknown) => {
    deps.logger.warn({ err: error, account: accountId }, "the engine's list of an account's keys could not be read");
    return undefined;
  });
  if (atEngine) await markRevokedAtEngine(deps.sql, deps, accountId, atEngine);
}

/** Refuses a key past ENGINE_ACCOUNT_KEYS_MAX unrevoked ones of `environment` (422). */
async function refuseOverCap(db: Queryable, accountId: number, environment: Environment): Promise<void> {
  if ((await countUnrevokedEngineAccountKeys(db, accountId, environment)) < ENGINE_ACCOUNT_KEYS_MAX) return;
  throw new ParleyError(
    'unprocessable',
    `This account holds ${ENGINE_ACCOUNT_KEYS_MAX} ${environment} API keys already: revoke one it no longer uses first.`,
    { problems: [{ field: 'environment', message: `at most ${ENGINE_ACCOUNT_KEYS_MAX} unrevoked keys` }] },
  );
}

/**
 * The API keys of an account's own engine account that its administrators hand to their site's
 * server (the BFF's own keys of it stay sealed and are never among them): made and revoked at the
 * engine through its operator routes, and remembered here without the key, so that only these are
 * listed and revoked. As with the engine account itself, the engine comes first: a failure there
 * keeps nothing here, and a key made there that could not be kept here is revoked again.
 */
export function createEngineAccountKeys(deps: EngineAccountKeysDeps) {
  const { sql, operator, logger, now } = deps;
  return {
    /**
     * Makes a key of `environment` at the engine (422 for an account without an engine account of
     * its own, or with ENGINE_ACCOUNT_KEYS_MAX unrevoked, keys revoked at the engine directly
     * marked first). No transaction is held while the engine answers (an embedded store has one
     * connection for everyone): `keep` counts again under the account's lock.
     */
    async open(accountId: number, environment: Environment): Promise<OpenedEngineAccountKey> {
      const engineAccountId = await engineAccountOf(sql, accountId);
      await markRevokedAtEngine(sql, deps, accountId, await engineKeys(operator, engineAccountId));
      await refuseOverCap(sql, accountId, environment);
      const created = await operatorOrRefuse(operator).createKey(engineAccountId, environment).catch(engineTrouble);
      return { accountId, engineAccountId, created };
    },

    /**
     * Keeps the new key (without the key) in the caller's transaction, under an advisory lock on
     * the account's keys until it ends: requests at the same instant are counted one after the
     * other, so the cap holds (one refused here has its key `abandon`ed).
     */
    async keep(tx: Queryable, opened: OpenedEngineAccountKey): Promise<EngineAccountKey> {
      const { accountId, created } = opened;
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`engine-account-keys:${accountId}`]);
      await refuseOverCap(tx, accountId, created.environment);
      return insertEngineAccountKey(tx, {
        accountId,
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

    /**
     * The account's keys, revoked ones too, oldest first, as the engine has them: a key the
     * installation's operator revoked at the engine directly is marked revoked here first. When the
     * engine cannot be asked, the keys as this store last knew them.
     */
    async list(accountId: number): Promise<EngineAccountKey[]> {
      await followEngineRevocations(deps, accountId);
      return listEngineAccountKeys(sql, accountId);
    },

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
