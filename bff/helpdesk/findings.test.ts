import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetMessage } from '../../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import {
  DeskConversationList,
  DeskFindingPage,
  DeskMessage,
  Inbox,
  InboxList,
  User,
} from '../../shared/schemas/helpdesk/index.ts';

/**
 * The engine's monitor findings for the team (issue 29): kept by the BFF as `monitor.finding`
 * arrives, listed for the account (agents: their inboxes only) and for one conversation, and shown
 * as a line for the team in the transcript, never in the widget. Real engine, real HTTP.
 */
describe.each(DRIVERS)('monitor findings for the team on $name', (driver) => {
  let stack: TestStack;
  let admin: User;
  let member: User;
  let outsideAgent: User;
  let stranger: User;
  let conversationId: number;
  let uuid: string;
  let token: string;
  const app = (path: string, as: string | undefined, account = stack.accountId) =>
    desk(`${stack.url}/api/v1/accounts/${account}${path}`, as);
  const findings = (path: string, as: string | undefined) =>
    app(path, as).then((response) => ({
      ...response,
      page: response.status === 200 ? DeskFindingPage.parse(response.body) : undefined,
    }));

  beforeAll(async () => {
    stack = await startStack(driver, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN }, { feedPollMs: 0 });
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    const person = async (name: string, role: 'administrator' | 'agent', account = stack.accountId) => {
      const user = User.parse(
        (await platform('/users', { name, email: `${name.toLowerCase()}@findings.example` })).body,
      );
      await platform(`/accounts/${account}/account_users`, { user_id: user.id, role });
      return user;
    };
    admin = await person('Ada', 'administrator');
    member = await person('Sam', 'agent');
    outsideAgent = await person('Lou', 'agent');
    const elsewhere = (await platform('/accounts', { name: 'Another shop' })).body as { id: number };
    stranger = await person('Kim', 'administrator', elsewhere.id);
    const inbox = InboxList.parse((await app('/inboxes', admin.access_token)).body).payload[0] as Inbox;
    await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/inbox_members`, admin.access_token, {
      body: { inbox_id: inbox.id, user_ids: [member.id] },
    });
    const monitor = await request(`${stack.engineUrl}/v1/monitors`, {
      token: stack.apiKey,
      body: { name: 'Chargeback or lawyer', criteria: { keywords: ['lawyer', 'chargeback'] }, severity: 'high' },
    });
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);

    ({ token } = await newVisitor(stack.url));
    ({ id: uuid } = await openWidgetConversation(stack.url, token));
    await sendWidgetMessage(stack.url, token, uuid, 'I will call my lawyer', 'lawyer-1');
    await sendWidgetMessage(stack.url, token, uuid, 'Or file a chargeback', 'lawyer-2');
    await stack.bff.relay.settled();
    const listed = DeskConversationList.parse((await app('/conversations?status=all', admin.access_token)).body).data
      .payload;
    conversationId = listed.find((conversation) => conversation.uuid === uuid)!.id;
    await until(
      () => findings('/findings', admin.access_token),
      (response) => response.page?.payload.length === 2,
      'both findings at the BFF',
    );
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('lists the findings newest first with the monitor, the severity, the words and the conversation', async () => {
    const { status, page } = await findings('/findings', admin.access_token);
    expect(status).toBe(200);
    expect(page!.payload.map(({ excerpt }) => excerpt)).toEqual(['Or file a chargeback', 'I will call my lawyer']);
    expect(page!.payload[1]).toEqual({
      id: expect.any(Number),
      conversation_id: conversationId,
      monitor_id: expect.stringMatching(/^mon_/),
      monitor_name: 'Chargeback or lawyer',
      message_id: expect.any(String),
      excerpt: 'I will call my lawyer',
      severity: 'high',
      environment: 'sandbox',
      created_at: expect.any(Number),
    });
    expect(page!.has_more).toBe(false);
    expect(page!.next).toBe(String(page!.payload[1]!.id));
    const older = await findings(`/findings?after=${page!.payload[0]!.id}`, admin.access_token);
    expect(older.page!.payload.map(({ excerpt }) => excerpt)).toEqual(['I will call my lawyer']);
    expect((await findings('/findings?severity=low', admin.access_token)).page!.payload).toEqual([]);
    const ofConversation = await findings(`/conversations/${conversationId}/findings`, member.access_token);
    expect(ofConversation.page!.payload).toEqual(page!.payload);
  });

  it("records each finding's environment and shows it only with a conversation of that environment", async () => {
    const [{ environment }] = (await stack.bffSql.query<{ environment: string }>(
      'SELECT DISTINCT environment FROM monitor_findings',
    )) as [{ environment: string }];
    expect(environment).toBe('sandbox');
    expect((await findings('/findings?environment=sandbox', admin.access_token)).page!.payload).toHaveLength(2);
    expect((await findings('/findings?environment=live', admin.access_token)).page!.payload).toEqual([]);
    // A finding whose environment is not its conversation's (a sandbox customer's conversation) is not shown.
    const [newest] = (await findings('/findings', admin.access_token)).page!.payload;
    await stack.bffSql.query("UPDATE monitor_findings SET environment = 'live' WHERE id = $1", [newest!.id]);
    try {
      const shown = (await findings('/findings', admin.access_token)).page!.payload.map(({ id }) => id);
      expect(shown).not.toContain(newest!.id);
      expect(shown).toHaveLength(1);
      const ofConversation = await findings(`/conversations/${conversationId}/findings`, admin.access_token);
      expect(ofConversation.page!.payload.map(({ id }) => id)).not.toContain(newest!.id);
    } finally {
      await stack.bffSql.query("UPDATE monitor_findings SET environment = 'sandbox' WHERE id = $1", [newest!.id]);
    }
  });

  it('keeps each finding once, whichever paths brought its event', async () => {
    const [{ n }] = (await stack.bffSql.query<{ n: number }>('SELECT count(*)::int AS n FROM monitor_findings')) as [
      { n: number },
    ];
    expect(n).toBe(2);
  });

  it('shows a line for the team in the transcript, and never in the widget', async () => {
    const messages = (
      (await app(`/conversations/${conversationId}/messages`, admin.access_token)).body.payload as unknown[]
    ).map((message) => DeskMessage.parse(message));
    const forTeam = messages.filter((message) => message.private && message.message_type === 2);
    expect(forTeam.map((message) => message.content)).toEqual(
      expect.arrayContaining([
        "Monitor 'Chargeback or lawyer' flagged this message (high): “I will call my lawyer”",
        "Monitor 'Chargeback or lawyer' flagged this message (high): “Or file a chargeback”",
      ]),
    );
    const widget = (
      (await request(`${stack.url}/v1/widget/conversations/${uuid}/messages`, { token })).body
        .messages as WidgetMessage[]
    ).map((message) => message.text);
    expect(widget.some((text) => text.includes('flagged') || text.includes('Monitor'))).toBe(false);
  });

  it('refuses a bad cursor or severity with 422 and changes nothing', async () => {
    for (const query of [
      'after=abc',
      'after=0',
      'after=-1',
      'severity=urgent',
      'environment=production',
      'colour=red',
    ]) {
      const response = await findings(`/findings?${query}`, admin.access_token);
      expect(response.status, query).toBe(422);
    }
    const [{ n }] = (await stack.bffSql.query<{ n: number }>('SELECT count(*)::int AS n FROM monitor_findings')) as [
      { n: number },
    ];
    expect(n).toBe(2);
  });

  it('gives nothing to a caller without a token, of another account, or an agent outside the inbox', async () => {
    expect((await findings('/findings', undefined)).status).toBe(401);
    expect((await findings(`/conversations/${conversationId}/findings`, undefined)).status).toBe(401);
    expect((await findings('/findings', stranger.access_token)).status).toBe(401);
    const elsewhere = await app(`/conversations/${conversationId}/findings`, stranger.access_token);
    expect(elsewhere.status).toBe(401);
    expect((await findings('/findings', outsideAgent.access_token)).page!.payload).toEqual([]);
    expect((await findings(`/conversations/${conversationId}/findings`, outsideAgent.access_token)).status).toBe(404);
    expect((await findings('/findings', member.access_token)).page!.payload).toHaveLength(2);
  });

  it('declares both routes in the Application API document', async () => {
    const document = (await request(`${stack.url}/helpdesk/openapi.json`)).body as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/accounts/{account_id}/findings',
        '/api/v1/accounts/{account_id}/conversations/{conversation_id}/findings',
      ]),
    );
  });
});
