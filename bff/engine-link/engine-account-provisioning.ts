import { ParleyError } from '../../shared/index.ts';
import type { OperatorAccountCreated } from '../../shared/schemas/engine-operator.ts';
import type { Logger, Queryable, SecretBox, Sql } from '../../shared/server/index.ts';
import type { EngineAccounts } from './engine-accounts.ts';
import { EngineCallError } from './engine-client.ts';
import type { EngineOperator } from './engine-operator.ts';
import {
  engineWebhooksOf,
  findEngineAccount,
  insertEngineAccount,
  setEngineWebhooks,
  type EngineWebhook,
} from './engine-accounts-store.ts';

export interface EngineAccountProvisioningDeps {
  sql: Sql;
  secrets: SecretBox;
  accounts: EngineAccounts;
  /** The engine's operator routes (AI_OPERATOR_TOKEN); without them no account can be made. */
  operator: EngineOperator | undefined;
  /**
   * Where the engine posts events to this BFF (its `/v1/engine-webhooks`, as the engine reaches it):
   * each new account's endpoints post to this with `/{account}` appended. Unset: new accounts'
   * events are read from their feeds.
   */
  webhookUrl: string | undefined;
  logger: Logger;
  now: () => Date;
}

/** What the engine said, as the helpdesk's own error: it is away or busy (503, try again), or it refused. */
export function engineTrouble(error: unknown): never {
  if (!(error instanceof EngineCallError)) throw error;
  const retryAfterS = (error.retryAfterMs ?? 5_000) / 1000;
  throw new ParleyError(
    'upstream_unavailable',
    `The AI engine could not make the change now (${error.message}); nothing was changed, try again shortly.`,
  ).retryAfter(retryAfterS);
}

/** The engine's operator routes, or a refusal naming what this installation lacks for accounts. */
function operatorOrRefuse(operator: EngineOperator | undefined): EngineOperator {
  if (operator) return operator;
  throw new ParleyError(
    'not_configured',
    "This installation cannot make accounts: the BFF has no AI_OPERATOR_TOKEN (the engine's ENGINE_OPERATOR_TOKEN), and every account needs an engine account of its own.",
  );
}

/** Deletes an engine account whose helpdesk account could not be made after all. */
async function abandonEngineAccount(
  operator: EngineOperator | undefined,
  logger: Logger,
  opened: OperatorAccountCreated,
): Promise<void> {
  await operator?.deleteAccount(opened.account_id).catch((error: unknown) => {
    logger.warn(
      { err: error, engineAccount: opened.account_id },
      'an engine account made for a helpdesk account that was not made could not be deleted; delete it at the engine',
    );
  });
}

/**
 * Has the engine post the account's events to `/v1/engine-webhooks/{account}` (one endpoint per
 * environment, registered with the account's own keys), unless it does already, or the account
 * has no engine account of its own. A failure is logged: the feed brings the events all the same
 * (an account made suspended gets them when it is resumed).
 */
async function connectEngineWebhooks(deps: EngineAccountProvisioningDeps, accountId: number): Promise<void> {
  const { sql, secrets, accounts, webhookUrl, logger } = deps;
  if (
    !webhookUrl ||
    !(await findEngineAccount(sql, secrets, accountId)) ||
    (await engineWebhooksOf(sql, secrets, accountId)).length > 0
  )
    return;
  const webhooks: EngineWebhook[] = [];
  try {
    for (const environment of ['sandbox', 'live'] as const) {
      const created = await (
        await accounts.for(accountId, environment)
      ).createWebhookEndpoint(`${webhookUrl.replace(/\/$/, '')}/${accountId}`, 'Parley BFF');
      webhooks.push({ environment, id: created.id, secret: created.secret });
    }
  } catch (error) {
    logger.warn(
      { err: error, accountId },
      "the engine did not take this account's webhook endpoints; its events are read from the feed",
    );
  }
  await setEngineWebhooks(sql, secrets, accountId, webhooks);
  accounts.forget(accountId);
}

/**
 * The engine accounts of helpdesk accounts (issue 26): made through the engine's operator routes
 * when a helpdesk account is made, kept sealed with it, and suspended, resumed and deleted at the
 * engine before the helpdesk account is, so that a failure at the engine changes nothing here. An
 * account without one (made before accounts had their own) is left to the installation's keys,
 * which serve others too: suspending it here does not suspend them.
 */
export function createEngineAccountProvisioning(deps: EngineAccountProvisioningDeps) {
  const { sql, secrets, accounts, operator, logger, now } = deps;
  const ownEngineAccount = (accountId: number) => findEngineAccount(sql, secrets, accountId);
  const abandon = (opened: OperatorAccountCreated) => abandonEngineAccount(operator, logger, opened);

  return {
    /** Makes the engine account of a helpdesk account about to be made (suspended already when it is to be). */
    async open(name: string, suspended: boolean): Promise<OperatorAccountCreated> {
      const engine = operatorOrRefuse(operator);
      const opened = await engine.createAccount({ name }).catch(engineTrouble);
      if (suspended) {
        await engine.suspend(opened.account_id).catch(async (error: unknown) => {
          await abandon(opened);
          engineTrouble(error);
        });
      }
      return opened;
    },

    /** Keeps the new engine account with its helpdesk account, in the transaction that makes it. */
    keep(tx: Queryable, accountId: number, opened: OperatorAccountCreated): Promise<void> {
      return insertEngineAccount(
        tx,
        secrets,
        {
          accountId,
          engineAccountId: opened.account_id,
          apiKeys: { sandbox: opened.keys.test, live: opened.keys.live },
        },
        now(),
      );
    },

    abandon,

    /** Has the engine post the account's events to this BFF by webhook (see connectEngineWebhooks). */
    connectWebhooks: (accountId: number): Promise<void> => connectEngineWebhooks(deps, accountId),

    /** Suspends or resumes the account's engine account (none of its own: nothing to do there). */
    async setSuspended(accountId: number, suspended: boolean): Promise<void> {
      const own = await ownEngineAccount(accountId);
      if (!own) return;
      const engine = operatorOrRefuse(operator);
      await (suspended ? engine.suspend(own.engineAccountId) : engine.resume(own.engineAccountId)).catch(engineTrouble);
    },

    /** Deletes the account's engine account with everything it holds (one already gone at the engine is fine). */
    async remove(accountId: number): Promise<void> {
      const own = await ownEngineAccount(accountId);
      if (!own) return;
      await operatorOrRefuse(operator)
        .deleteAccount(own.engineAccountId)
        .catch((error: unknown) => {
          if (error instanceof EngineCallError && error.status === 404) return;
          engineTrouble(error);
        });
      accounts.forget(accountId);
    },
  };
}

export type EngineAccountProvisioning = ReturnType<typeof createEngineAccountProvisioning>;
