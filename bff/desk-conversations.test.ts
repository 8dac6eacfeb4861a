import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetMessage } from '../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../test/helpdesk-client.ts';
import { request, startEngine, startStack, type TestEngine, type TestStack } from '../test/stack.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../test/widget-client.ts';
import { AgentBot, DeskConversation, DeskConversationList, DeskMessage, Inbox, InboxList, User } from './helpdesk/schemas.ts';

/**
 * People answer customers through the Application API: a customer's conversation with the AI shows
 * in the list; a person's answer hands it over and reaches the customer's widget; notes stay with
 * the people; assign, hand back and resolve; an engine that is down refuses an answer with 503 and
 * nothing is stored.
 */
describe('conversations for people through the Application API', () => {
  let engine: TestEngine;
  let stack: TestStack;
  let admin: User;
  let agent: User;
  let otherAgent: User;
  let inbox: Inbox;

  beforeAll(async () => {
    // The engine runs apart, so that a test can take it away.
    engine = await startEngine();
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN, AI_API_URL: engine.url, AI_API_KEY: engine.apiKey }, { feedPollMs: 0 });
    const platform = (path: string, body: unknown) => desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    const person = async (name: string, email: string, role: 'administrator' | 'agent') => {
      const user = User.parse((await platform('/users', { name, email })).body);
      await platform(`/accounts/${stack.accountId}/account_users`, { user_id: user.id, role });
      return user;
    };
    admin = await person('Ada', 'ada@desk.example', 'administrator');
    agent = await person('Sam', 'sam@desk.example', 'agent');
    otherAgent = await person('Kim', 'kim@desk.example', 'agent');
    inbox = InboxList.parse((await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/inboxes`, admin.access_token)).body).payload[0] as Inbox;
    await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/inbox_members`, admin.access_token, { body: { inbox_id: inbox.id, user_ids: [agent.id] } });
  });
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
  });

  const app = (path: string, token: string | undefined, options: { method?: string; body?: unknown } = {}) => desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);
  const list = async (token: string | undefined, query = '') => {
    const response = await app(`/conversations${query}`, token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return DeskConversationList.parse(response.body).data;
  };

  /** A visitor asks the AI a question; gives the conversation's number for the people and the visitor's view. */
  async function customerAsks(text: string) {
    const { token } = await newVisitor(stack.url);
    const { id: uuid } = await openWidgetConversation(stack.url, token);
    expect((await sendWidgetMessage(stack.url, token, uuid, text, `q-${uuid}`)).status).toBe(201);
    await stack.bff.relay.settled();
    const found = (await list(admin.access_token, '?status=all')).payload.find((conversation) => conversation.uuid === uuid)!;
    const widgetMessages = async () => (await request(`${stack.url}/v1/widget/conversations/${uuid}/messages`, { token })).body.messages as WidgetMessage[];
    return { id: found.id, uuid, widgetMessages };
  }

  it("lists a customer's conversation for the people of its inbox; an agent of no inbox sees none, a stranger is refused", async () => {
    const { id } = await customerAsks('How do I return an item?');
    const forAdmin = await list(admin.access_token);
    expect(forAdmin.payload.find((conversation) => conversation.id === id)).toMatchObject({ status: 'open', handled_by: 'ai', assignee_id: null });
    expect((await list(agent.access_token)).payload.some((conversation) => conversation.id === id)).toBe(true);
    expect(await list(otherAgent.access_token)).toEqual({ meta: { mine_count: 0, unassigned_count: 0, all_count: 0 }, payload: [] });
    expect((await app(`/conversations/${id}`, otherAgent.access_token)).status).toBe(404);
    expect((await app('/conversations', 'not-a-token')).status).toBe(401);
    expect((await app('/conversations?status=snoozing', admin.access_token)).status).toBe(422);
    const messages = (await app(`/conversations/${id}/messages`, agent.access_token)).body.payload as DeskMessage[];
    expect(messages.map((message) => [message.message_type, message.sender?.type])).toEqual([
      [0, 'contact'],
      [1, 'agent_bot'],
    ]);
  });

  it("hands the conversation over with a person's first answer, which reaches the customer's widget once, even when sent again", async () => {
    const { id, widgetMessages } = await customerAsks('Do you ship abroad?');
    const answer = await app(`/conversations/${id}/messages`, agent.access_token, { body: { content: 'Hi, Sam here. Where should it go?', echo_id: 'sam-1' } });
    expect(answer.status).toBe(200);
    expect(DeskMessage.parse(answer.body)).toMatchObject({ content: 'Hi, Sam here. Where should it go?', message_type: 1, private: false, sender: { type: 'user', name: 'Sam' } });
    expect(DeskConversation.parse((await app(`/conversations/${id}`, agent.access_token)).body).handled_by).toBe('human');

    const seen = await widgetMessages();
    expect(seen.map((message) => [message.author, message.author_name])).toEqual([
      ['customer', null],
      ['ai', null],
      ['system', null],
      ['human', 'Sam'],
    ]);
    const again = await app(`/conversations/${id}/messages`, agent.access_token, { body: { content: 'Hi, Sam here. Where should it go?', echo_id: 'sam-1' } });
    expect(again.body.id).toBe(answer.body.id);
    expect(await widgetMessages()).toHaveLength(4);
    for (const body of [{}, { content: '' }, { content: 'x', private: 'yes' }, { content: 'x', colour: 'red' }]) {
      expect((await app(`/conversations/${id}/messages`, agent.access_token, { body })).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('keeps private notes with the people: never in the widget or the Client API', async () => {
    const { id, widgetMessages } = await customerAsks('Which payment methods do you accept?');
    const note = await app(`/conversations/${id}/messages`, agent.access_token, { body: { content: 'VIP customer, be quick', private: true } });
    expect(note.status).toBe(200);
    expect(note.body).toMatchObject({ private: true, content: 'VIP customer, be quick' });
    expect(((await app(`/conversations/${id}/messages`, admin.access_token)).body.payload as DeskMessage[]).some((message) => message.private)).toBe(true);
    expect((await widgetMessages()).map((message) => message.text)).not.toContain('VIP customer, be quick');
    // A note hands nothing over.
    expect(DeskConversation.parse((await app(`/conversations/${id}`, agent.access_token)).body).handled_by).toBe('ai');
    const [row] = await stack.bffSql.query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE private AND upstream <> 'none'");
    expect(row!.n).toBe(0);
  });

  it('assigns to people of the account only, counts mine and unassigned, and unassigns', async () => {
    const { id } = await customerAsks('How long does delivery take?');
    expect((await app(`/conversations/${id}/assignments`, admin.access_token, { body: { assignee_id: agent.id } })).body.assignee_id).toBe(agent.id);
    const mine = await list(agent.access_token, '?assignee_type=me');
    expect(mine.payload.map((conversation) => conversation.id)).toEqual([id]);
    expect(mine.meta.mine_count).toBe(1);
    // The counts are the caller's whatever the page shows.
    expect((await list(agent.access_token, '?assignee_type=unassigned')).meta.mine_count).toBe(1);
    expect((await list(admin.access_token)).meta.mine_count).toBe(0);
    expect((await app(`/conversations/${id}/assignments`, admin.access_token, { body: { assignee_id: 999999 } })).status).toBe(422);
    expect((await app(`/conversations/${id}/assignments`, admin.access_token, { body: { assignee_id: null } })).body.assignee_id).toBeNull();
    expect((await list(agent.access_token, '?assignee_type=me')).payload).toEqual([]);
  });

  it('hands back to the AI, resolves, and then refuses answers and a reopening with 409', async () => {
    const { id, widgetMessages } = await customerAsks('How do I reset my password?');
    expect((await app(`/conversations/${id}/handback`, agent.access_token, { body: {} })).status).toBe(409);
    await app(`/conversations/${id}/messages`, agent.access_token, { body: { content: 'Let me check that for you.' } });
    const back = await app(`/conversations/${id}/handback`, agent.access_token, { body: {} });
    expect(back.status).toBe(200);
    expect(back.body.handled_by).toBe('ai');
    expect((await widgetMessages()).at(-1)).toMatchObject({ author: 'system', text: expect.stringContaining('AI assistant again') });

    const resolved = await app(`/conversations/${id}/toggle_status`, agent.access_token, { body: { status: 'resolved' } });
    expect(resolved.body.status).toBe('resolved');
    expect((await app(`/conversations/${id}/messages`, agent.access_token, { body: { content: 'One more thing' } })).status).toBe(409);
    expect((await app(`/conversations/${id}/toggle_status`, agent.access_token, { body: { status: 'open' } })).status).toBe(409);
    await stack.bff.relay.settled();
    const [row] = await stack.bffSql.query<{ engine_closed: boolean }>('SELECT engine_closed FROM conversations WHERE id = $1', [id]);
    expect(row!.engine_closed).toBe(true);
  });

  it('lets an agent bot act only on the inboxes it is connected to', async () => {
    const bot = AgentBot.parse((await app('/agent_bots', admin.access_token, { body: { name: 'Order bot' } })).body);
    const { id, widgetMessages } = await customerAsks('Where is my order?');
    expect((await list(bot.access_token)).payload).toEqual([]);
    expect((await app(`/conversations/${id}/messages`, bot.access_token, { body: { content: 'Beep.' } })).status).toBe(404);

    expect((await app(`/inboxes/${inbox.id}/set_agent_bot`, agent.access_token, { body: { agent_bot: bot.id } })).status).toBe(401);
    expect((await app(`/inboxes/${inbox.id}/set_agent_bot`, admin.access_token, { body: { agent_bot: 999999 } })).status).toBe(422);
    const connected = await app(`/inboxes/${inbox.id}/set_agent_bot`, admin.access_token, { body: { agent_bot: bot.id } });
    expect(connected.body.agent_bot_id).toBe(bot.id);
    expect((await list(bot.access_token)).payload.some((conversation) => conversation.id === id)).toBe(true);
    expect((await app(`/conversations/${id}/messages`, bot.access_token, { body: { content: 'Your order left the warehouse today.' } })).status).toBe(200);
    expect((await widgetMessages()).at(-1)).toMatchObject({ author: 'human', author_name: 'Order bot', text: 'Your order left the warehouse today.' });

    await app(`/inboxes/${inbox.id}/set_agent_bot`, admin.access_token, { body: { agent_bot: null } });
    expect((await list(bot.access_token)).payload).toEqual([]);
  });

  it('answers 503 when the engine is away and stores nothing; the same answer sent again later goes through once', async () => {
    const { id, widgetMessages } = await customerAsks('Do you ship abroad?');
    await engine.pause();
    try {
      const refused = await app(`/conversations/${id}/messages`, agent.access_token, { body: { content: 'Are you there?', echo_id: 'away-1' } });
      expect(refused.status).toBe(503);
      expect(refused.body.errors[0].code).toBe('upstream_unavailable');
      expect((await widgetMessages()).some((message) => message.author === 'human')).toBe(false);
    } finally {
      await engine.resume();
    }
    expect((await app(`/conversations/${id}/messages`, agent.access_token, { body: { content: 'Are you there?', echo_id: 'away-1' } })).status).toBe(200);
    expect((await widgetMessages()).filter((message) => message.author === 'human').map((message) => message.text)).toEqual(['Are you there?']);
  });
});
