import { expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { WIDGET_NAMESPACE, type EngineEvent, type MessageUpdate, type WidgetMessage } from '../shared/index.ts';
import { request, type TestEngine, type TestStack } from './stack.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from './widget-client.ts';

/** What the tests of the BFF's way up to the engine share (bff/engine-link/relay.test.ts, bff/engine-link/engine-events-delivery.test.ts). */

export const QUESTIONS = [
  { text: 'How do I return an item?', answer: 'within 30 days of delivery' },
  { text: 'Do you ship abroad?', answer: 'Norway' },
  { text: 'Which payment methods do you accept?', answer: 'PayPal' },
  { text: 'How do I reset my password?', answer: 'Forgot password' },
] as const;

export const FAST_RETRIES = [100, 200, 500] as const;

/** One browser tab of a customer: what the BFF pushed to it. */
export interface Tab {
  socket: Socket;
  created: WidgetMessage[];
  updated: MessageUpdate[];
  /** Resolves once everything the BFF pushed to this tab before now has arrived (a round trip on the same socket). */
  barrier(conversationId: string): Promise<void>;
}

export const sockets: Socket[] = [];

export function connect(baseUrl: string, token: string): Promise<Tab> {
  const socket = io(baseUrl + WIDGET_NAMESPACE, { auth: { token }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  const tab: Tab = {
    socket,
    created: [],
    updated: [],
    async barrier(conversationId) {
      const ack = (await socket
        .timeout(5_000)
        .emitWithAck('read:mark', { conversation_id: conversationId, last_read_id: 0 })) as { ok: boolean };
      expect(ack.ok).toBe(true);
    },
  };
  socket.on('message:created', (message: WidgetMessage) => tab.created.push(message));
  socket.on('message:updated', (update: MessageUpdate) => tab.updated.push(update));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(tab));
    socket.once('connect_error', reject);
  });
}

export function closeSockets(): void {
  for (const socket of sockets.splice(0)) socket.close();
}

/** The widget's side of a stack: sessions, conversations, messages, as the widget calls them. */
export function widgetClient(baseUrl: () => string, siteKey: () => string) {
  return {
    visitor: async (): Promise<string> => (await newVisitor(baseUrl(), siteKey())).token,
    openConversation: async (token: string): Promise<string> => (await openWidgetConversation(baseUrl(), token)).id,
    send: (token: string, conversationId: string, text: string, messageId: string) =>
      sendWidgetMessage(baseUrl(), token, conversationId, text, messageId),
    async messages(token: string, conversationId: string, url = baseUrl()): Promise<WidgetMessage[]> {
      const response = await request(`${url}/v1/widget/conversations/${conversationId}/messages`, { token });
      expect(response.status).toBe(200);
      return response.body.messages as WidgetMessage[];
    },
  };
}

/** The message_ids of a conversation's customer messages that wait in the BFF's outbox. */
export async function pendingOf(stack: TestStack, conversationId: string): Promise<string[]> {
  const rows = await stack.bffSql.query<{ message_id: string }>(
    "SELECT m.message_id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.upstream = 'pending' ORDER BY m.id",
    [conversationId],
  );
  return rows.map((row) => row.message_id);
}

export async function engineIdOf(stack: TestStack, conversationId: string): Promise<string> {
  const [row] = await stack.bffSql.query<{ engine_conversation_id: string | null }>(
    'SELECT engine_conversation_id FROM conversations WHERE uuid = $1',
    [conversationId],
  );
  if (!row?.engine_conversation_id) throw new Error(`conversation ${conversationId} has no engine conversation yet`);
  return row.engine_conversation_id;
}

/** What the engine itself received from the customer, in order. */
export async function customerTurns(engine: TestEngine, engineId: string): Promise<string[]> {
  const transcript = await request(`${engine.url}/v1/conversations/${engineId}/transcript`, { token: engine.apiKey });
  expect(transcript.status).toBe(200);
  return (transcript.body.turns as { role: string; text: string }[])
    .filter((turn) => turn.role === 'customer')
    .map((turn) => turn.text);
}

/** The engine's whole event feed, oldest first. */
export async function engineFeed(engine: TestEngine): Promise<EngineEvent[]> {
  const events: EngineEvent[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await request(`${engine.url}/v1/events?limit=1000${after ? `&after=${after}` : ''}`, {
      token: engine.apiKey,
    });
    expect(page.status).toBe(200);
    events.push(...(page.body.events as EngineEvent[]));
    if (!page.body.has_more) return events;
    after = page.body.next as string;
  }
}

/** A move made at the engine directly, as the helpdesk would; the BFF is not told. */
export async function atEngine(
  engine: TestEngine,
  engineId: string,
  move: 'handover' | 'human-messages' | 'close',
  body: object = {},
): Promise<EngineEvent[]> {
  const response = await request(`${engine.url}/v1/conversations/${engineId}/${move}`, { token: engine.apiKey, body });
  expect(response.status).toBe(200);
  return response.body.events as EngineEvent[];
}

export const ids = (messages: readonly WidgetMessage[]) => messages.map((message) => message.id);
export const authors = (messages: readonly WidgetMessage[]) => messages.map((message) => message.author);
export const byAuthor = (messages: readonly WidgetMessage[], author: WidgetMessage['author']) =>
  messages.filter((message) => message.author === author);
export const statusesOf = (updates: readonly MessageUpdate[], id: number) =>
  updates.filter((update) => update.id === id).map((update) => update.status);
