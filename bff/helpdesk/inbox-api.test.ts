import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { identifierHash } from '../index.ts';
import { Inbox, InboxList, SiteKey, User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * Inboxes through the Application API: administrators make and change them, their site keys and
 * their people; agents read; strangers and bad values are refused; the keys and settings take
 * effect on the widget's and the Client API's routes at once.
 */
describe('inboxes, site keys and inbox people through the Application API', () => {
  let stack: TestStack;
  let accountId: number;
  let admin: User;
  let agent: User;
  let outsider: User;

  const platform = (path: string, body?: unknown) =>
    desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, body === undefined ? {} : { body });
  const app = (path: string, token: string | undefined, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${accountId}${path}`, token, options);

  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    accountId = stack.accountId;
    const person = async (name: string, email: string) => User.parse((await platform('/users', { name, email })).body);
    admin = await person('Ada', 'ada@inboxes.example');
    agent = await person('Sam', 'sam@inboxes.example');
    outsider = await person('Olu', 'olu@inboxes.example');
    await platform(`/accounts/${accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
    await platform(`/accounts/${accountId}/account_users`, { user_id: agent.id, role: 'agent' });
  });
  afterAll(() => stack?.stop());

  it('lets administrators make and change inboxes, agents read them, and refuses strangers and bad values', async () => {
    const made = await app('/inboxes', admin.access_token, {
      body: { name: 'Help desk', widget_color: '#112233', timezone: 'Europe/Berlin', csat_survey_enabled: false },
    });
    expect(made.status).toBe(200);
    const inbox = Inbox.parse(made.body);
    expect(inbox).toMatchObject({
      name: 'Help desk',
      widget_color: '#112233',
      timezone: 'Europe/Berlin',
      csat_survey_enabled: false,
      account_id: accountId,
      channel_type: 'Channel::WebWidget',
    });
    expect(inbox.inbox_identifier).toMatch(/^[0-9A-Za-z]{24}$/);

    const listed = InboxList.parse((await app('/inboxes', agent.access_token)).body);
    expect(listed.payload.map((entry) => entry.name)).toEqual(['Demo store', 'Help desk']);
    expect(listed.payload.some((entry) => entry.id === inbox.id)).toBe(true);
    expect(listed.payload.every((entry) => entry.hmac_token === undefined)).toBe(true);

    expect((await app('/inboxes', agent.access_token, { body: { name: 'Agent inbox' } })).status).toBe(401);
    expect((await app(`/inboxes/${inbox.id}`, outsider.access_token)).status).toBe(401);
    for (const body of [
      { name: '' },
      { name: 'x', widget_color: 'red' },
      { name: 'x', timezone: 'Mars/Olympus' },
      { name: 'x', allowed_origins: ['https://shop.example/path'] },
      { name: 'x', channel: 'email' },
    ]) {
      expect((await app('/inboxes', admin.access_token, { body })).status, JSON.stringify(body)).toBe(422);
    }

    const changed = await app(`/inboxes/${inbox.id}`, admin.access_token, {
      method: 'PATCH',
      body: { greeting_message: 'Hello!', greeting_enabled: true, lock_to_single_conversation: true },
    });
    expect(changed.body).toMatchObject({
      greeting_message: 'Hello!',
      greeting_enabled: true,
      lock_to_single_conversation: true,
      timezone: 'Europe/Berlin',
    });
    // The Client API sees the change at once.
    expect((await request(`${stack.url}/public/api/v1/inboxes/${inbox.inbox_identifier}`)).body).toMatchObject({
      name: 'Help desk',
      greeting_enabled: true,
      timezone: 'Europe/Berlin',
    });
    expect((await app('/inboxes/999999', admin.access_token)).status).toBe(404);
  });

  it('makes site keys shown whole once, lists them by prefix, changes a live key’s origins and revokes keys for good', async () => {
    const inbox = Inbox.parse((await app('/inboxes', admin.access_token, { body: { name: 'Keys inbox' } })).body);
    const keys = `/inboxes/${inbox.id}/site_keys`;
    expect((await app(keys, admin.access_token, { body: { environment: 'live' } })).status).toBe(422);
    expect(
      (
        await app(keys, admin.access_token, {
          body: { environment: 'sandbox', allowed_origins: ['https://a.example'] },
        })
      ).status,
    ).toBe(422);
    expect(
      (await app(keys, admin.access_token, { body: { environment: 'live', allowed_origins: ['not a url'] } })).status,
    ).toBe(422);
    expect((await app(keys, agent.access_token, { body: { environment: 'sandbox' } })).status).toBe(401);

    const live = SiteKey.parse(
      (
        await app(keys, admin.access_token, {
          body: { environment: 'live', allowed_origins: ['https://Shop.Example:443'] },
        })
      ).body,
    );
    expect(live).toMatchObject({ environment: 'live', allowed_origins: ['https://shop.example'], revoked_at: null });
    const sandbox = SiteKey.parse((await app(keys, admin.access_token, { body: { environment: 'sandbox' } })).body);
    expect(sandbox.key).toMatch(/^pk_test_/);
    const listed = (await app(keys, admin.access_token)).body as SiteKey[];
    expect(listed.map((key) => [key.id, key.key_prefix, key.key])).toEqual([
      [live.id, `${live.key!.slice(0, 12)}…`, undefined],
      [sandbox.id, `${sandbox.key!.slice(0, 12)}…`, undefined],
    ]);
    expect((await app(keys, agent.access_token)).status).toBe(401);

    const session = (key: string, origin?: string) =>
      fetch(`${stack.url}/v1/widget-sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
        body: '{}',
      });
    expect((await session(live.key!, 'https://shop.example')).status).toBe(201);
    expect((await session(live.key!, 'https://other.example')).status).toBe(403);
    expect(
      (
        await app(`${keys}/${live.id}`, admin.access_token, {
          method: 'PATCH',
          body: { allowed_origins: ['https://other.example'] },
        })
      ).body.allowed_origins,
    ).toEqual(['https://other.example']);
    expect((await session(live.key!, 'https://other.example')).status).toBe(201);
    expect(
      (
        await app(`${keys}/${sandbox.id}`, admin.access_token, {
          method: 'PATCH',
          body: { allowed_origins: ['https://x.example'] },
        })
      ).status,
    ).toBe(422);

    expect((await app(`${keys}/${sandbox.id}`, admin.access_token, { method: 'DELETE' })).status).toBe(200);
    expect((await session(sandbox.key!)).status).toBe(401);
    expect(
      ((await app(keys, admin.access_token)).body as SiteKey[]).find((key) => key.id === sandbox.id)?.revoked_at,
    ).toEqual(expect.any(String));
    expect((await app(`${keys}/999999`, admin.access_token, { method: 'DELETE' })).status).toBe(404);
  });

  it('rotates the identity validation key: hashes made with the old key stop proving an identifier', async () => {
    const inbox = Inbox.parse(
      (await app('/inboxes', admin.access_token, { body: { name: 'Verified inbox', hmac_mandatory: true } })).body,
    );
    const contact = (hash: string) =>
      request(`${stack.url}/public/api/v1/inboxes/${inbox.inbox_identifier}/contacts`, {
        body: { identifier: 'customer-7', identifier_hash: hash },
      });
    const oldHash = identifierHash(inbox.hmac_token!, 'customer-7');
    expect((await contact(oldHash)).status).toBe(200);
    const rotated = Inbox.parse((await app(`/inboxes/${inbox.id}/rotate_hmac`, admin.access_token, { body: {} })).body);
    expect(rotated.hmac_token).not.toBe(inbox.hmac_token);
    expect((await contact(oldHash)).status).toBe(401);
    expect((await contact(identifierHash(rotated.hmac_token!, 'customer-7'))).status).toBe(200);
    expect((await app(`/inboxes/${inbox.id}/rotate_hmac`, agent.access_token, { body: {} })).status).toBe(401);
    const audit = (await app('/audit_logs?types[]=Inbox', admin.access_token)).body as {
      audit_logs: { audited_changes: Record<string, unknown> }[];
    };
    expect(JSON.stringify(audit)).not.toContain(rotated.hmac_token!);
    expect(JSON.stringify(audit)).not.toContain(inbox.hmac_token!);
  });

  it('keeps the people who answer an inbox: only people of the account, added, set and taken off', async () => {
    const inbox = Inbox.parse((await app('/inboxes', admin.access_token, { body: { name: 'Team inbox' } })).body);
    const members = (method: string, userIds: number[]) =>
      app('/inbox_members', admin.access_token, { method, body: { inbox_id: inbox.id, user_ids: userIds } });
    expect(
      (await members('POST', [agent.id])).body.payload.map((person: { id: number; role: string }) => [
        person.id,
        person.role,
      ]),
    ).toEqual([[agent.id, 'agent']]);
    expect((await members('POST', [outsider.id])).status).toBe(422);
    expect(
      (await members('PATCH', [admin.id, agent.id])).body.payload.map((person: { id: number }) => person.id),
    ).toEqual([admin.id, agent.id].sort((a, b) => a - b));
    expect((await members('DELETE', [admin.id])).body.payload.map((person: { id: number }) => person.id)).toEqual([
      agent.id,
    ]);
    expect((await app(`/inbox_members/${inbox.id}`, agent.access_token)).body.payload).toHaveLength(1);
    expect(
      (
        await app('/inbox_members', agent.access_token, {
          method: 'POST',
          body: { inbox_id: inbox.id, user_ids: [agent.id] },
        })
      ).status,
    ).toBe(401);
    // The demo account has its own agent too, seeded by every start (demo/seed.ts).
    const people = ((await app('/agents', agent.access_token)).body as { email: string }[])
      .map((person) => person.email)
      .sort();
    expect(people).toEqual(['ada@inboxes.example', 'agent@demo.parley.example', 'sam@inboxes.example']);
  });

  it('deletes an inbox with its conversations; its keys stop working', async () => {
    const inbox = Inbox.parse((await app('/inboxes', admin.access_token, { body: { name: 'Short-lived' } })).body);
    const key = SiteKey.parse(
      (await app(`/inboxes/${inbox.id}/site_keys`, admin.access_token, { body: { environment: 'sandbox' } })).body,
    );
    const session = (await (
      await fetch(`${stack.url}/v1/widget-sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { token: string };
    expect((await request(`${stack.url}/v1/widget/conversations`, { token: session.token, body: {} })).status).toBe(
      201,
    );
    expect((await app(`/inboxes/${inbox.id}`, agent.access_token, { method: 'DELETE' })).status).toBe(401);
    expect((await app(`/inboxes/${inbox.id}`, admin.access_token, { method: 'DELETE' })).status).toBe(200);
    expect((await app(`/inboxes/${inbox.id}`, admin.access_token)).status).toBe(404);
    const again = await fetch(`${stack.url}/v1/widget-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(again.status).toBe(401);
  });
});

describe('canned responses through the Application API', () => {
  let stack: TestStack;
  let admin: User;
  let agent: User;
  beforeAll(async () => {
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@canned.example' })).body);
    agent = User.parse((await platform('/users', { name: 'Sam', email: 'sam@canned.example' })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: agent.id, role: 'agent' });
  });
  afterAll(() => stack?.stop());

  it('are kept by administrators, read and searched by everyone of the account, with unique short codes', async () => {
    const canned = (path: string, token: string | undefined, options: { method?: string; body?: unknown } = {}) =>
      desk(`${stack.url}/api/v1/accounts/${stack.accountId}/canned_responses${path}`, token, options);
    const returns = await canned('', admin.access_token, {
      body: { short_code: 'returns', content: 'You can return any item within 30 days.' },
    });
    expect(returns.status).toBe(200);
    expect(returns.body).toMatchObject({ short_code: 'returns', account_id: stack.accountId });
    await canned('', admin.access_token, { body: { short_code: 'hello', content: 'Hello! How can I help?' } });
    expect((await canned('', admin.access_token, { body: { short_code: 'returns', content: 'Again' } })).status).toBe(
      422,
    );
    expect((await canned('', admin.access_token, { body: { short_code: 'two words', content: 'x' } })).status).toBe(
      422,
    );
    expect((await canned('', agent.access_token, { body: { short_code: 'mine', content: 'x' } })).status).toBe(401);

    expect(
      ((await canned('', agent.access_token)).body as { short_code: string }[]).map((entry) => entry.short_code),
    ).toEqual(['hello', 'returns']);
    expect(
      ((await canned('?search=30%20days', agent.access_token)).body as { short_code: string }[]).map(
        (entry) => entry.short_code,
      ),
    ).toEqual(['returns']);
    expect((await canned('?search=%25', agent.access_token)).body).toEqual([]);

    const id = returns.body.id as number;
    expect(
      (
        await canned(`/${id}`, admin.access_token, {
          method: 'PATCH',
          body: { content: 'Returns are free within 30 days.' },
        })
      ).body.content,
    ).toBe('Returns are free within 30 days.');
    expect(
      (await canned(`/${id}`, admin.access_token, { method: 'PATCH', body: { short_code: 'hello' } })).status,
    ).toBe(422);
    expect((await canned(`/${id}`, agent.access_token, { method: 'DELETE' })).status).toBe(401);
    expect((await canned(`/${id}`, admin.access_token, { method: 'DELETE' })).status).toBe(200);
    expect((await canned(`/${id}`, admin.access_token, { method: 'DELETE' })).status).toBe(404);
    const log = (
      await desk(
        `${stack.url}/api/v1/accounts/${stack.accountId}/audit_logs?types[]=CannedResponse`,
        admin.access_token,
      )
    ).body as { audit_logs: { action: string }[] };
    expect(log.audit_logs.map((entry) => entry.action)).toEqual(['destroy', 'update', 'create', 'create']);
  });
});
