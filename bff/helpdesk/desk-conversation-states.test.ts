import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../test/until.ts';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { AgentBot, DeskConversation, DeskMessage, type DeskStatus } from '../../shared/schemas/helpdesk/index.ts';

/**
 * A conversation's status as people see it (Chatwoot's): pending while the AI answers it, open once
 * people answer it, snoozed by a person, resolved; moved with toggle_status, including a reopening
 * on a new AI conversation; and who wrote each answer, a person or an agent bot.
 */
describe("conversations' statuses for people", () => {
  let desk: DeskStack;

  beforeAll(async () => {
    desk = await startDeskStack();
  });
  afterAll(async () => {
    await desk?.stop();
  });

  const conversation = async (id: number, token = desk.agent.access_token) =>
    DeskConversation.parse((await desk.app(`/conversations/${id}`, token)).body);
  const toggle = (id: number, body: object, token = desk.agent.access_token) =>
    desk.app(`/conversations/${id}/toggle_status`, token, { body });
  const answer = (id: number, content: string, token = desk.agent.access_token) =>
    desk.app(`/conversations/${id}/messages`, token, { body: { content } });
  const idsIn = async (status: DeskStatus | 'all') =>
    (await desk.list(desk.admin.access_token, `?status=${status}`)).payload.map((listed) => listed.id);
  const engineRow = async (id: number) =>
    (
      await desk.stack.bffSql.query<{
        engine_conversation_id: string | null;
        engine_closed: boolean;
        close_requested: boolean;
      }>('SELECT engine_conversation_id, engine_closed, close_requested FROM conversations WHERE id = $1', [id])
    )[0]!;
  const engineState = async (engineId: string) =>
    (await desk.engine.sql.query<{ state: string }>('SELECT state FROM conversations WHERE id = $1', [engineId]))[0]
      ?.state;

  it('lists each status apart, open by default, all with those people answer first; the counts follow the status', async () => {
    const pending = await desk.customerAsks('How do I return an item?');
    const open = await desk.customerAsks('Do you ship abroad?');
    expect((await answer(open.id, 'Sam here: where to?')).status).toBe(200);
    const snoozed = await desk.customerAsks('Can I change my order?');
    expect((await toggle(snoozed.id, { status: 'snoozed' })).status).toBe(200);
    const resolved = await desk.customerAsks('Is there a shop in Lyon?');
    expect((await toggle(resolved.id, { status: 'resolved' })).status).toBe(200);

    const ours = [pending.id, open.id, snoozed.id, resolved.id];
    const expected: Record<DeskStatus, number> = {
      pending: pending.id,
      open: open.id,
      snoozed: snoozed.id,
      resolved: resolved.id,
    };
    for (const [status, id] of Object.entries(expected) as [DeskStatus, number][]) {
      const page = await desk.list(desk.admin.access_token, `?status=${status}`);
      expect(
        page.payload.map((listed) => listed.id).filter((listed) => ours.includes(listed)),
        status,
      ).toEqual([id]);
      expect(
        page.payload.every((listed) => listed.status === status),
        status,
      ).toBe(true);
      expect(page.meta.all_count, status).toBe(page.payload.length);
    }
    expect(await idsIn('open')).toEqual((await desk.list(desk.admin.access_token)).payload.map((listed) => listed.id));
    const all = (await idsIn('all')).filter((id) => ours.includes(id));
    expect(all).toHaveLength(4);
    expect(all[0]).toBe(open.id);
  });

  it("hands a pending conversation to people with toggle open, and the customer's widget is told", async () => {
    const customer = await desk.customerAsks('Where is my parcel?');
    const tab = await desk.customerSocket(customer.token);
    try {
      const opened = await toggle(customer.id, { status: 'open' });
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      expect(opened.body).toMatchObject({ status: 'open', handled_by: 'human' });
      await until(
        () => tab.events,
        (events) => events.some((event) => event.name === 'conversation:handed_over'),
        'the handover notice',
      );
      expect(tab.events.find((event) => event.name === 'conversation:handed_over')!.data).toEqual({
        conversation_id: customer.uuid,
      });
      // Asking again for the status it has changes nothing.
      expect((await toggle(customer.id, { status: 'open' })).body.status).toBe('open');
      const engineId = (await engineRow(customer.id)).engine_conversation_id!;
      expect(await engineState(engineId)).toBe('human');
    } finally {
      tab.close();
    }
  });

  it('gives an open conversation back to the AI with toggle pending, and the AI answers the next message', async () => {
    const customer = await desk.customerAsks('Do you sell gift cards?');
    await answer(customer.id, 'Let me look.');
    const back = await toggle(customer.id, { status: 'pending' });
    expect(back.body).toMatchObject({ status: 'pending', handled_by: 'ai' });
    await customer.writes('How do I return an item?');
    expect((await customer.widgetMessages()).at(-1)).toMatchObject({ author: 'ai' });
  });

  it('snoozes until the customer writes: out of the open list until then, open again after', async () => {
    const customer = await desk.customerAsks('My parcel is damaged.');
    await answer(customer.id, 'Sorry to hear that; can you send a photo?');
    const snoozed = await toggle(customer.id, { status: 'snoozed' });
    expect(snoozed.body).toMatchObject({ status: 'snoozed', snoozed_until: null, handled_by: 'human' });
    expect(await idsIn('open')).not.toContain(customer.id);
    expect(await idsIn('snoozed')).toContain(customer.id);

    await customer.writes('Here it is.');
    expect(await conversation(customer.id)).toMatchObject({ status: 'open', snoozed_until: null });
    expect(await idsIn('open')).toContain(customer.id);
    expect(await idsIn('snoozed')).not.toContain(customer.id);
    // People answer it: the AI stayed quiet.
    expect((await customer.widgetMessages()).at(-1)).toMatchObject({ author: 'customer', text: 'Here it is.' });
  });

  it('snoozes until a time while it is ahead; a time already past ends the snooze at once, and toggle open ends one', async () => {
    const customer = await desk.customerAsks('When do you restock?');
    await answer(customer.id, 'Next week, I think.');
    const later = Math.floor(Date.now() / 1000) + 3600;
    expect((await toggle(customer.id, { status: 'snoozed', snoozed_until: later })).body).toMatchObject({
      status: 'snoozed',
      snoozed_until: later,
    });
    expect(await idsIn('snoozed')).toContain(customer.id);
    expect((await toggle(customer.id, { status: 'open' })).body).toMatchObject({ status: 'open', snoozed_until: null });

    const past = Math.floor(Date.now() / 1000) - 60;
    expect((await toggle(customer.id, { status: 'snoozed', snoozed_until: past })).body).toMatchObject({
      status: 'open',
      snoozed_until: null,
    });
    expect(await idsIn('open')).toContain(customer.id);
    // A snooze of a conversation the AI answers ends as pending.
    const withAi = await desk.customerAsks('Do you restock shoes?');
    expect((await toggle(withAi.id, { status: 'snoozed', snoozed_until: later })).body.status).toBe('snoozed');
    expect((await toggle(withAi.id, { status: 'pending' })).body).toMatchObject({
      status: 'pending',
      snoozed_until: null,
    });
  });

  it("reopens a resolved conversation for people on a new AI conversation: the widget is told, a person's answer reaches the customer, \
and the customer's next message goes to the engine, not answered by the AI", async () => {
    const customer = await desk.customerAsks('How long does delivery take?');
    expect((await toggle(customer.id, { status: 'resolved' })).body.status).toBe('resolved');
    await desk.stack.bff.relay.settled();
    const before = await engineRow(customer.id);
    expect(before.engine_closed).toBe(true);

    const tab = await desk.customerSocket(customer.token);
    try {
      const reopened = await toggle(customer.id, { status: 'open' });
      expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
      expect(reopened.body).toMatchObject({ status: 'open', handled_by: 'human' });
      await until(
        () => tab.events,
        (events) => events.some((event) => event.name === 'conversation:reopened'),
        'the reopening',
      );
      expect(tab.events.find((event) => event.name === 'conversation:reopened')!.data).toEqual({
        conversation_id: customer.uuid,
      });
    } finally {
      tab.close();
    }
    const after = await engineRow(customer.id);
    expect(after).toMatchObject({ engine_closed: false, close_requested: false });
    expect(after.engine_conversation_id).not.toBe(before.engine_conversation_id);
    expect(await engineState(before.engine_conversation_id!)).toBe('closed');
    expect(await engineState(after.engine_conversation_id!)).toBe('human');

    expect((await answer(customer.id, 'Sam here: two to three days.')).status).toBe(200);
    expect((await customer.widgetMessages()).at(-1)).toMatchObject({
      author: 'human',
      text: 'Sam here: two to three days.',
    });
    const written = await customer.writes('Thanks! And to Spain?');
    const [row] = await desk.stack.bffSql.query<{ upstream: string }>('SELECT upstream FROM messages WHERE id = $1', [
      written.id,
    ]);
    expect(row!.upstream).toBe('forwarded');
    expect((await customer.widgetMessages()).at(-1)).toMatchObject({
      author: 'customer',
      text: 'Thanks! And to Spain?',
    });
    expect(await conversation(customer.id)).toMatchObject({ status: 'open', handled_by: 'human' });
  });

  it('refuses a reopening while the engine is away with 503, and the conversation stays resolved; sent again later it goes through', async () => {
    const customer = await desk.customerAsks('Do you ship to Norway?');
    await toggle(customer.id, { status: 'resolved' });
    await desk.stack.bff.relay.settled();
    const before = await engineRow(customer.id);
    await desk.engine.pause();
    try {
      const refused = await toggle(customer.id, { status: 'open' });
      expect(refused.status).toBe(503);
      expect(refused.body.errors[0].code).toBe('upstream_unavailable');
      expect((await conversation(customer.id)).status).toBe('resolved');
      expect(await engineRow(customer.id)).toEqual(before);
    } finally {
      await desk.engine.resume();
    }
    expect((await toggle(customer.id, { status: 'open' })).body.status).toBe('open');
  });

  it("lists a bot's answer as the bot's, a person's as theirs, and the AI's as the AI assistant's", async () => {
    const bot = AgentBot.parse(
      (await desk.app('/agent_bots', desk.admin.access_token, { body: { name: 'Order bot' } })).body,
    );
    await desk.app(`/inboxes/${desk.inbox.id}/set_agent_bot`, desk.admin.access_token, { body: { agent_bot: bot.id } });
    try {
      const customer = await desk.customerAsks('Where is my order?');
      const byBot = await answer(customer.id, 'Your order left the warehouse today.', bot.access_token);
      expect(byBot.body.sender).toEqual({ type: 'agent_bot', id: bot.id, name: 'Order bot' });
      const note = await desk.app(`/conversations/${customer.id}/messages`, desk.admin.access_token, {
        body: { content: 'Check the courier', private: true },
      });
      expect(note.status).toBe(200);
      await answer(customer.id, 'Sam here, anything else?');
      const messages = (await desk.app(`/conversations/${customer.id}/messages`, desk.agent.access_token)).body
        .payload as DeskMessage[];
      const senders = messages.map((message) => message.sender);
      expect(senders).toEqual([
        { type: 'contact', name: 'Customer' },
        { type: 'agent_bot', id: null, name: 'AI assistant' },
        // The notice of the handover, and its reason for the people: written by no one.
        null,
        null,
        { type: 'agent_bot', id: bot.id, name: 'Order bot' },
        { type: 'user', id: desk.admin.id, name: 'Ada', available_name: 'Ada' },
        { type: 'user', id: desk.agent.id, name: 'Sam', available_name: 'Sam' },
      ]);
    } finally {
      await desk.app(`/inboxes/${desk.inbox.id}/set_agent_bot`, desk.admin.access_token, { body: { agent_bot: null } });
    }
  });

  it('refuses a bad status change with 422 and changes nothing', async () => {
    const customer = await desk.customerAsks('Do you have gift wrapping?');
    const bad = [
      { status: 'nope' },
      { status: 'snoozed', snoozed_until: 'x' },
      { status: 'open', snoozed_until: 1_900_000_000 },
      { snoozed_until: 1_900_000_000 },
      { status: 'snoozed', snoozed_until: 1.5 },
      { status: 'snoozed', snoozed_until: -1 },
      { status: 'resolved', colour: 'red' },
    ];
    for (const body of bad) {
      const refused = await toggle(customer.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    expect(await conversation(customer.id)).toMatchObject({ status: 'pending', snoozed_until: null });
  });

  it('answers 404 to an agent without the inbox, and to a conversation of no one', async () => {
    const customer = await desk.customerAsks('Can I pay by invoice?');
    expect((await toggle(customer.id, { status: 'resolved' }, desk.otherAgent.access_token)).status).toBe(404);
    expect((await toggle(customer.id, { status: 'snoozed' }, desk.otherAgent.access_token)).status).toBe(404);
    expect((await toggle(999_999, { status: 'open' })).status).toBe(404);
    expect((await conversation(customer.id)).status).toBe('pending');
  });
});
