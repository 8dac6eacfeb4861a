import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_NAMESPACE, type DeskConversationChanged, type DeskPresenceChange } from '../../shared/index.ts';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { until } from '../../test/until.ts';

/**
 * Issue 31: a conversation's labels and a person's availability reach the other consoles of the
 * account live (the /desk socket, a real Socket.IO client), and the administrators' changes to
 * labels and teams are in the audit log. On PGlite, over real HTTP.
 */
describe('label and team changes, told and audited', () => {
  let desk: DeskStack;
  let socket: Socket;
  const changed: DeskConversationChanged[] = [];
  const presence: DeskPresenceChange[] = [];

  beforeAll(async () => {
    desk = await startDeskStack();
    // The agent's console, open while the administrator works.
    socket = io(desk.stack.url + DESK_NAMESPACE, {
      auth: { token: desk.agent.access_token, account_id: desk.stack.accountId },
      transports: ['websocket'],
      reconnection: false,
    });
    socket.on('conversation:changed', (change) => changed.push(change));
    socket.on('presence:changed', (change) => presence.push(change));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  });
  afterAll(async () => {
    socket?.close();
    await desk?.stop();
  });

  const admin = () => desk.admin.access_token;
  const auditOf = async (type: string) =>
    ((await desk.app('/audit_logs', admin())).body.audit_logs as { auditable_type: string; action: string }[])
      .filter((entry) => entry.auditable_type === type)
      .map((entry) => entry.action);

  it("pushes a conversation's new labels to the other consoles", async () => {
    expect((await desk.app('/labels', admin(), { body: { title: 'refund' } })).status).toBe(200);
    const customer = await desk.customerAsks('I want my money back');
    changed.length = 0;
    const set = await desk.app(`/conversations/${customer.id}/labels`, admin(), { body: { labels: ['refund'] } });
    expect(set.status).toBe(200);
    await until(
      async () => changed,
      (heard) => heard.some((change) => change.id === customer.id && change.what === 'labels'),
      'the labels pushed',
    );
  });

  it("pushes a person's availability to the account's consoles", async () => {
    const profile = await fetch(`${desk.stack.url}/api/v1/profile`, {
      method: 'PATCH',
      headers: { api_access_token: admin()!, 'content-type': 'application/json' },
      body: JSON.stringify({ account_id: desk.stack.accountId, availability: 'online' }),
    });
    expect(profile.status).toBe(200);
    await until(
      async () => presence,
      (heard) => heard.some((change) => change.user_id === desk.admin.id && change.availability === 'online'),
      'the availability pushed',
    );
  });

  it('audits labels and teams made, changed and deleted, and a team’s members', async () => {
    const label = await desk.app('/labels', admin(), { body: { title: 'vip' } });
    await desk.app(`/labels/${label.body.id}`, admin(), { method: 'PATCH', body: { color: '#00ff00' } });
    await desk.app(`/labels/${label.body.id}`, admin(), { method: 'DELETE' });
    expect(await auditOf('Label')).toEqual(expect.arrayContaining(['create', 'update', 'destroy']));

    const team = await desk.app('/teams', admin(), { body: { name: 'Billing' } });
    expect(team.status).toBe(200);
    await desk.app(`/teams/${team.body.id}`, admin(), { method: 'PATCH', body: { description: 'Money' } });
    await desk.app(`/teams/${team.body.id}/team_members`, admin(), { body: { user_ids: [desk.agent.id] } });
    await desk.app(`/teams/${team.body.id}`, admin(), { method: 'DELETE' });
    expect(await auditOf('Team')).toEqual(expect.arrayContaining(['create', 'update', 'destroy']));
    expect(await auditOf('TeamMember')).toEqual(['update']);
    // A refused change leaves no entry.
    expect((await desk.app('/teams', admin(), { body: { name: 'Billing2' } })).status).toBe(200);
    expect((await desk.app('/teams', admin(), { body: { name: 'Billing2' } })).status).toBe(422);
    expect((await auditOf('Team')).filter((action) => action === 'create')).toHaveLength(2);
  });
});
