import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { WIDGET_NAMESPACE, type WidgetClientEvents, type WidgetServerEvents } from '../shared/index.ts';
import { addSiteKey, createBff, createInbox, EngineClient } from '../bff/index.ts';
import { createLogger, openSql, SessionTokens, type Queryable, type Sql } from '../shared/server/index.ts';
import { startEngine } from '../test/stack.ts';
import { WIDGET_ASSETS_DIR } from '../demo/run-demo.ts';

/**
 * What one exchange costs the BFF, counted rather than timed: the SQL statements it runs and the
 * socket pushes the customer's socket receives, from the widget's POST of a message until the AI's
 * reply and everything after it has settled. Sequential messages on PGlite, one visitor.
 */
export async function countExchange(
  messages = 20,
): Promise<{ statements: number; transactions: number; pushes: number; perPush: Record<string, number> }> {
  let statements = 0;
  // On PostgreSQL each transaction adds two round trips (BEGIN, COMMIT) to its statements.
  let transactions = 0;
  const counted = (db: Queryable): Queryable => ({
    query: (text, params) => {
      statements++;
      return db.query(text, params);
    },
  });
  const raw = await openSql({ dataDir: 'memory://', schema: 'bff' });
  const sql: Sql = Object.assign(Object.create(raw) as Sql, {
    query: counted(raw).query,
    transaction: <T>(work: (tx: Queryable) => Promise<T>) => {
      transactions++;
      return raw.transaction((tx) => work(counted(tx)));
    },
  });
  const engine = await startEngine();
  const bff = await createBff({
    sql,
    logger: createLogger('bench-exchange', 'error'),
    engine: new EngineClient({ baseUrl: engine.url, apiKey: engine.apiKey }),
    tokens: new SessionTokens([{ kid: 'k1', secret: new Uint8Array(32).fill(7) }]),
    widgetAssetsDir: WIDGET_ASSETS_DIR,
    feedPollMs: 0,
    // What an exchange costs, not the clock: the helpdesk's webhook worker looks for due deliveries
    // once a second whatever happens, and is woken only when an exchange wrote one.
    deskWebhooks: { pollMs: 0 },
  });
  const inbox = await createInbox(sql, { name: 'Bench shop' });
  const siteKey = await addSiteKey(sql, inbox.id, 'sandbox');
  const server = createServer(bff.app.callback());
  bff.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (path: string, token: string, body: unknown) => {
    const response = await fetch(url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  let socket: Socket<WidgetServerEvents, WidgetClientEvents> | undefined;
  try {
    const { token } = (await post('/v1/widget-sessions', siteKey.key, {})) as { token: string };
    const conversation = (await post('/v1/widget/conversations', token, {})) as { id: string };
    socket = io(url + WIDGET_NAMESPACE, { auth: { token }, transports: ['websocket'] });
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', resolve);
      socket!.once('connect_error', reject);
    });
    const perPush: Record<string, number> = {};
    let pushes = 0;
    let replied: (() => void) | undefined;
    socket.onAny((name: string, payload: { author?: string }) => {
      pushes++;
      perPush[name] = (perPush[name] ?? 0) + 1;
      if (name === 'message:created' && payload.author === 'ai') replied?.();
    });
    statements = 0;
    transactions = 0;
    const question = 'How long does delivery take?';
    for (let index = 0; index < messages; index++) {
      const answered = new Promise<void>((resolve) => (replied = resolve));
      // As the widget does: the sending tab names its socket, which gets no push of its own message.
      await post(`/v1/widget/conversations/${conversation.id}/messages`, token, {
        text: question,
        message_id: `bench-${index}`,
        socket_id: socket.id,
      });
      await answered;
      await bff.relay.settled();
      // Pushes sent right after the reply (read receipts, the indicator) arrive within a few ms.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const name of Object.keys(perPush)) perPush[name] = perPush[name]! / messages;
    return {
      statements: statements / messages,
      transactions: transactions / messages,
      pushes: pushes / messages,
      perPush,
    };
  } finally {
    socket?.close();
    await bff.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await engine.stop();
    await raw.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await countExchange(Number(process.env['BENCH_EXCHANGES'] ?? 20));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
