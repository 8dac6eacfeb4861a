import { z } from 'zod';
import {
  OperatorAccountCreated,
  OperatorAccountStatus,
  OperatorKeyCreated,
  OperatorKeyList,
  type OperatorAccountCreate,
} from '../../shared/schemas/engine-operator.ts';
import { AccountMoved, type AccountMove } from '../../shared/schemas/engine-account-moves.ts';
import type { Environment } from '../store/inboxes.ts';
import { callEngine, engineFetch, type EngineFetch, type EngineTransport } from './engine-client.ts';

export interface EngineOperatorOptions {
  /** Where the engine lives, e.g. `http://127.0.0.1:8081` (its `/operator/v1` is below). */
  baseUrl: string;
  /** The installation operator's token (the BFF's AI_OPERATOR_TOKEN, the engine's ENGINE_OPERATOR_TOKEN). */
  token: string;
  timeoutMs?: number;
  fetch?: EngineFetch;
}

/**
 * The BFF's client of the engine's operator routes (`/operator/v1/accounts`): it makes the engine
 * account of each helpdesk account made, and suspends, resumes and deletes it with it; it adds
 * and revokes the keys the account's administrators hand to their site's server. HTTP only,
 * as every other call to the engine; failures are EngineCallErrors.
 */
export class EngineOperator {
  readonly #transport: EngineTransport;

  constructor(options: EngineOperatorOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`the engine URL must be http(s), got ${options.baseUrl}`);
    if (options.token.length < 32) throw new TypeError('the operator token must be at least 32 characters');
    this.#transport = {
      baseUrl: url.href.replace(/\/$/, ''),
      bearer: options.token,
      timeoutMs: options.timeoutMs ?? 10_000,
      fetch: options.fetch ?? engineFetch,
    };
  }

  /** A new engine account with a sandbox and a live key (in this answer only). */
  createAccount(request: OperatorAccountCreate): Promise<OperatorAccountCreated> {
    return callEngine(this.#transport, 'POST', '/operator/v1/accounts', OperatorAccountCreated, request);
  }

  suspend(accountId: string): Promise<OperatorAccountStatus> {
    return callEngine(
      this.#transport,
      'POST',
      `/operator/v1/accounts/${encodeURIComponent(accountId)}/suspend`,
      OperatorAccountStatus,
      {},
    );
  }

  resume(accountId: string): Promise<OperatorAccountStatus> {
    return callEngine(
      this.#transport,
      'POST',
      `/operator/v1/accounts/${encodeURIComponent(accountId)}/resume`,
      OperatorAccountStatus,
      {},
    );
  }

  /** A new key of the account (in this answer only). */
  createKey(accountId: string, environment: Environment): Promise<OperatorKeyCreated> {
    return callEngine(
      this.#transport,
      'POST',
      `/operator/v1/accounts/${encodeURIComponent(accountId)}/keys`,
      OperatorKeyCreated,
      { environment },
    );
  }

  /** The account's keys, revoked ones too (never the keys themselves), oldest first. */
  async listKeys(accountId: string): Promise<OperatorKeyList['keys']> {
    const list = await callEngine(
      this.#transport,
      'GET',
      `/operator/v1/accounts/${encodeURIComponent(accountId)}/keys`,
      OperatorKeyList,
    );
    return list.keys;
  }

  /** Revokes one key of the account: it fails at once. */
  async revokeKey(accountId: string, keyId: string): Promise<void> {
    await callEngine(
      this.#transport,
      'DELETE',
      `/operator/v1/accounts/${encodeURIComponent(accountId)}/keys/${encodeURIComponent(keyId)}`,
      z.unknown(),
    );
  }

  /** Moves conversations of account `from` (the installation's) to an account of their own (bff/engine-link/engine-account-moves.ts). */
  moveAccount(from: string, move: AccountMove): Promise<AccountMoved> {
    return callEngine(
      this.#transport,
      'POST',
      `/operator/v1/accounts/${encodeURIComponent(from)}/moves`,
      AccountMoved,
      move,
    );
  }

  /** Deletes the account and everything it holds at the engine; its keys fail at once. */
  async deleteAccount(accountId: string): Promise<void> {
    await callEngine(this.#transport, 'DELETE', `/operator/v1/accounts/${encodeURIComponent(accountId)}`, z.unknown());
  }
}
