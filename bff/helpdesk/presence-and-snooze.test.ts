import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WidgetConfig } from '../../shared/index.ts';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { desk as call, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, logger, request } from '../../test/stack.ts';
import { newVisitor } from '../../test/widget-client.ts';
import { AccountPresence, DeskConversation, User } from '../../shared/schemas/helpdesk/index.ts';
import type { ChangeBatch, Publisher } from '../realtime/publisher.ts';
import { nextInTurn, NOBODY_AVAILABLE_NOTICE, peopleAvailable } from './inbox-availability.ts';
import { startSnoozeLapses } from './snooze-lapses.ts';

/**
 * Issue 31: a person says whether they are available (kept in the store, so every node knows); the
 * widget's config and the AI's handover follow it; a snooze that lapses is ended once, by the store.
 */
describe.each(DRIVERS)('presence and lapsing snoozes on $name', (driver) => {
  let desk: DeskStack;

  beforeAll(async () => {
    desk = await startDeskStack(driver);
  });
  afterAll(async () => {
    await desk?.stop();
  });

  const profile = (token: string | undefined, body: unknown) =>
    call(`${desk.stack.url}/api/v1/profile`, token, { method: 'PATCH', body });
  const widgetSaysAvailable = async () => {
    const { token } = await newVisitor(desk.stack.url);
    const config = await request(`${desk.stack.url}/v1/widget/config`, { token });
    return WidgetConfig.parse(config.body).inbox.people_available;
  };
  const inboxId = async () =>
    (
      await desk.stack.bffSql.query<{ id: string }>('SELECT id FROM inboxes WHERE account_id = $1', [
        desk.stack.accountId,
      ])
    )[0]!.id;

  it("follows people's availability in the widget's config and the inbox's counts", async () => {
    expect(await widgetSaysAvailable()).toBeUndefined();
    const online = await profile(desk.agent.access_token, { account_id: desk.stack.accountId, availability: 'online' });
    expect(online.status, JSON.stringify(online.body)).toBe(200);
    expect(await widgetSaysAvailable()).toBe(true);
    const presence = AccountPresence.parse((await desk.app('/presence', desk.otherAgent.access_token)).body);
    expect(presence.payload.find((person) => person.user_id === desk.agent.id)?.availability_status).toBe('online');
    expect(presence.inboxes[0]?.available_count).toBe(1);
    // Kim is online but answers no inbox: nobody answers it once Sam is busy.
    await profile(desk.otherAgent.access_token, { account_id: desk.stack.accountId, availability: 'online' });
    await profile(desk.agent.access_token, { account_id: desk.stack.accountId, availability: 'busy' });
    expect(await widgetSaysAvailable()).toBe(false);
    expect(await peopleAvailable(desk.stack.bffSql, await inboxId())).toBe(false);
  });

  it('refuses a bad availability with 422 and another account or a stranger with 401, changing nothing', async () => {
    await profile(desk.admin.access_token, { account_id: desk.stack.accountId, availability: 'offline' });
    for (const body of [{ account_id: desk.stack.accountId, availability: 'away' }, { availability: 'online' }, {}])
      expect((await profile(desk.admin.access_token, body)).status, JSON.stringify(body)).toBe(422);
    expect((await profile(desk.admin.access_token, { account_id: 999_999, availability: 'online' })).status).toBe(401);
    expect((await profile('not-a-token', { account_id: desk.stack.accountId, availability: 'online' })).status).toBe(
      401,
    );
    const stranger = User.parse(
      (
        await call(`${desk.stack.url}/platform/api/v1/users`, PLATFORM_TOKEN, {
          body: { name: 'Lou', email: 'lou@p.example' },
        })
      ).body,
    );
    expect(
      (await profile(stranger.access_token, { account_id: desk.stack.accountId, availability: 'online' })).status,
    ).toBe(401);
    expect((await desk.app('/presence', stranger.access_token)).status).toBe(401);
    const presence = AccountPresence.parse((await desk.app('/presence', desk.admin.access_token)).body);
    expect(presence.payload.find((person) => person.user_id === desk.admin.id)?.availability_status).toBe('offline');
  });

  it('gives a handed-over conversation to the available people in turn, and tells the customer when nobody is there', async () => {
    await profile(desk.admin.access_token, { account_id: desk.stack.accountId, availability: 'online' });
    await profile(desk.agent.access_token, { account_id: desk.stack.accountId, availability: 'online' });
    const inbox = await inboxId();
    const assigneeOf = async (id: number) =>
      DeskConversation.parse((await desk.app(`/conversations/${id}`, desk.admin.access_token)).body).assignee_id;
    const first = await nextInTurn(desk.stack.bffSql, inbox);
    const one = await desk.customerAsks('I want to talk to a person');
    expect(await assigneeOf(one.id)).toBe(first);
    const second = await nextInTurn(desk.stack.bffSql, inbox);
    const two = await desk.customerAsks('I want to talk to a person');
    expect(await assigneeOf(two.id)).toBe(second);
    expect(new Set([first, second])).toEqual(new Set([desk.admin.id, desk.agent.id]));
    expect((await one.widgetMessages()).some((message) => message.notice === 'handover')).toBe(true);

    await profile(desk.admin.access_token, { account_id: desk.stack.accountId, availability: 'offline' });
    await profile(desk.agent.access_token, { account_id: desk.stack.accountId, availability: 'offline' });
    expect(await nextInTurn(desk.stack.bffSql, inbox)).toBeUndefined();
    const alone = await desk.customerAsks('I want to talk to a person');
    expect(await assigneeOf(alone.id)).toBeNull();
    const notices = (await alone.widgetMessages()).filter((message) => message.author === 'system');
    expect(notices.map((message) => message.text)).toContain(NOBODY_AVAILABLE_NOTICE);
  });

  it('ends a lapsed snooze once, from the store (as after a restart), and tells it', async () => {
    const { id } = await desk.customerAsks('Call me back tomorrow');
    const until = Math.floor(Date.now() / 1000) + 60;
    const snoozed = await desk.app(`/conversations/${id}/toggle_status`, desk.agent.access_token, {
      body: { status: 'snoozed', snoozed_until: until },
    });
    expect(DeskConversation.parse(snoozed.body).status).toBe('snoozed');
    // A node's job a minute later (as after a restart), with a publisher that keeps what it is told:
    // a stand-in, so that the test sees the change itself (the stack's own job has not reached the time).
    const told: ChangeBatch[] = [];
    const recorded: number[] = [];
    const publisher: Pick<Publisher, 'record' | 'publish'> = {
      record: async (_tx, conversation) => void recorded.push(conversation.id),
      publish: (conversation, ...changes) => void told.push({ conversation, changes }),
    };
    const later = () => new Date((until + 1) * 1000);
    const lapses = startSnoozeLapses({ sql: desk.stack.bffSql, now: later, publisher, logger }, 0);
    expect(await lapses.runOnce()).toBe(1);
    expect(await lapses.runOnce()).toBe(0);
    expect(recorded).toEqual([id]);
    expect(told.map((batch) => [batch.conversation.id, batch.changes])).toEqual([
      [id, [{ type: 'snoozed', until: later() }]],
    ]);
    const [row] = await desk.stack.bffSql.query<{ snoozed_until: Date | null }>(
      'SELECT snoozed_until FROM conversations WHERE id = $1',
      [id],
    );
    expect(row?.snoozed_until).toBeNull();
    expect(
      DeskConversation.parse((await desk.app(`/conversations/${id}`, desk.agent.access_token)).body),
    ).toMatchObject({
      status: 'pending',
      snoozed_until: null,
    });
  });
});
