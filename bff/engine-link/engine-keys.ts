import { ParleyError } from '../../shared/index.ts';
import type { EngineClient } from './engine-client.ts';
import type { Environment } from '../store/inboxes.ts';

/**
 * The installation's keys to its engine (AI_API_KEY), at most one per environment, all of one
 * engine account: they serve inboxes of no account and accounts made before each account had an
 * engine account of its own (`EngineAccounts` picks the key of a conversation's account). A
 * conversation goes to the engine with the key of its own environment, so a sandbox customer never
 * reaches live data (nor live customers sandbox fixtures). The first key is the one the BFF had
 * before it held one per environment: what it kept then belongs to that key's environment.
 */
export class EngineKeys {
  readonly #clients = new Map<Environment, EngineClient>();
  readonly first: EngineClient;

  constructor(clients: EngineClient | readonly EngineClient[]) {
    const list = Array.isArray(clients) ? clients : [clients as EngineClient];
    if (list.length === 0) throw new TypeError('the BFF needs at least one engine key');
    for (const client of list) {
      if (this.#clients.has(client.environment))
        throw new TypeError(`two ${client.environment} engine keys: give at most one per environment`);
      this.#clients.set(client.environment, client);
    }
    this.first = list[0]!;
  }

  /** The environments this BFF can serve. */
  get environments(): Environment[] {
    return [...this.#clients.keys()];
  }

  has(environment: Environment): boolean {
    return this.#clients.has(environment);
  }

  /** The key of `environment`; a 503 `not_configured` when this BFF holds none. */
  for(environment: Environment): EngineClient {
    const client = this.#clients.get(environment);
    if (!client)
      throw new ParleyError(
        'not_configured',
        `This chat is not set up for ${environment} customers yet (the server has no ${environment} engine key).`,
      );
    return client;
  }
}
