import { io, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { z } from 'zod';
import { WIDGET_NAMESPACE, type WidgetMessage } from '../shared/index.ts';
import { desk, PLATFORM_TOKEN } from './helpdesk-client.ts';
import { DRIVERS, request, startEngine, startStack, type Driver, type TestEngine, type TestStack } from './stack.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from './widget-client.ts';
import { DeskConversationList, Inbox, InboxList, User } from '../shared/schemas/helpdesk/index.ts';

/**
 * What the tests of conversations for people share (bff/helpdesk/desk-conversations.test.ts,
 * bff/helpdesk/desk-conversation-states.test.ts): an engine of its own (so that a test can take it away), a
 * stack in front of it, an administrator, an agent of the stack's inbox and an agent of none, and
 * customers who ask the AI something.
 */
export interface DeskStack {
  engine: TestEngine;
  stack: TestStack;
  admin: User;
  agent: User;
  otherAgent: User;
  inbox: Inbox;
  /** Calls the Application API under the stack's account. */
  app(path: string, token: string | undefined, options?: { method?: string; body?: unknown }): ReturnType<typeof desk>;
  /** The conversation list (200), as the caller sees it with `query`. */
  list(token: string | undefined, query?: string): Promise<z.infer<typeof DeskConversationList>['data']>;
  /** A visitor asks the AI a question and is answered. */
  customerAsks(text: string): Promise<Customer>;
  /** A tab of the customer's widget on the socket, ready for pushes. */
  customerSocket(token: string): Promise<CustomerTab>;
  stop(): Promise<void>;
}

export interface Customer {
  /** The conversation's number for the people. */
  id: number;
  uuid: string;
  /** The visitor's session token. */
  token: string;
  widgetMessages(): Promise<WidgetMessage[]>;
  /** The customer writes again (201). */
  writes(text: string): Promise<WidgetMessage>;
}

export interface CustomerTab {
  /** Every event pushed to this tab, in order. */
  events: { name: string; data: any }[];
  close(): void;
}

export async function startDeskStack(driver: Driver = DRIVERS[0]!): Promise<DeskStack> {
  const engine = await startEngine(driver);
  const stack = await startStack(
    driver,
    { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN, AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys },
    { feedPollMs: 0 },
  );
  const platform = (path: string, body: unknown) =>
    desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
  const person = async (name: string, email: string, role: 'administrator' | 'agent') => {
    const user = User.parse((await platform('/users', { name, email })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: user.id, role });
    return user;
  };
  const admin = await person('Ada', 'ada@desk.example', 'administrator');
  const agent = await person('Sam', 'sam@desk.example', 'agent');
  const otherAgent = await person('Kim', 'kim@desk.example', 'agent');
  const app: DeskStack['app'] = (path, token, options = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);
  const inbox = InboxList.parse((await app('/inboxes', admin.access_token)).body).payload[0] as Inbox;
  await app('/inbox_members', admin.access_token, { body: { inbox_id: inbox.id, user_ids: [agent.id] } });

  const list: DeskStack['list'] = async (token, query = '') => {
    const response = await app(`/conversations${query}`, token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return DeskConversationList.parse(response.body).data;
  };

  async function customerAsks(text: string): Promise<Customer> {
    const { token } = await newVisitor(stack.url);
    const { id: uuid } = await openWidgetConversation(stack.url, token);
    expect((await sendWidgetMessage(stack.url, token, uuid, text, `q-${uuid}`)).status).toBe(201);
    await stack.bff.relay.settled();
    const found = (await list(admin.access_token, '?status=all')).payload.find(
      (conversation) => conversation.uuid === uuid,
    )!;
    let written = 0;
    return {
      id: found.id,
      uuid,
      token,
      widgetMessages: async () =>
        (await request(`${stack.url}/v1/widget/conversations/${uuid}/messages`, { token })).body
          .messages as WidgetMessage[],
      async writes(again: string) {
        const response = await sendWidgetMessage(stack.url, token, uuid, again, `again-${uuid}-${++written}`);
        expect(response.status, JSON.stringify(response.body)).toBe(201);
        await stack.bff.relay.settled();
        return response.body as WidgetMessage;
      },
    };
  }

  async function customerSocket(token: string): Promise<CustomerTab> {
    const socket: Socket = io(stack.url + WIDGET_NAMESPACE, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    const events: CustomerTab['events'] = [];
    socket.onAny((name: string, data: unknown) => events.push({ name, data }));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    // The server joins the customer's room once the handshake's query is done: a command answered means it has.
    for (let attempt = 0; ; attempt++) {
      try {
        await socket.timeout(100).emitWithAck('read:mark', null);
        break;
      } catch (error) {
        if (attempt === 100) throw error;
      }
    }
    return { events, close: () => socket.close() };
  }

  return {
    engine,
    stack,
    admin,
    agent,
    otherAgent,
    inbox,
    app,
    list,
    customerAsks,
    customerSocket,
    async stop() {
      await stack.stop();
      await engine.stop();
    },
  };
}
