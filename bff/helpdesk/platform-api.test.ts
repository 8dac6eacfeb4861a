import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { startStack, type TestStack } from '../../test/stack.ts';
import { AccountUser, AgentBot, PlatformAccount, SignInLink, User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * The helpdesk Platform API (SPEC "Helpdesk Platform API") over real HTTP: every row with a good
 * and a bad credential, validation, unknown ids, and a token that reaches only what it created.
 */
describe('the helpdesk Platform API', () => {
  let stack: TestStack;
  const clock = { shiftMs: 0 };
  beforeAll(async () => {
    stack = await startStack(
      undefined,
      { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN },
      { now: () => new Date(Date.now() + clock.shiftMs) },
    );
  });
  afterAll(() => stack?.stop());

  const platform = (
    path: string,
    options: { method?: string; body?: unknown } = {},
    token: string | null = PLATFORM_TOKEN,
  ) => desk(`${stack.url}/platform/api/v1${path}`, token ?? undefined, options);
  const badRequestError = {
    description: expect.any(String),
    errors: [expect.objectContaining({ code: expect.any(String), message: expect.any(String) })],
  };

  it('refuses every row without a token, or with a wrong one, with 401 and a bad_request_error body, and changes nothing', async () => {
    const rows: [string, string, unknown?][] = [
      ['POST', '/accounts', { name: 'Intruder shop' }],
      ['GET', '/accounts/1'],
      ['PATCH', '/accounts/1', { name: 'Renamed' }],
      ['DELETE', '/accounts/1'],
      ['GET', '/accounts/1/account_users'],
      ['POST', '/accounts/1/account_users', { user_id: 1, role: 'administrator' }],
      ['DELETE', '/accounts/1/account_users', { user_id: 1 }],
      ['GET', '/agent_bots'],
      ['POST', '/agent_bots', { name: 'Bot' }],
      ['GET', '/agent_bots/1'],
      ['PATCH', '/agent_bots/1', { name: 'Bot' }],
      ['DELETE', '/agent_bots/1'],
      ['POST', '/users', { name: 'Eve', email: 'eve@example.com' }],
      ['GET', '/users/1'],
      ['PATCH', '/users/1', { name: 'Eve' }],
      ['DELETE', '/users/1'],
      ['GET', '/users/1/login'],
    ];
    const stored = () =>
      stack.bffSql.query<{ accounts: string; users: string }>(
        `SELECT (SELECT string_agg(name, ', ' ORDER BY id) FROM accounts) AS accounts,
                (SELECT string_agg(name || ' <' || email || '>', ', ' ORDER BY id) FROM users) AS users`,
      );
    const before = await stored();
    for (const token of [null, '', 'wrong-token', `${PLATFORM_TOKEN}x`]) {
      for (const [method, path, body] of rows) {
        const response = await platform(path, { method, ...(body === undefined ? {} : { body }) }, token);
        expect(response.status, `${method} ${path} with ${JSON.stringify(token)}`).toBe(401);
        expect(response.body).toEqual(badRequestError);
      }
    }
    // The demo account and its agent (demo/seed.ts), as they were.
    expect(before).toEqual([{ accounts: 'Demo store', users: 'Demo Agent <agent@demo.parley.example>' }]);
    expect(await stored()).toEqual(before);
  });

  it('creates, reads, changes and deletes an account; unknown ids are 404 and bad bodies 422', async () => {
    const created = await platform('/accounts', {
      method: 'POST',
      body: { name: 'Acme', locale: 'de', support_email: 'help@acme.example', custom_attributes: { plan: 'pro' } },
    });
    expect(created.status).toBe(200);
    const account = PlatformAccount.parse(created.body);
    expect(account).toMatchObject({
      name: 'Acme',
      locale: 'de',
      support_email: 'help@acme.example',
      status: 'active',
      custom_attributes: { plan: 'pro' },
    });
    expect(Number.isInteger(account.id)).toBe(true);

    expect((await platform(`/accounts/${account.id}`)).body).toEqual(account);
    const patched = await platform(`/accounts/${account.id}`, {
      method: 'PATCH',
      body: { name: 'Acme GmbH', status: 'suspended' },
    });
    expect(patched.body).toMatchObject({ id: account.id, name: 'Acme GmbH', status: 'suspended', locale: 'de' });

    for (const body of [
      {},
      { name: '' },
      { name: 'x', colour: 'red' },
      { name: 'x', locale: 'German' },
      { name: 'x', support_email: 'not-an-address' },
    ]) {
      const refused = await platform('/accounts', { method: 'POST', body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body).toEqual(badRequestError);
    }
    expect((await platform(`/accounts/${account.id}`, { method: 'PATCH', body: { status: 'gone' } })).status).toBe(422);
    for (const id of ['999999', '0', 'abc', '1.5'])
      expect((await platform(`/accounts/${id}`)).status, id).toBe(id === '999999' ? 404 : 422);

    const deleted = await platform(`/accounts/${account.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await platform(`/accounts/${account.id}`)).status).toBe(404);
    expect((await platform(`/accounts/${account.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('makes users whose access token is shown once, refuses a taken e-mail address, and changes and deletes them', async () => {
    const created = await platform('/users', {
      method: 'POST',
      body: { name: 'Sam Agent', email: 'Sam@Example.com', password: 'correct horse battery' },
    });
    expect(created.status).toBe(200);
    const user = User.parse(created.body);
    expect(user).toMatchObject({
      name: 'Sam Agent',
      email: 'sam@example.com',
      uid: 'sam@example.com',
      available_name: 'Sam Agent',
      confirmed: true,
      accounts: [],
    });
    expect(user.access_token).toMatch(/^[0-9A-Za-z]{32}$/);
    // Kept as a hash only.
    const stored = await stack.bffSql.query<{ token_hash: string }>(
      'SELECT token_hash FROM access_tokens WHERE user_id = $1',
      [user.id],
    );
    expect(stored.map((row) => row.token_hash)).not.toContain(user.access_token);

    const read = await platform(`/users/${user.id}`);
    expect(read.body).toEqual({ ...user, access_token: undefined, pubsub_token: undefined });
    expect(read.body).not.toHaveProperty('access_token');

    const taken = await platform('/users', { method: 'POST', body: { name: 'Other Sam', email: 'sam@example.com' } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors[0]).toMatchObject({ field: 'email' });
    expect(
      (
        await platform('/users', {
          method: 'POST',
          body: { name: 'Short', email: 'short@example.com', password: 'short' },
        })
      ).status,
    ).toBe(422);

    const patched = await platform(`/users/${user.id}`, {
      method: 'PATCH',
      body: { display_name: 'Sam', custom_attributes: { team: 'returns' } },
    });
    expect(patched.body).toMatchObject({
      id: user.id,
      display_name: 'Sam',
      available_name: 'Sam',
      custom_attributes: { team: 'returns' },
    });

    const other = User.parse(
      (await platform('/users', { method: 'POST', body: { name: 'Kim', email: 'kim@example.com' } })).body,
    );
    expect((await platform(`/users/${other.id}`, { method: 'PATCH', body: { email: 'sam@example.com' } })).status).toBe(
      422,
    );
    expect((await platform(`/users/${other.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await platform(`/users/${other.id}`)).status).toBe(404);
    // The deleted user's token opens nothing any more.
    expect((await desk(`${stack.url}/api/v1/accounts/1`, other.access_token)).status).toBe(401);
  });

  it('puts users in an account with a role, lists them, changes the role and takes them out', async () => {
    const account = PlatformAccount.parse(
      (await platform('/accounts', { method: 'POST', body: { name: 'Team shop' } })).body,
    );
    const user = User.parse(
      (await platform('/users', { method: 'POST', body: { name: 'Lee', email: 'lee@example.com' } })).body,
    );
    const added = await platform(`/accounts/${account.id}/account_users`, {
      method: 'POST',
      body: { user_id: user.id, role: 'agent' },
    });
    expect(added.status).toBe(200);
    expect(AccountUser.parse(added.body)).toEqual({ account_id: account.id, user_id: user.id, role: 'agent' });
    expect(
      (
        await platform(`/accounts/${account.id}/account_users`, {
          method: 'POST',
          body: { user_id: user.id, role: 'administrator' },
        })
      ).body.role,
    ).toBe('administrator');
    expect((await platform(`/accounts/${account.id}/account_users`)).body).toEqual([
      { account_id: account.id, user_id: user.id, role: 'administrator' },
    ]);
    expect((await platform(`/users/${user.id}`)).body.accounts).toEqual([
      { id: account.id, name: 'Team shop', role: 'administrator' },
    ]);

    expect(
      (
        await platform(`/accounts/${account.id}/account_users`, {
          method: 'POST',
          body: { user_id: user.id, role: 'owner' },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await platform(`/accounts/${account.id}/account_users`, {
          method: 'POST',
          body: { user_id: 999999, role: 'agent' },
        })
      ).status,
    ).toBe(404);

    expect(
      (await platform(`/accounts/${account.id}/account_users`, { method: 'DELETE', body: { user_id: user.id } }))
        .status,
    ).toBe(200);
    expect((await platform(`/accounts/${account.id}/account_users`)).body).toEqual([]);
    expect(
      (await platform(`/accounts/${account.id}/account_users`, { method: 'DELETE', body: { user_id: user.id } }))
        .status,
    ).toBe(404);
  });

  it("keeps the installation's agent bots: create (token shown once), list, read, change, delete", async () => {
    const created = await platform('/agent_bots', {
      method: 'POST',
      body: { name: 'Triage bot', description: 'Sorts new chats', outgoing_url: 'https://bots.example/triage' },
    });
    const bot = AgentBot.parse(created.body);
    expect(bot).toMatchObject({
      name: 'Triage bot',
      description: 'Sorts new chats',
      outgoing_url: 'https://bots.example/triage',
      account_id: null,
      bot_type: 'webhook',
    });
    expect(bot.access_token).toMatch(/^[0-9A-Za-z]{32}$/);
    // The secret its webhooks are signed with, like the token, is shown only when it is made.
    expect(bot.secret).toMatch(/^whsec_/);
    expect((await platform('/agent_bots')).body).toEqual([bot].map(({ access_token: _, secret: __, ...rest }) => rest));
    expect(
      (await platform(`/agent_bots/${bot.id}`, { method: 'PATCH', body: { outgoing_url: null } })).body,
    ).toMatchObject({ id: bot.id, outgoing_url: null });
    expect(
      (await platform('/agent_bots', { method: 'POST', body: { name: 'Bad', outgoing_url: 'ftp://x' } })).status,
    ).toBe(422);
    expect((await platform(`/agent_bots/${bot.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await platform(`/agent_bots/${bot.id}`)).status).toBe(404);
  });

  it('reaches only what its own token made: another platform token gets 404 for them', async () => {
    const mine = PlatformAccount.parse((await platform('/accounts', { method: 'POST', body: { name: 'Mine' } })).body);
    const user = User.parse(
      (await platform('/users', { method: 'POST', body: { name: 'Mo', email: 'mo@example.com' } })).body,
    );
    const { createPlatformToken } = await import('./store/credentials.ts');
    const { token: other } = await createPlatformToken(stack.bffSql, 'another operator', new Date());
    expect((await platform(`/accounts/${mine.id}`, {}, other)).status).toBe(404);
    expect((await platform(`/accounts/${mine.id}`, { method: 'DELETE' }, other)).status).toBe(404);
    expect((await platform(`/users/${user.id}`, {}, other)).status).toBe(404);
    expect((await platform(`/users/${user.id}/login`, {}, other)).status).toBe(404);
    expect((await platform('/agent_bots', {}, other)).body).toEqual([]);
    expect((await platform(`/accounts/${mine.id}`)).status).toBe(200);
  });

  it("does not tell a second platform app that an e-mail is another app's user's: the refusal reads as for its own (issue 33)", async () => {
    await platform('/users', { method: 'POST', body: { name: 'Kim', email: 'kim@first-app.example' } });
    const { createPlatformToken } = await import('./store/credentials.ts');
    const { token: other } = await createPlatformToken(stack.bffSql, 'second app', new Date());
    const own = User.parse(
      (await platform('/users', { method: 'POST', body: { name: 'Lee', email: 'lee@second-app.example' } }, other))
        .body,
    );
    const theirs = await platform(
      '/users',
      { method: 'POST', body: { name: 'K', email: 'kim@first-app.example' } },
      other,
    );
    const ownAgain = await platform(
      '/users',
      { method: 'POST', body: { name: 'L', email: 'lee@second-app.example' } },
      other,
    );
    expect(theirs.status).toBe(422);
    expect(theirs.body).toEqual(ownAgain.body);
    expect(JSON.stringify(theirs.body)).not.toMatch(/another|belongs|Kim/i);
    const patched = await platform(
      `/users/${own.id}`,
      { method: 'PATCH', body: { email: 'kim@first-app.example' } },
      other,
    );
    expect([patched.status, patched.body]).toEqual([422, theirs.body]);
    expect((await platform(`/users/${own.id}`, {}, other)).body.email).toBe('lee@second-app.example');
  });

  it('gives a one-time sign-in link: it signs the person in once, and is useless after its first use or after 5 minutes', async () => {
    const user = User.parse(
      (await platform('/users', { method: 'POST', body: { name: 'Ola', email: 'ola@example.com' } })).body,
    );
    const account = PlatformAccount.parse(
      (await platform('/accounts', { method: 'POST', body: { name: 'Ola shop' } })).body,
    );
    await platform(`/accounts/${account.id}/account_users`, {
      method: 'POST',
      body: { user_id: user.id, role: 'agent' },
    });

    const link = SignInLink.parse((await platform(`/users/${user.id}/login`)).body);
    expect(link.url).toMatch(new RegExp(`^${stack.url}/console/#sign_in_token=[0-9A-Za-z]{32}$`));
    const token = new URL(link.url).hash.split('=')[1]!;
    const session = await desk(`${stack.url}/api/v1/sessions`, undefined, { body: { sign_in_token: token } });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      user: { id: user.id, email: 'ola@example.com' },
      access_token: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
    });
    expect((await desk(`${stack.url}/api/v1/accounts/${account.id}`, session.body.access_token)).body).toMatchObject({
      id: account.id,
      role: 'agent',
    });
    // Once only.
    expect((await desk(`${stack.url}/api/v1/sessions`, undefined, { body: { sign_in_token: token } })).status).toBe(
      401,
    );

    const late = new URL(SignInLink.parse((await platform(`/users/${user.id}/login`)).body).url).hash.split('=')[1]!;
    clock.shiftMs = 5 * 60_000 + 1_000;
    try {
      expect((await desk(`${stack.url}/api/v1/sessions`, undefined, { body: { sign_in_token: late } })).status).toBe(
        401,
      );
    } finally {
      clock.shiftMs = 0;
    }
    expect((await platform('/users/999999/login')).status).toBe(404);
  });

  it('builds sign-in links on PUBLIC_URL when it is set (the address people reach, behind a proxy)', async () => {
    const behindProxy = await startStack(undefined, {
      DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN,
      PUBLIC_URL: 'https://chat.example.com',
    });
    try {
      const user = User.parse(
        (
          await desk(`${behindProxy.url}/platform/api/v1/users`, PLATFORM_TOKEN, {
            body: { name: 'Pia', email: 'pia@example.com' },
          })
        ).body,
      );
      const link = SignInLink.parse(
        (await desk(`${behindProxy.url}/platform/api/v1/users/${user.id}/login`, PLATFORM_TOKEN)).body,
      );
      expect(link.url).toMatch(/^https:\/\/chat\.example\.com\/console\/#sign_in_token=[0-9A-Za-z]{32}$/);
    } finally {
      await behindProxy.stop();
    }
  });
});
