import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { AgentBot, DeskConversation, DeskMessage } from '../../shared/schemas/helpdesk/index.ts';

/**
 * People answer customers through the Application API: a customer's conversation with the AI shows
 * in the list; a person's answer hands it over and reaches the customer's widget; notes stay with
 * the people; assign, hand back and resolve; an engine that is down refuses an answer with 503 and
 * nothing is stored. The statuses (pending, open, snoozed, resolved, reopened) are in
 * bff/helpdesk/desk-conversation-states.test.ts.
 */
describe('conversations for people through the Application API', () => {
  let desk: DeskStack;

  beforeAll(async () => {
    desk = await startDeskStack();
  });
  afterAll(async () => {
    await desk?.stop();
  });

  const app: DeskStack['app'] = (...args) => desk.app(...args);
  const list: DeskStack['list'] = (...args) => desk.list(...args);
  const customerAsks = (text: string) => desk.customerAsks(text);

  it("lists a customer's conversation for the people of its inbox; an agent of no inbox sees none, a stranger is refused", async () => {
    const { id } = await customerAsks('How do I return an item?');
    // The AI answers it: pending, as Chatwoot says of a conversation a bot handles.
    const forAdmin = await list(desk.admin.access_token, '?status=pending');
    expect(forAdmin.payload.find((conversation) => conversation.id === id)).toMatchObject({
      status: 'pending',
      handled_by: 'ai',
      assignee_id: null,
      snoozed_until: null,
    });
    expect(
      (await list(desk.agent.access_token, '?status=all')).payload.some((conversation) => conversation.id === id),
    ).toBe(true);
    expect(await list(desk.otherAgent.access_token, '?status=all')).toEqual({
      meta: { mine_count: 0, unassigned_count: 0, all_count: 0, next_cursor: null },
      payload: [],
    });
    expect((await app(`/conversations/${id}`, desk.otherAgent.access_token)).status).toBe(404);
    expect((await app('/conversations', 'not-a-token')).status).toBe(401);
    expect((await app('/conversations?status=snoozing', desk.admin.access_token)).status).toBe(422);
    const messages = (await app(`/conversations/${id}/messages`, desk.agent.access_token)).body
      .payload as DeskMessage[];
    expect(messages.map((message) => [message.message_type, message.sender?.type])).toEqual([
      [0, 'contact'],
      [1, 'agent_bot'],
    ]);
  });

  it("hands the conversation over with a person's first answer, which reaches the customer's widget once, even when sent again", async () => {
    const { id, widgetMessages } = await customerAsks('Do you ship abroad?');
    const answer = await app(`/conversations/${id}/messages`, desk.agent.access_token, {
      body: { content: 'Hi, Sam here. Where should it go?', echo_id: 'sam-1' },
    });
    expect(answer.status).toBe(200);
    expect(DeskMessage.parse(answer.body)).toMatchObject({
      content: 'Hi, Sam here. Where should it go?',
      message_type: 1,
      private: false,
      sender: { type: 'user', name: 'Sam' },
    });
    expect(DeskConversation.parse((await app(`/conversations/${id}`, desk.agent.access_token)).body).handled_by).toBe(
      'human',
    );

    const seen = await widgetMessages();
    expect(seen.map((message) => [message.author, message.author_name])).toEqual([
      ['customer', null],
      ['ai', null],
      ['system', null],
      ['human', 'Sam'],
    ]);
    const again = await app(`/conversations/${id}/messages`, desk.agent.access_token, {
      body: { content: 'Hi, Sam here. Where should it go?', echo_id: 'sam-1' },
    });
    expect(again.body.id).toBe(answer.body.id);
    expect(await widgetMessages()).toHaveLength(4);
    for (const body of [{}, { content: '' }, { content: 'x', private: 'yes' }, { content: 'x', colour: 'red' }]) {
      expect(
        (await app(`/conversations/${id}/messages`, desk.agent.access_token, { body })).status,
        JSON.stringify(body),
      ).toBe(422);
    }
  });

  it('keeps private notes with the people: never in the widget or the Client API', async () => {
    const { id, widgetMessages } = await customerAsks('Which payment methods do you accept?');
    const note = await app(`/conversations/${id}/messages`, desk.agent.access_token, {
      body: { content: 'VIP customer, be quick', private: true },
    });
    expect(note.status).toBe(200);
    expect(note.body).toMatchObject({ private: true, content: 'VIP customer, be quick' });
    expect(
      ((await app(`/conversations/${id}/messages`, desk.admin.access_token)).body.payload as DeskMessage[]).some(
        (message) => message.private,
      ),
    ).toBe(true);
    expect((await widgetMessages()).map((message) => message.text)).not.toContain('VIP customer, be quick');
    // A note hands nothing over.
    expect(DeskConversation.parse((await app(`/conversations/${id}`, desk.agent.access_token)).body).handled_by).toBe(
      'ai',
    );
    const [row] = await desk.stack.bffSql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM messages WHERE private AND upstream <> 'none'",
    );
    expect(row!.n).toBe(0);
  });

  it('assigns to people of the account only, counts mine and unassigned, and unassigns', async () => {
    const { id } = await customerAsks('How long does delivery take?');
    expect(
      (await app(`/conversations/${id}/assignments`, desk.admin.access_token, { body: { assignee_id: desk.agent.id } }))
        .body.assignee_id,
    ).toBe(desk.agent.id);
    const mine = await list(desk.agent.access_token, '?assignee_type=me&status=all');
    // Sam has those he answered too (a reply assigns): this one among them.
    expect(mine.payload.map((conversation) => conversation.id)).toContain(id);
    expect(mine.meta.mine_count).toBe(mine.payload.length);
    // The counts are the caller's whatever the page shows.
    expect((await list(desk.agent.access_token, '?assignee_type=unassigned&status=all')).meta.mine_count).toBe(
      mine.payload.length,
    );
    expect((await list(desk.admin.access_token, '?status=all')).meta.mine_count).toBe(0);
    // Under a status the counts are of that status: the AI still answers it, so it is not open.
    expect((await list(desk.agent.access_token, '?assignee_type=me')).meta).toMatchObject({
      mine_count: mine.payload.filter((conversation) => conversation.status === 'open').length,
    });
    expect(
      (await app(`/conversations/${id}/assignments`, desk.admin.access_token, { body: { assignee_id: 999999 } }))
        .status,
    ).toBe(422);
    expect(
      (await app(`/conversations/${id}/assignments`, desk.admin.access_token, { body: { assignee_id: null } })).body
        .assignee_id,
    ).toBeNull();
    expect(
      (await list(desk.agent.access_token, '?assignee_type=me&status=all')).payload.map(
        (conversation) => conversation.id,
      ),
    ).not.toContain(id);
  });

  it('hands back to the AI, resolves, and then refuses answers with 409 (until it is reopened)', async () => {
    const { id, widgetMessages } = await customerAsks('How do I reset my password?');
    expect((await app(`/conversations/${id}/handback`, desk.agent.access_token, { body: {} })).status).toBe(409);
    await app(`/conversations/${id}/messages`, desk.agent.access_token, {
      body: { content: 'Let me check that for you.' },
    });
    const back = await app(`/conversations/${id}/handback`, desk.agent.access_token, { body: {} });
    expect(back.status).toBe(200);
    expect(back.body.handled_by).toBe('ai');
    expect((await widgetMessages()).at(-1)).toMatchObject({
      author: 'system',
      text: expect.stringContaining('AI assistant again'),
    });

    const resolved = await app(`/conversations/${id}/toggle_status`, desk.agent.access_token, {
      body: { status: 'resolved' },
    });
    expect(resolved.body.status).toBe('resolved');
    expect(
      (await app(`/conversations/${id}/messages`, desk.agent.access_token, { body: { content: 'One more thing' } }))
        .status,
    ).toBe(409);
    expect(
      (await app(`/conversations/${id}/toggle_status`, desk.agent.access_token, { body: { status: 'pending' } }))
        .status,
    ).toBe(409);
    await desk.stack.bff.relay.settled();
    const [row] = await desk.stack.bffSql.query<{ engine_closed: boolean }>(
      'SELECT engine_closed FROM conversations WHERE id = $1',
      [id],
    );
    expect(row!.engine_closed).toBe(true);
  });

  it('lets an agent bot act only on the inboxes it is connected to', async () => {
    const bot = AgentBot.parse(
      (await app('/agent_bots', desk.admin.access_token, { body: { name: 'Order bot' } })).body,
    );
    const { id, widgetMessages } = await customerAsks('Where is my order?');
    expect((await list(bot.access_token, '?status=all')).payload).toEqual([]);
    expect((await app(`/conversations/${id}/messages`, bot.access_token, { body: { content: 'Beep.' } })).status).toBe(
      404,
    );

    expect(
      (await app(`/inboxes/${desk.inbox.id}/set_agent_bot`, desk.agent.access_token, { body: { agent_bot: bot.id } }))
        .status,
    ).toBe(401);
    expect(
      (await app(`/inboxes/${desk.inbox.id}/set_agent_bot`, desk.admin.access_token, { body: { agent_bot: 999999 } }))
        .status,
    ).toBe(422);
    const connected = await app(`/inboxes/${desk.inbox.id}/set_agent_bot`, desk.admin.access_token, {
      body: { agent_bot: bot.id },
    });
    expect(connected.body.agent_bot_id).toBe(bot.id);
    // The AI answers it: a bot looks for those under pending, as in Chatwoot.
    expect(
      (await list(bot.access_token, '?status=pending')).payload.some((conversation) => conversation.id === id),
    ).toBe(true);
    expect(
      (
        await app(`/conversations/${id}/messages`, bot.access_token, {
          body: { content: 'Your order left the warehouse today.' },
        })
      ).status,
    ).toBe(200);
    expect((await widgetMessages()).at(-1)).toMatchObject({
      author: 'human',
      author_name: 'Order bot',
      text: 'Your order left the warehouse today.',
    });

    await app(`/inboxes/${desk.inbox.id}/set_agent_bot`, desk.admin.access_token, { body: { agent_bot: null } });
    expect((await list(bot.access_token, '?status=all')).payload).toEqual([]);
  });

  it('answers 503 when the engine is away and stores nothing; the same answer sent again later goes through once', async () => {
    const { id, widgetMessages } = await customerAsks('Do you ship abroad?');
    await desk.engine.pause();
    try {
      const refused = await app(`/conversations/${id}/messages`, desk.agent.access_token, {
        body: { content: 'Are you there?', echo_id: 'away-1' },
      });
      expect(refused.status).toBe(503);
      expect(refused.body.errors[0].code).toBe('upstream_unavailable');
      expect((await widgetMessages()).some((message) => message.author === 'human')).toBe(false);
    } finally {
      await desk.engine.resume();
    }
    expect(
      (
        await app(`/conversations/${id}/messages`, desk.agent.access_token, {
          body: { content: 'Are you there?', echo_id: 'away-1' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await widgetMessages()).filter((message) => message.author === 'human').map((message) => message.text),
    ).toEqual(['Are you there?']);
  });
});
