import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, startStack, type TestStack } from '../../test/stack.ts';
import { Session, User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * A console session that lasts: signing in sets an HttpOnly, SameSite=Strict cookie sent only to
 * `/api/v1/sessions`; a new tab resumes the session from it (with the console's CSRF header), and
 * signing out ends it for every tab. A request of another site (no header, or a foreign Origin) is
 * refused and changes nothing.
 */
describe('the console session cookie', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack(DRIVERS[0], { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    const user = User.parse(
      (
        await desk(`${stack.url}/platform/api/v1/users`, PLATFORM_TOKEN, {
          body: { name: 'Cora', email: 'cora@cookie.example', password: 'correct horse battery' },
        })
      ).body,
    );
    const role = await desk(`${stack.url}/platform/api/v1/accounts/${stack.accountId}/account_users`, PLATFORM_TOKEN, {
      body: { user_id: user.id, role: 'agent' },
    });
    expect(role.status).toBe(200);
  });

  const account = (token: string) => desk(`${stack.url}/api/v1/accounts/${stack.accountId}`, token);
  afterAll(() => stack?.stop());

  async function signIn(): Promise<{ cookie: string; session: Session; setCookie: string }> {
    const answer = await desk(`${stack.url}/api/v1/sessions`, undefined, {
      body: { email: 'cora@cookie.example', password: 'correct horse battery' },
    });
    expect(answer.status).toBe(200);
    const setCookie = answer.headers.get('set-cookie') ?? '';
    return { cookie: setCookie.split(';')[0]!, session: Session.parse(answer.body), setCookie };
  }

  const resume = (headers: Record<string, string>) =>
    desk(`${stack.url}/api/v1/sessions/resume`, undefined, { method: 'POST', headers });

  it('keeps the token where no script reads it, sent to the session routes only, never from another site', async () => {
    const { setCookie } = await signIn();
    expect(setCookie).toMatch(/^parley_session=[0-9A-Za-z]{32};/);
    expect(setCookie.toLowerCase()).toContain('httponly');
    expect(setCookie.toLowerCase()).toContain('samesite=strict');
    expect(setCookie).toContain('path=/api/v1/sessions');
    expect(setCookie.toLowerCase()).toContain('expires=');
  });

  it('resumes the session in a new tab, and the token works for the Application API', async () => {
    const { cookie, session } = await signIn();
    const resumed = await resume({ cookie, 'x-parley-console': '1', origin: stack.url });
    expect(resumed.status).toBe(200);
    expect(Session.parse(resumed.body)).toMatchObject({
      access_token: session.access_token,
      user: { id: session.user.id },
    });
    expect(Date.parse(resumed.body.expires_at)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect((await account(session.access_token)).status).toBe(200);
  });

  it('refuses a cookie sent without the console header or from another origin (CSRF), and changes nothing', async () => {
    const { cookie, session } = await signIn();
    expect((await resume({ cookie })).status).toBe(403);
    const foreign = await resume({ cookie, 'x-parley-console': '1', origin: 'https://evil.example' });
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(403);
    expect(foreign.body).toMatchObject({
      errors: [{ code: 'forbidden' }],
    });
    const signOut = await desk(`${stack.url}/api/v1/sessions/current`, undefined, {
      method: 'DELETE',
      headers: { cookie, origin: 'https://evil.example', 'x-parley-console': '1' },
    });
    expect(signOut.status).toBe(403);
    expect((await account(session.access_token)).status).toBe(200);
  });

  it('refuses to resume without a session, and after signing out, for every tab', async () => {
    expect((await resume({ 'x-parley-console': '1' })).status).toBe(401);
    const { cookie, session } = await signIn();
    const signOut = await desk(`${stack.url}/api/v1/sessions/current`, undefined, {
      method: 'DELETE',
      headers: { cookie, 'x-parley-console': '1', origin: stack.url },
    });
    expect(signOut.status).toBe(200);
    expect(signOut.headers.get('set-cookie')).toMatch(/^parley_session=;/);
    expect((await resume({ cookie, 'x-parley-console': '1' })).status).toBe(401);
    expect((await account(session.access_token)).status).toBe(401);
  });
});
