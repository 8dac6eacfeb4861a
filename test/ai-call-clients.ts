import WebSocket from 'ws';
import type { Socket } from 'socket.io-client';
import { AI_CALL_STREAM_PATH, WidgetConfig } from '../shared/index.ts';
import { engineConversationOf, request, type TestStack } from './stack.ts';
import { until } from './until.ts';
import { connectWidget, newVisitor, openWidgetConversation, sendWidgetMessage } from './widget-client.ts';

/**
 * The widget's side of calls with the AI as tests drive them (issue 30): its config, a customer
 * with a conversation the engine knows, and the call's stream as a browser opens it.
 */
export type Received =
  { type: string; code?: string; text?: string; call_id?: string } | { type: 'audio'; bytes: Buffer };

export const configOf = async (bffUrl: string, token: string) =>
  WidgetConfig.parse((await request(`${bffUrl}/v1/widget/config`, { token })).body);

/** A widget's stream of a call with the AI: every message kept in order, and the close. */
export async function openStream(bffUrl: string, callId: string) {
  const socket = new WebSocket(`${bffUrl.replace('http', 'ws')}${AI_CALL_STREAM_PATH}?call_id=${callId}`);
  const received: Received[] = [];
  let closed: number | undefined;
  socket.on('message', (data: Buffer, isBinary) =>
    received.push(isBinary ? { type: 'audio', bytes: data } : (JSON.parse(data.toString('utf8')) as Received)),
  );
  socket.on('close', (code) => (closed = code));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const waitFor = (type: string, count = 1) =>
    until(
      () => received.filter((message) => message.type === type),
      (found) => found.length >= count,
      `${count} ${type} message(s) on the stream`,
      30_000,
    );
  const closing = () =>
    until(
      () => closed,
      (code) => code !== undefined,
      'the stream closed',
    );
  return { socket, received, waitFor, closing };
}

/** A customer with a conversation the engine knows (the AI answered a first message) and the widget's socket. */
export async function customer(stack: TestStack, sockets: Socket[]) {
  const visitor = await newVisitor(stack.url);
  const conversation = await openWidgetConversation(stack.url, visitor.token);
  await sendWidgetMessage(stack.url, visitor.token, conversation.id, 'Hello there', `hello-${conversation.id}`);
  await engineConversationOf(stack, conversation.id);
  const { socket } = await connectWidget(stack.url, visitor.token);
  sockets.push(socket);
  return { visitor, conversation, socket };
}
