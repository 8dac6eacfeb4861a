import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomToken } from '../shared/index.ts';
import { MemoryRollingLimiter, openSql, type SessionTokens, type Sql } from '../shared/server/index.ts';
import type { BffDeps } from '../bff/index.ts';
import {
  createAccount,
  createEngine,
  issueApiKey,
  revokeApiKey,
  setAccountRateLimit,
  type Engine,
  type EngineDeps,
} from '../engine/index.ts';
import { startBffAndEngine, type TestStack } from './bff-and-engine.ts';
import { closeServer, listen } from './local-servers.ts';
import { openShopAccount } from './shop-fixtures.ts';
import { dropSchemas, DRIVERS, logger, uniqueSchemaPrefix, type Driver } from './test-run.ts';

/**
 * What most tests start: the BFF and its engine (test/bff-and-engine.ts) or the engine alone, built
 * from the real parts on port 0, and a small HTTP client to talk to them.
 */
export { DRIVERS, POSTGRES_URL, logger, uniqueSchemaPrefix, dropSchemas, type Driver } from './test-run.ts';
export { closeServer, freePort } from './local-servers.ts';
export { DEMO_API_KEY, DEMO_SITE_KEY, startBffAndEngine, type BffNode, type TestStack } from './bff-and-engine.ts';

/**
 * The BFF and its engine (startBffAndEngine) for tests that make many sessions and send many
 * messages from one address: the site-key limit and the per-address message limit are lifted here
 * (they have tests of their own, which pass the real ones back in `bff`).
 */
export function startStack(
  driver: Driver = DRIVERS[0]!,
  env: Record<string, string> = {},
  bff: Partial<BffDeps> = {},
): Promise<TestStack> {
  const siteKeyLimiter = new MemoryRollingLimiter(100_000, 3_600_000);
  const messageLimits = { perAddressPerMinute: 100_000, ...bff.messageLimits };
  return startBffAndEngine({ driver, env, bff: { siteKeyLimiter, ...bff, messageLimits } });
}

export interface TestEngine {
  url: string;
  sql: Sql;
  engine: Engine;
  accountId: string;
  /** The test account's sandbox key. */
  apiKey: string;
  /** The test account's live key. */
  liveApiKey: string;
  /** Both keys as a BFF's AI_API_KEY holds them (the sandbox key first). */
  apiKeys: string;
  /** The installation operator's token (ENGINE_OPERATOR_TOKEN): it opens /operator/v1/accounts. */
  operatorToken: string;
  /** Stops answering HTTP (connections refused), keeping the store: the engine is "down". */
  pause(): Promise<void>;
  /** Answers again on the same port. */
  resume(): Promise<void>;
  /** Another API key of the test account (or, with `otherAccount`, of a new account): what a site's server holds. */
  issueKey(options?: { otherAccount?: boolean }): Promise<{ id: string; key: string; accountId: string }>;
  /** Revokes an API key, as an operator would. */
  revokeKey(id: string): Promise<void>;
  /** The test account's sandbox limit of requests a minute. */
  setRequestsPerMinute(limit: number): Promise<void>;
  stop(): Promise<void>;
}

/** The engine alone, with the shop's account (test/shop-fixtures.ts): its sandbox and live keys and its knowledge base. */
export async function startEngine(
  driver: Driver = DRIVERS[0]!,
  now?: () => Date,
  options: {
    tokens?: SessionTokens;
    webhooks?: EngineDeps['webhooks'];
    llm?: EngineDeps['llm'];
    embeddings?: EngineDeps['embeddings'];
    media?: EngineDeps['media'];
    tts?: EngineDeps['tts'];
  } = {},
): Promise<TestEngine> {
  const prefix = uniqueSchemaPrefix();
  const sql = await openSql({ databaseUrl: driver.databaseUrl, dataDir: 'memory://', schema: `${prefix}engine` });
  const operatorToken = `op_${randomToken(40)}`;
  const engine = await createEngine({
    sql,
    logger,
    operatorToken,
    ...(now ? { now } : {}),
    ...(options.tokens ? { tokens: options.tokens } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    ...(options.llm ? { llm: options.llm } : {}),
    ...(options.embeddings ? { embeddings: options.embeddings } : {}),
    ...(options.media ? { media: options.media } : {}),
    ...(options.tts ? { tts: options.tts } : {}),
  });
  const { accountId, apiKey: key, liveApiKey: liveKey } = await openShopAccount(sql);
  let server = createServer(engine.app.callback());
  engine.attachVoiceStream(server);
  await listen(server);
  const port = (server.address() as AddressInfo).port;
  let listening = true;
  return {
    url: `http://127.0.0.1:${port}`,
    sql,
    engine,
    accountId,
    apiKey: key,
    liveApiKey: liveKey,
    apiKeys: `${key},${liveKey}`,
    operatorToken,
    async issueKey({ otherAccount = false } = {}) {
      const owner = otherAccount ? await createAccount(sql, 'Another shop') : accountId;
      return { ...(await issueApiKey(sql, owner, 'sandbox')), accountId: owner };
    },
    revokeKey: (id) => revokeApiKey(sql, id),
    setRequestsPerMinute: (limit) => setAccountRateLimit(sql, accountId, 'sandbox', limit),
    async pause() {
      if (!listening) return;
      listening = false;
      await closeServer(server);
    },
    async resume() {
      if (listening) return;
      server = createServer(engine.app.callback());
      engine.attachVoiceStream(server);
      await listen(server, port);
      listening = true;
    },
    async stop() {
      if (listening) await closeServer(server);
      listening = false;
      await engine.webhooks.stop();
      await engine.media.stop();
      await engine.monitors.stop();
      await engine.reports.stop();
      await sql.close();
      await dropSchemas(driver.databaseUrl, prefix);
    },
  };
}

/** A tiny JSON client for tests: gives status, headers and the parsed body. */
export async function request(
  url: string,
  options: { method?: string; token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(url, {
    method: options.method ?? (options.body !== undefined || options.rawBody !== undefined ? 'POST' : 'GET'),
    headers,
    body: options.rawBody ?? (options.body === undefined ? null : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, headers: response.headers, body };
}

/** The engine's id of a BFF conversation, once the relay has given it one. */
export async function engineConversationOf(stack: Pick<TestStack, 'bff' | 'bffSql'>, uuid: string): Promise<string> {
  await stack.bff.relay.settled();
  const [row] = await stack.bffSql.query<{ engine_conversation_id: string | null }>(
    'SELECT engine_conversation_id FROM conversations WHERE uuid = $1',
    [uuid],
  );
  if (!row?.engine_conversation_id) throw new Error(`conversation ${uuid} has no engine conversation yet`);
  return row.engine_conversation_id;
}

/** A move at the engine itself (handover, human-messages, handback, close…), as the helpdesk would make it. */
export function engineMove(
  stack: Pick<TestStack, 'engineUrl' | 'apiKey'>,
  engineConversationId: string,
  move: string,
  body: object = {},
) {
  return request(`${stack.engineUrl}/v1/conversations/${engineConversationId}/${move}`, { token: stack.apiKey, body });
}
