import { ParleyError } from '../../shared/index.ts';
import type { SecretBox, Sql } from '../../shared/server/index.ts';
import type { EngineClient } from './engine-client.ts';
import type { EngineKeys } from './engine-keys.ts';
import { feedCursorName } from '../store/environments.ts';
import {
  engineWebhooksOf,
  findEngineAccount,
  listEngineAccountIds,
  readFeedCursor,
  scopeOfInbox,
  writeFeedCursor,
  type EngineScope,
} from './engine-accounts-store.ts';
import { readSetting, writeSetting, type Environment } from '../store/inboxes.ts';

export type { EngineScope } from './engine-accounts-store.ts';

/** Inboxes and accounts remembered per process (each is a few hundred bytes); beyond, the oldest is asked again. */
const KEPT = 10_000;

/** One engine feed the BFF reads: an engine account's, in one environment, with its own cursor. */
export interface EngineFeed {
  scope: EngineScope;
  environment: Environment;
  client: EngineClient;
  readCursor(): Promise<string | undefined>;
  writeCursor(cursor: string): Promise<void>;
}

/** Keeps at most KEPT entries: the first one set goes first. */
function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.set(key, value);
  if (map.size > KEPT) map.delete(map.keys().next().value!);
  return value;
}

/**
 * Which engine key a call goes with: the key of the conversation's helpdesk account (its own
 * engine account, issue 26) and of its environment, or the installation's configured keys
 * (AI_API_KEY) for inboxes of no account and accounts made before they had their own. An inbox
 * never moves to another account and an account's engine account changes only when such an
 * account is moved to one of its own (engine-account-moves.ts, with the BFF stopped or in this
 * process, which forgets it), so both are read once per process: the hot path asks the store
 * nothing more.
 */
export class EngineAccounts {
  readonly installation: EngineKeys;
  readonly #sql: Sql;
  readonly #secrets: SecretBox;
  readonly #scopes = new Map<string, EngineScope>();
  readonly #clients = new Map<number, Promise<Record<Environment, EngineClient>>>();
  readonly #webhookSecrets = new Map<number, string[]>();

  constructor({ sql, secrets, installation }: { sql: Sql; secrets: SecretBox; installation: EngineKeys }) {
    this.#sql = sql;
    this.#secrets = secrets;
    this.installation = installation;
  }

  /** The key of `environment` of the scope's engine account; a 503 `not_configured` for an environment the installation holds no key for. */
  async for(scope: EngineScope, environment: Environment): Promise<EngineClient> {
    if (scope === null) return this.installation.for(environment);
    let clients = this.#clients.get(scope);
    if (!clients) {
      clients = this.#open(scope);
      remember(this.#clients, scope, clients);
      clients.catch(() => this.#clients.get(scope) === clients && this.#clients.delete(scope));
    }
    return (await clients)[environment];
  }

  /** The key a conversation (or a customer) of this inbox goes to the engine with. */
  async forInbox(inboxId: string, environment: Environment): Promise<EngineClient> {
    return this.for(await this.scopeOfInbox(inboxId), environment);
  }

  /** Whose engine account serves the inbox; a 404 for an inbox that is not there (its account was deleted). */
  async scopeOfInbox(inboxId: string): Promise<EngineScope> {
    const known = this.#scopes.get(inboxId);
    if (known !== undefined) return known;
    const found = await scopeOfInbox(this.#sql, inboxId);
    if (!found) throw new ParleyError('not_found', 'The inbox of this conversation no longer exists.');
    return remember(this.#scopes, inboxId, found.scope);
  }

  /** Every feed to read: the installation's of each environment it has a key for, and both of every account's own. */
  async feeds(): Promise<EngineFeed[]> {
    const feeds: EngineFeed[] = this.installation.environments.map((environment) => ({
      scope: null,
      environment,
      client: this.installation.for(environment),
      readCursor: () => readSetting(this.#sql, feedCursorName(environment)),
      writeCursor: (cursor) => writeSetting(this.#sql, feedCursorName(environment), cursor),
    }));
    for (const accountId of await listEngineAccountIds(this.#sql)) {
      for (const environment of ['sandbox', 'live'] as const) {
        feeds.push({
          scope: accountId,
          environment,
          client: await this.for(accountId, environment),
          readCursor: () => readFeedCursor(this.#sql, accountId, environment),
          writeCursor: (cursor) => writeFeedCursor(this.#sql, accountId, environment, cursor),
        });
      }
    }
    return feeds;
  }

  /** The secrets the engine signs this account's webhooks with (one per environment); none while it has no endpoints. */
  async webhookSecrets(accountId: number): Promise<string[]> {
    const known = this.#webhookSecrets.get(accountId);
    if (known) return known;
    const secrets = (await engineWebhooksOf(this.#sql, this.#secrets, accountId)).map((webhook) => webhook.secret);
    // Only endpoints found are remembered: an account whose endpoints are being made is asked again.
    return secrets.length ? remember(this.#webhookSecrets, accountId, secrets) : secrets;
  }

  /**
   * Forgets what this process remembers of an account (deleted, its webhooks made again, or moved
   * to an engine account of its own: then its inboxes, remembered as the installation's, are named).
   */
  forget(accountId: number, inboxIds: readonly string[] = []): void {
    this.#clients.delete(accountId);
    this.#webhookSecrets.delete(accountId);
    for (const [inboxId, scope] of this.#scopes) if (scope === accountId) this.#scopes.delete(inboxId);
    for (const inboxId of inboxIds) this.#scopes.delete(inboxId);
  }

  async #open(accountId: number): Promise<Record<Environment, EngineClient>> {
    const stored = await findEngineAccount(this.#sql, this.#secrets, accountId);
    if (!stored) throw new ParleyError('not_found', `Account ${accountId} has no engine account (it was deleted).`);
    // The same engine as the installation's keys: another key, the same address, timeout and fetch.
    const base = this.installation.first;
    return { sandbox: base.withKey(stored.apiKeys.sandbox), live: base.withKey(stored.apiKeys.live) };
  }
}
