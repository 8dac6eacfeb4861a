import { ParleyError, randomToken } from '../../shared/index.ts';
import type { AccountMoved } from '../../shared/schemas/engine-account-moves.ts';
import type { Logger, SecretBox, Sql } from '../../shared/server/index.ts';
import { feedCursorName } from '../store/environments.ts';
import { readSetting, writeSetting } from '../store/inboxes.ts';
import { createEngineAccountProvisioning, engineTrouble } from './engine-account-provisioning.ts';
import type { EngineAccounts } from './engine-accounts.ts';
import type { EngineOperator } from './engine-operator.ts';
import {
  engineConversationsOfAccount,
  findAccountToMove,
  inboxIdsOfAccount,
  insertEngineAccount,
  markEngineAccountMoved,
  type AccountToMove,
} from './engine-accounts-store.ts';

/** Conversations named in one request to the engine (its limit is 1000). */
const MOVE_BATCH = 500;

export interface EngineAccountMoveDeps {
  sql: Sql;
  secrets: SecretBox;
  /** Which engine key each conversation goes with; the moved account's inboxes are forgotten in it. */
  engines: EngineAccounts;
  /** The engine's operator routes (AI_OPERATOR_TOKEN): without them nothing can be moved. */
  operator: EngineOperator | undefined;
  /** Where the engine posts events to this BFF (see EngineAccountProvisioningDeps). */
  webhookUrl: string | undefined;
  logger: Logger;
  now: () => Date;
}

export type EngineAccountMoveOutcome =
  | { outcome: 'moved'; engineAccountId: string; conversations: number }
  | { outcome: 'already_moved'; engineAccountId: string };

/** The setting that keeps a move's reference until the move is recorded, so a move tried again continues the same one. */
const referenceSetting = (accountId: number) => `engine_account_move_${accountId}`;

async function moveReference(sql: Sql, accountId: number): Promise<string> {
  const kept = await readSetting(sql, referenceSetting(accountId));
  if (kept) return kept;
  const made = `bff-account-${accountId}-${randomToken(24)}`;
  await writeSetting(sql, referenceSetting(accountId), made);
  return made;
}

/** The account, if it can be moved: a 404 for no such account, a 409 for one that had its own engine account from the start. */
async function accountToMove(sql: Sql, accountId: number): Promise<AccountToMove> {
  const account = await findAccountToMove(sql, accountId);
  if (!account) throw new ParleyError('not_found', `No account ${accountId}.`);
  if (account.engineAccountId && !account.movedAt) {
    throw new ParleyError(
      'conflict',
      `Account ${accountId} has had an engine account of its own (${account.engineAccountId}) since it was made: there is nothing to move.`,
    );
  }
  return account;
}

/** Has the engine move the account's conversations, a batch a request, under one reference; gives the last answer (its keys are the ones that work). */
async function moveAtEngine(deps: EngineAccountMoveDeps, account: AccountToMove): Promise<AccountMoved> {
  const { sql, engines, operator } = deps;
  if (!operator) {
    throw new ParleyError(
      'not_configured',
      "This installation cannot move accounts: the BFF has no AI_OPERATOR_TOKEN (the engine's ENGINE_OPERATOR_TOKEN).",
    );
  }
  const from = (await engines.installation.first.me().catch(engineTrouble)).account_id;
  const reference = await moveReference(sql, account.id);
  const conversations = await engineConversationsOfAccount(sql, account.id);
  // Where the BFF has read the installation's feeds: the new account's feeds go on from there.
  const feedCursors: { sandbox?: string; live?: string } = {};
  for (const environment of ['sandbox', 'live'] as const) {
    const cursor = await readSetting(sql, feedCursorName(environment));
    if (cursor) feedCursors[environment] = cursor;
  }
  let moved: AccountMoved | undefined;
  let count = 0;
  for (let start = 0; start === 0 || start < conversations.length; start += MOVE_BATCH) {
    const batch = conversations.slice(start, start + MOVE_BATCH);
    moved = await operator
      .moveAccount(from, { reference, name: account.name, conversation_ids: batch, feed_cursors: feedCursors })
      .catch(engineTrouble);
    count += moved.moved;
  }
  return { ...moved!, moved: count };
}

/**
 * Moves a helpdesk account that the installation's engine account serves (made before accounts had
 * engine accounts of their own) to an engine account of its own: the engine makes it, copies the
 * installation's knowledge, actions and profile to it and moves the account's conversations there
 * (engine/account-moves.ts); then the account's new engine account and its keys are kept here,
 * sealed, with where its feeds go on from, and this process forgets what it remembered of it.
 * Each step can be run again: a move cut off half way is finished by moving again (the engine finds
 * the account it made by the move's reference), and an account moved already is moved no more. Its
 * engine account is then suspended if the account is, and its webhooks are registered. Run it with
 * the BFF stopped, or in the BFF's own process: another running BFF process remembers the
 * account's inboxes as the installation's until it is started again.
 */
export async function moveToOwnEngineAccount(
  deps: EngineAccountMoveDeps,
  accountId: number,
): Promise<EngineAccountMoveOutcome> {
  const { sql, secrets, engines, now } = deps;
  const account = await accountToMove(sql, accountId);
  let outcome: EngineAccountMoveOutcome;
  if (account.engineAccountId) {
    outcome = { outcome: 'already_moved', engineAccountId: account.engineAccountId };
  } else {
    const moved = await moveAtEngine(deps, account);
    await sql.transaction(async (tx) => {
      const apiKeys = { sandbox: moved.keys.test, live: moved.keys.live };
      await insertEngineAccount(tx, secrets, { accountId, engineAccountId: moved.account_id, apiKeys }, now());
      await markEngineAccountMoved(tx, accountId, moved.feed_cursors, now());
      await tx.query('DELETE FROM settings WHERE name = $1', [referenceSetting(accountId)]);
    });
    engines.forget(accountId, await inboxIdsOfAccount(sql, accountId));
    outcome = { outcome: 'moved', engineAccountId: moved.account_id, conversations: moved.moved };
  }
  // Again on every run: a run cut off after the move finishes these here.
  const provisioning = createEngineAccountProvisioning({ ...deps, accounts: engines });
  if (account.status === 'suspended') await provisioning.setSuspended(accountId, true);
  await provisioning.connectWebhooks(accountId);
  return outcome;
}
