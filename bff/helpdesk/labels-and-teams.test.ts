import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_NAMESPACE, type DeskConversationChanged } from '../../shared/index.ts';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { desk as call, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { DeskConversation, Label, Team, TeamMember, User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * Issue 31: Chatwoot's labels (the account's, and a conversation's set) and teams (with their
 * members), a conversation assigned to a person and a team, and the list filtered by both.
 */
describe.each(DRIVERS)('labels and teams on $name', (driver) => {
  let desk: DeskStack;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    desk = await startDeskStack(driver);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await desk?.stop();
  });

  const admin = () => desk.admin.access_token;
  const ids = async (query: string) => (await desk.list(admin(), query)).payload.map((row) => row.id);

  it("keeps the account's labels for administrators only, and refuses a bad or taken title with 422", async () => {
    const made = await desk.app('/labels', admin(), { body: { title: 'VIP', color: '#ff0000' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(Label.parse(made.body)).toMatchObject({ title: 'vip', color: '#ff0000', show_on_sidebar: true });
    expect((await desk.app('/labels', admin(), { body: { title: 'refund' } })).status).toBe(200);
    for (const body of [{ title: 'vip' }, { title: 'not valid!' }, { title: 'x', color: 'red' }, { title: 'x', y: 1 }])
      expect((await desk.app('/labels', admin(), { body })).status, JSON.stringify(body)).toBe(422);
    expect((await desk.app('/labels', desk.agent.access_token, { body: { title: 'agents' } })).status).toBe(401);
    expect((await desk.app('/labels', 'not-a-token')).status).toBe(401);
    const listed = (await desk.app('/labels', desk.agent.access_token)).body.payload as Label[];
    expect(listed.map((label) => label.title)).toEqual(['refund', 'vip']);
  });

  it("replaces a conversation's labels as a set, filters the list by them, and changes nothing for an unknown one", async () => {
    const one = await desk.customerAsks('I want my money back');
    const two = await desk.customerAsks('Is this in stock?');
    const set = (id: number, labels: string[], token = desk.agent.access_token) =>
      desk.app(`/conversations/${id}/labels`, token, { body: { labels } });
    expect((await set(one.id, ['refund', 'vip'])).body).toEqual({ payload: ['refund', 'vip'] });
    expect((await set(two.id, ['vip'])).body).toEqual({ payload: ['vip'] });
    const unknown = await set(one.id, ['vip', 'nope']);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].code).toBe('unprocessable');
    expect((await desk.app(`/conversations/${one.id}/labels`, admin())).body.payload).toEqual(['refund', 'vip']);
    expect((await set(one.id, ['vip'], desk.otherAgent.access_token)).status).toBe(404);

    expect(await ids('?status=all&labels[]=vip')).toEqual(expect.arrayContaining([one.id, two.id]));
    expect(await ids('?status=all&labels=vip,refund')).toEqual([one.id]);
    expect((await desk.list(admin(), '?status=all')).payload.find((row) => row.id === one.id)?.labels).toEqual([
      'refund',
      'vip',
    ]);
    // Deleting a label takes it off every conversation.
    const refund = ((await desk.app('/labels', admin())).body.payload as Label[]).find((l) => l.title === 'refund')!;
    expect((await desk.app(`/labels/${refund.id}`, desk.agent.access_token, { method: 'DELETE' })).status).toBe(401);
    expect((await desk.app(`/labels/${refund.id}`, admin(), { method: 'DELETE' })).status).toBe(200);
    expect((await desk.app(`/conversations/${one.id}/labels`, admin())).body.payload).toEqual(['vip']);
  });

  it('keeps teams and their members (people of the account only), and assigns a conversation to a person and a team, live', async () => {
    const made = await desk.app('/teams', admin(), { body: { name: 'Billing', description: 'Money matters' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const team = Team.parse(made.body);
    expect((await desk.app('/teams', admin(), { body: { name: 'Billing' } })).status).toBe(422);
    expect((await desk.app('/teams', desk.agent.access_token, { body: { name: 'Agents' } })).status).toBe(401);
    const members = (user_ids: number[], method = 'POST') =>
      desk.app(`/teams/${team.id}/team_members`, admin(), { method, body: { user_ids } });
    expect((await members([desk.agent.id])).status).toBe(200);
    expect((await members([desk.agent.id, 999_999])).status).toBe(422);
    const listed = TeamMember.array().parse((await desk.app(`/teams/${team.id}/team_members`, admin())).body);
    expect(listed.map((member) => [member.name, member.availability_status])).toEqual([['Sam', 'offline']]);
    expect(Team.array().parse((await desk.app('/teams', desk.agent.access_token)).body)[0]?.is_member).toBe(true);

    // Sam's console hears the assignment as it happens.
    const socket = io(desk.stack.url + DESK_NAMESPACE, {
      auth: { token: desk.agent.access_token, account_id: desk.stack.accountId },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    const heard: DeskConversationChanged[] = [];
    socket.on('conversation:changed', (change: DeskConversationChanged) => heard.push(change));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const { id } = await desk.customerAsks('My invoice is wrong');
    const assign = (body: object) => desk.app(`/conversations/${id}/assignments`, admin(), { body });
    const assigned = await assign({ assignee_id: desk.agent.id, team_id: team.id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(DeskConversation.parse(assigned.body)).toMatchObject({
      assignee: { name: 'Sam' },
      team: { id: team.id, name: 'Billing' },
    });
    await until(
      () => heard,
      (all) => all.some((change) => change.id === id && change.what === 'assignee'),
      'the push',
    );
    expect(await ids(`?status=all&team_id=${team.id}`)).toEqual([id]);

    // Person and team 999999 are none of the account: 422, and nothing changes.
    expect((await assign({ assignee_id: 999_999 })).status).toBe(422);
    expect((await assign({ team_id: 999_999 })).status).toBe(422);
    expect((await assign({})).status).toBe(422);
    expect(DeskConversation.parse((await desk.app(`/conversations/${id}`, admin())).body)).toMatchObject({
      assignee_id: desk.agent.id,
      team_id: team.id,
    });
    // The team alone goes; the person stays.
    expect((await assign({ team_id: null })).body).toMatchObject({ assignee_id: desk.agent.id, team: null });
    expect((await members([desk.agent.id], 'DELETE')).body).toEqual([]);
    expect((await desk.app(`/teams/${team.id}`, admin(), { method: 'DELETE' })).status).toBe(200);
    expect((await desk.app(`/teams/${team.id}`, admin())).status).toBe(404);
  });

  it('refuses a person of another account (or of none) with 401, and changes nothing', async () => {
    const platform = (path: string, body: unknown) =>
      call(`${desk.stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    const stranger = User.parse((await platform('/users', { name: 'Lou', email: 'lou@elsewhere.example' })).body);
    const token = stranger.access_token;
    expect((await desk.app('/labels', token)).status).toBe(401);
    expect((await desk.app('/labels', token, { body: { title: 'theirs' } })).status).toBe(401);
    expect((await desk.app('/teams', token, { body: { name: 'Theirs' } })).status).toBe(401);
    const { id } = await desk.customerAsks('Hello?');
    expect((await desk.app(`/conversations/${id}/labels`, token, { body: { labels: ['vip'] } })).status).toBe(401);
    expect((await desk.app(`/conversations/${id}/labels`, admin())).body.payload).toEqual([]);
    expect(((await desk.app('/teams', admin())).body as Team[]).map((team) => team.name)).not.toContain('Theirs');
  });
});
