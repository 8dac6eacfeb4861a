import type { Logger, SecretBox, SessionTokens, Sql } from '../../shared/server/index.ts';
import { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { EngineKeys } from '../engine-link/engine-keys.ts';
import { WidgetSessions } from '../widget/sessions.ts';

export interface EngineAccessDeps {
  sql: Sql;
  secrets: SecretBox;
  installation: EngineKeys;
  tokens: SessionTokens;
  defaultInboxId?: string | undefined;
  logger: Logger;
  now: () => Date;
}

/** Which engine key each conversation goes with, the installation's own engine account, and the widget's sessions that rest on both. */
export async function createEngineAccess({
  sql,
  secrets,
  installation,
  tokens,
  defaultInboxId,
  logger,
  now,
}: EngineAccessDeps) {
  // Which engine key each conversation goes with: its account's own engine account's, or the installation's.
  const engines = new EngineAccounts({ sql, secrets, installation });
  // The installation's engine account, asked once (again after a failure): only its keys mint sessions for the default inbox here.
  let ownAccount: Promise<string> | undefined;
  const ownAccountId = () =>
    (ownAccount ??= installation.first.me().then(
      (me) => me.account_id,
      (error: unknown) => {
        ownAccount = undefined;
        throw error;
      },
    ));
  // Sessions minted with the installation's API key belong to the default inbox: it must be one the installation's keys serve.
  const sessionInboxId =
    defaultInboxId && (await engines.scopeOfInbox(defaultInboxId).catch(() => null)) !== null
      ? undefined
      : defaultInboxId;
  if (defaultInboxId && !sessionInboxId)
    logger.warn(
      { defaultInboxId },
      "the default inbox has an engine account of its own: sessions minted with the installation's API key are refused",
    );
  const sessions = new WidgetSessions(sql, tokens, sessionInboxId, ownAccountId, now);
  return { engines, ownAccountId, sessions };
}

export type EngineAccess = Awaited<ReturnType<typeof createEngineAccess>>;
