import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_NAMESPACE, type Ack } from '../../shared/index.ts';
import { DeskConversationList, User } from '../../shared/schemas/helpdesk/index.ts';
import { fakeModel } from '../../test/fake-llm.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';

type Delta = { conversation_id: number; text: string };

/**
 * The AI's answer as it is written reaches the consoles watching the conversation over `/desk`
 * (`message:delta`, the pieces the widget gets), and no other console: the model (an
 * OpenAI-compatible stand-in over HTTP) holds its last piece until the console watches.
 */
describe("the AI's streamed answer on the /desk socket", () => {
  const model = fakeModel();
  let stack: TestStack;
  let admin: User;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const llm = await model.start();
    stack = await startStack(DRIVERS[0], {
      DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN,
      LLM_BASE_URL: llm,
      LLM_MODEL: 'test-model',
    });
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@stream.example' })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
    await model.stop();
  });

  async function console_(): Promise<{ socket: Socket; deltas: Delta[] }> {
    const socket = io(stack.url + DESK_NAMESPACE, {
      auth: { token: admin.access_token, account_id: stack.accountId },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    const deltas: Delta[] = [];
    socket.on('message:delta', (delta: Delta) => deltas.push(delta));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return { socket, deltas };
  }

  it('passes the pieces to the console watching the conversation, and to no other', async () => {
    let release!: () => void;
    const beforeLast = new Promise<void>((resolve) => (release = resolve));
    model.answer(() => ({ pieces: ['You can return ', 'an item within ', '30 days.'], beforeLast }));
    const watching = await console_();
    const elsewhere = await console_();

    const { token } = await newVisitor(stack.url);
    const { id: uuid } = await openWidgetConversation(stack.url, token);
    expect((await sendWidgetMessage(stack.url, token, uuid, 'How do I return an item?', `m-${uuid}`)).status).toBe(201);
    const id = await until(
      async () =>
        DeskConversationList.parse(
          (await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/conversations?status=all`, admin.access_token))
            .body,
        ).data.payload.find((conversation) => conversation.uuid === uuid)?.id,
      (found) => found !== undefined,
      'the conversation in the list',
    );
    const watched = await new Promise<Ack<unknown>>((resolve) =>
      watching.socket.emit('conversation:watch', { conversation_id: id }, resolve),
    );
    expect(watched.ok).toBe(true);

    release();
    await until(
      () => watching.deltas,
      (deltas) => deltas.some((delta) => delta.conversation_id === id && delta.text === '30 days.'),
      'the last piece',
    );
    expect(elsewhere.deltas).toEqual([]);
  });
});
