import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { io } from 'socket.io-client';
import { base64url } from 'jose';
import { WIDGET_NAMESPACE } from '../shared/index.ts';
import { DRIVERS, request, type TestStack } from './stack.ts';

/** What the widget session tests share (bff/widget/sessions.test.ts, bff/widget/session-revocation.test.ts). */

export const PGLITE = DRIVERS[0]!;

/** A known session key, so that the forgery tests can sign with the real secret and change one thing at a time. */
export const SESSION_KID = 'k1';
export const SESSION_SECRET = new Uint8Array(randomBytes(32));
export const SESSION_KEYS = `${SESSION_KID}:${Buffer.from(SESSION_SECRET).toString('base64url')}`;

type Response = Awaited<ReturnType<typeof request>>;

export const newSession = (
  url: string,
  credential: string,
  body: object = {},
  headers: Record<string, string> = {},
): Promise<Response> => request(`${url}/v1/widget-sessions`, { token: credential, body, headers });

export const listConversations = (
  url: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<Response> => request(`${url}/v1/widget/conversations`, { token, headers });

export const openConversation = (url: string, token: string, headers: Record<string, string> = {}): Promise<Response> =>
  request(`${url}/v1/widget/conversations`, { token, body: {}, headers });

export const conversationIds = async (url: string, token: string): Promise<string[]> => {
  const response = await listConversations(url, token);
  expect(response.status).toBe(200);
  return (response.body.conversations as { id: string }[]).map((conversation) => conversation.id);
};

export function expectError(response: Response, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.body.error).toMatchObject({ code, message: expect.any(String) });
  expect(response.body.token).toBeUndefined();
}

/** Connects to the widget namespace once: `connected`, or the code the handshake was refused with. */
export function handshake(url: string, token: string, origin?: string): Promise<string> {
  const socket = io(url + WIDGET_NAMESPACE, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(origin === undefined ? {} : { extraHeaders: { origin } }),
  });
  return new Promise((resolve) => {
    socket.once('connect', () => {
      socket.close();
      resolve('connected');
    });
    socket.once('connect_error', (error: Error & { data?: { code?: string } }) => {
      socket.close();
      resolve(error.data?.code ?? `transport error: ${error.message}`);
    });
  });
}

export async function conversationRow(
  stack: TestStack,
  uuid: string,
): Promise<{ inbox_id: string; customer_ref: string; engine_conversation_id: string | null } | undefined> {
  const [row] = await stack.bffSql.query<{
    inbox_id: string;
    customer_ref: string;
    engine_conversation_id: string | null;
  }>('SELECT inbox_id, customer_ref, engine_conversation_id FROM conversations WHERE uuid = $1', [uuid]);
  return row;
}

export async function conversationsOf(stack: TestStack, customerRef: string): Promise<number> {
  const [row] = await stack.bffSql.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM conversations WHERE customer_ref = $1',
    [customerRef],
  );
  return row!.count;
}

export function expectLifetime(body: { expires_at: string }, seconds: number): void {
  const lifetime = Date.parse(body.expires_at) - Date.now();
  expect(lifetime).toBeGreaterThan((seconds - 15) * 1000);
  expect(lifetime).toBeLessThanOrEqual(seconds * 1000);
}
