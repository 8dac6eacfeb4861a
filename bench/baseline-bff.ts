import { randomUUID } from 'node:crypto';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { Server } from 'socket.io';
import { WIDGET_NAMESPACE } from '../shared/index.ts';
import type { Sql } from '../shared/server/index.ts';

/**
 * The least a BFF can do per message, for `npm run bench:bff` to hold Parley's BFF against (DESIGN.md
 * "Budgets"): bare Koa and Socket.IO, one HTTP POST → one INSERT → one emit to the conversation's
 * room, on the store Parley's BFF uses. No session check, no limits, no engine, no outbox.
 *
 * It answers the widget's own paths, so that the bench's visitors drive it as they drive Parley:
 * a session is a random token, a conversation a random id, and the socket joins the room of the
 * conversation named in `auth.token` (the bench sends the conversation there). The emitted message
 * is the stored one, so its visitor waits for its own message (`author: 'customer'`). The floor
 * (`startBaseline` with an engine) emits the engine's reply instead.
 */
export interface Baseline {
  url: string;
  close(): Promise<void>;
}

/** The engine the floor calls: the bench's engine process and a key of its account. */
export interface FloorEngine {
  url: string;
  apiKey: string;
}

const BODY_LIMIT = 64 * 1024;

async function readBody(request: NodeJS.ReadableStream): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new Error('body too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** One JSON call to the engine on a kept-alive connection: the least a BFF can do to ask it. */
function callEngine(
  agent: Agent,
  engine: FloorEngine,
  path: string,
  body: unknown,
  idempotencyKey: string,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      engine.url + path,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${engine.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error);
          }
        });
        response.once('error', reject);
      },
    );
    call.once('error', reject);
    call.end(JSON.stringify(body));
  });
}

/**
 * The baseline, or with `engine` the floor: the least any BFF can do that speaks to the engine as
 * SPEC has it. The floor opens an engine conversation per conversation and, per message, does the
 * baseline's INSERT and answer, then calls the engine, INSERTs the reply and emits it (author `ai`)
 * instead of the customer's message. Still no session check, limits, outbox, validation or retries.
 */
export async function startBaseline(sql: Sql, engine?: FloorEngine): Promise<Baseline> {
  await sql.query(
    `CREATE TABLE IF NOT EXISTS baseline_messages (
       id bigserial PRIMARY KEY, conversation_id uuid NOT NULL, message_id text NOT NULL, text text NOT NULL, created_at timestamptz NOT NULL)`,
  );
  const app = new Koa();
  // app.callback() takes the middleware as it is when called: it is called once the app is complete, below.
  let handle: ReturnType<Koa['callback']> | undefined;
  const server = createServer((request, response) => void handle!(request, response));
  const io = new Server(server, { serveClient: false });
  const widget = io.of(WIDGET_NAMESPACE);
  widget.on('connection', (socket) => {
    const { token } = socket.handshake.auth as { token?: unknown };
    if (typeof token === 'string') void socket.join(token);
  });
  const agent = new Agent({ keepAlive: true });
  const engineConversations = new Map<string, string>();
  // The floor's second half, after the customer has their 201: the engine's reply, kept and pushed.
  const answer = async (conversation: string, messageId: string, text: string) => {
    const engineConversation = engineConversations.get(conversation)!;
    const reply = (await callEngine(
      agent,
      engine!,
      `/v1/conversations/${engineConversation}/messages`,
      { text, message_id: messageId },
      `send-${conversation}-${messageId}`,
    )) as {
      events: { type: string; data: { text?: string } }[];
    };
    const replyText = reply.events.find((event) => event.type === 'conversation.reply')?.data.text ?? '';
    const [row] = await sql.query<{ id: number; created_at: Date }>(
      'INSERT INTO baseline_messages (conversation_id, message_id, text, created_at) VALUES ($1, $2, $3, $4) RETURNING id, created_at',
      [conversation, `reply-${messageId}`, replyText, new Date()],
    );
    widget.to(conversation).emit('message:created', {
      id: row!.id,
      conversation_id: conversation,
      message_id: null,
      author: 'ai',
      text: replyText,
      created_at: row!.created_at.toISOString(),
    });
  };
  const messagePath = /^\/v1\/widget\/conversations\/([0-9a-f-]{36})\/messages$/;
  app.use(async (ctx) => {
    if (ctx.method !== 'POST') ctx.throw(405);
    if (ctx.path === '/v1/widget-sessions') {
      ctx.status = 201;
      ctx.body = { token: randomUUID() };
      return;
    }
    if (ctx.path === '/v1/widget/conversations') {
      const id = randomUUID();
      if (engine) {
        const opened = (await callEngine(agent, engine, '/v1/conversations', { customer_ref: id }, `open-${id}`)) as {
          id: string;
        };
        engineConversations.set(id, opened.id);
      }
      ctx.status = 201;
      ctx.body = { id };
      return;
    }
    const conversation = messagePath.exec(ctx.path)?.[1];
    const body = conversation ? ((await readBody(ctx.req)) as { text?: unknown; message_id?: unknown }) : {};
    if (!conversation || typeof body.text !== 'string' || typeof body.message_id !== 'string') {
      ctx.status = conversation ? 400 : 404;
      return;
    }
    const [row] = await sql.query<{ id: number; created_at: Date }>(
      'INSERT INTO baseline_messages (conversation_id, message_id, text, created_at) VALUES ($1, $2, $3, $4) RETURNING id, created_at',
      [conversation, body.message_id, body.text, new Date()],
    );
    const message = {
      id: row!.id,
      conversation_id: conversation,
      message_id: body.message_id,
      author: 'customer',
      text: body.text,
      created_at: row!.created_at.toISOString(),
    };
    // A failed call leaves the message unanswered, which the bench counts.
    if (engine) void answer(conversation, body.message_id, body.text).catch(() => undefined);
    else widget.to(conversation).emit('message:created', message);
    ctx.status = 201;
    ctx.body = message;
  });
  handle = app.callback();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      agent.destroy();
      await io.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
