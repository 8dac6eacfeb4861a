import { expect } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { WIDGET_NAMESPACE, type WidgetConversation, type WidgetMessage } from '../shared/index.ts';
import { DEMO_SITE_KEY, request } from './stack.ts';

/**
 * The widget's own calls to a BFF over HTTP, as the tests make them: a visitor's session from a
 * site key, a conversation, a message. `bffUrl` is the BFF's base URL (`stack.url`).
 */

export interface VisitorSession {
  token: string;
  customer_ref: string;
}

/** A visitor's session from a site key (the stack's unless given), which must be given (201). */
export async function newVisitor(
  bffUrl: string,
  siteKey = DEMO_SITE_KEY,
  headers: Record<string, string> = {},
): Promise<VisitorSession> {
  const response = await request(`${bffUrl}/v1/widget-sessions`, { token: siteKey, body: {}, headers });
  expect(response.status).toBe(201);
  return response.body as VisitorSession;
}

/** A new conversation of the session's customer, which must be opened (201). */
export async function openWidgetConversation(bffUrl: string, token: string): Promise<WidgetConversation> {
  const response = await request(`${bffUrl}/v1/widget/conversations`, { token, body: {} });
  expect(response.status).toBe(201);
  return response.body as WidgetConversation;
}

/** Sends a customer's message; gives the answer as it is, for tests of refusals as well. */
export function sendWidgetMessage(
  bffUrl: string,
  token: string,
  conversationId: string,
  text: string,
  messageId: string,
) {
  return request(`${bffUrl}/v1/widget/conversations/${conversationId}/messages`, {
    token,
    body: { text, message_id: messageId },
  });
}

/**
 * A tab's socket on the `/widget` namespace (WebSocket, no reconnection), connected; `received`
 * collects the messages pushed to it. The caller closes the socket.
 */
export function connectWidget(bffUrl: string, token: string): Promise<{ socket: Socket; received: WidgetMessage[] }> {
  const socket = io(bffUrl + WIDGET_NAMESPACE, { auth: { token }, transports: ['websocket'], reconnection: false });
  const received: WidgetMessage[] = [];
  socket.on('message:created', (message: WidgetMessage) => received.push(message));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, received }));
    socket.once('connect_error', reject);
  });
}
