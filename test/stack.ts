import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { randomToken } from '../shared/index.ts';
import { createLogger, MemoryRollingLimiter, openSql, type SessionTokens, type Sql } from '../shared/server/index.ts';
import type { BffDeps } from '../bff/index.ts';
import { createAccount, createEngine, issueApiKey, revokeApiKey, setAccountRateLimit, type Engine, type EngineDeps } from '../engine/index.ts';
import { readDemoConfig } from '../demo/config.ts';
import { runDemo, type RunningDemo } from '../demo/run-demo.ts';
import { shopKnowledge } from './shop-fixtures.ts';
import { addKnowledgeDocument } from '../engine/index.ts';

/**
 * Test stacks built from the real parts: real HTTP on port 0, real PGlite (in memory) or the
 * machine's real PostgreSQL, each run in schemas of its own so runs never see each other.
 */
export const POSTGRES_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Driver {
  name: 'PGlite' | 'PostgreSQL';
  databaseUrl: string | undefined;
}

export const DRIVERS: Driver[] = [
  { name: 'PGlite', databaseUrl: undefined },
  { name: 'PostgreSQL', databaseUrl: POSTGRES_URL },
];

export const logger = createLogger('test');

export const uniqueSchemaPrefix = () => `t${randomToken(8).toLowerCase()}_`;

/** Drops the schemas a test made in PostgreSQL. */
export async function dropSchemas(databaseUrl: string | undefined, prefix: string): Promise<void> {
  if (!databaseUrl) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)', [prefix]);
    for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  } finally {
    await client.end();
  }
}

export const DEMO_SITE_KEY = `pk_test_${'S'.repeat(8)}${randomToken(16)}`;
export const DEMO_API_KEY = `service_test_${randomToken(32)}`;

export interface TestStack extends RunningDemo {
  stop(): Promise<void>;
}

/** The whole demo (engine + BFF + storefront), as `npm start` runs it, on free ports. */
export async function startStack(driver: Driver = DRIVERS[0]!, env: Record<string, string> = {}, bff: Partial<BffDeps> = {}): Promise<TestStack> {
  const prefix = uniqueSchemaPrefix();
  const config = readDemoConfig({
    PORT: '0',
    ENGINE_PORT: '0',
    DATA_DIR: 'memory://',
    DEMO_SITE_KEY,
    DEMO_API_KEY,
    ...(driver.databaseUrl ? { DATABASE_URL: driver.databaseUrl } : {}),
    ...env,
  });
  // Tests make many sessions, and send many messages, from one address; the site-key limit and the
  // per-address message limit have tests of their own.
  const demo = await runDemo(config, logger, {
    schemaPrefix: prefix,
    bff: { siteKeyLimiter: new MemoryRollingLimiter(100_000, 3_600_000), ...bff, messageLimits: { perAddressPerMinute: 100_000, ...bff.messageLimits } },
  });
  return {
    ...demo,
    async stop() {
      await demo.close();
      await dropSchemas(driver.databaseUrl, prefix);
    },
  };
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

/** The engine alone, with a sandbox account, its API key and the demo knowledge base. */
export async function startEngine(driver: Driver = DRIVERS[0]!, now?: () => Date, options: { tokens?: SessionTokens; webhooks?: EngineDeps['webhooks']; llm?: EngineDeps['llm'] } = {}): Promise<TestEngine> {
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
  });
  const accountId = await createAccount(sql, 'Test shop');
  const { key } = await issueApiKey(sql, accountId, 'sandbox');
  const { key: liveKey } = await issueApiKey(sql, accountId, 'live');
  // Tests make many requests a minute; the limiter has tests of its own.
  await setAccountRateLimit(sql, accountId, 'sandbox', 100_000);
  await setAccountRateLimit(sql, accountId, 'live', 100_000);
  for (const document of await shopKnowledge()) await addKnowledgeDocument(sql, accountId, { ...document, approved: true });
  let server = createServer(engine.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      listening = true;
    },
    async stop() {
      if (listening) await closeServer(server);
      listening = false;
      await engine.webhooks.stop();
      await engine.media.stop();
      await sql.close();
      await dropSchemas(driver.databaseUrl, prefix);
    },
  };
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await closeServer(server);
  return port;
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
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
  const [row] = await stack.bffSql.query<{ engine_conversation_id: string | null }>('SELECT engine_conversation_id FROM conversations WHERE uuid = $1', [uuid]);
  if (!row?.engine_conversation_id) throw new Error(`conversation ${uuid} has no engine conversation yet`);
  return row.engine_conversation_id;
}

/** A move at the engine itself (handover, human-messages, handback, close…), as the helpdesk would make it. */
export function engineMove(stack: Pick<TestStack, 'engineUrl' | 'apiKey'>, engineConversationId: string, move: string, body: object = {}) {
  return request(`${stack.engineUrl}/v1/conversations/${engineConversationId}/${move}`, { token: stack.apiKey, body });
}
