import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, startStack, type TestStack } from '../../test/stack.ts';
import { SignInLink, User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * A console sign-in link carries a token that signs a person in: its address comes from PUBLIC_URL
 * or, without it, from the server's own socket, never from a header the caller chooses. Before,
 * `Host: evil.example` (and `X-Forwarded-Host` behind TRUST_PROXY_HOPS) gave a link to evil.example.
 */
describe('the address of a console sign-in link', () => {
  let stack: TestStack;
  let user: User;

  beforeAll(async () => {
    // Behind one proxy, with no PUBLIC_URL: the case where forwarded headers used to count.
    stack = await startStack(DRIVERS[0], { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN, TRUST_PROXY_HOPS: '1' });
    user = User.parse(
      (
        await desk(`${stack.url}/platform/api/v1/users`, PLATFORM_TOKEN, {
          body: { name: 'Pia', email: 'pia@link.example' },
        })
      ).body,
    );
  });
  afterAll(() => stack?.stop());

  /** Asks for a link with these headers, over plain node:http (fetch would not send a Host of our choosing). */
  function linkWith(headers: Record<string, string>): Promise<string> {
    const url = new URL(`${stack.url}/platform/api/v1/users/${user.id}/login`);
    return new Promise((resolve, reject) => {
      const sent = httpRequest(url, { headers: { api_access_token: PLATFORM_TOKEN, ...headers } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve(SignInLink.parse(JSON.parse(body)).url));
      });
      sent.on('error', reject);
      sent.end();
    });
  }

  it('ignores a Host header naming another site', async () => {
    const url = await linkWith({ Host: 'evil.example' });
    expect(new URL(url).host).toBe(new URL(stack.url).host);
    expect(url).not.toContain('evil.example');
  });

  it('ignores X-Forwarded-Host and X-Forwarded-Proto, even from a trusted proxy hop', async () => {
    const url = await linkWith({ 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' });
    expect(url.startsWith(`${stack.url}/console/#sign_in_token=`)).toBe(true);
  });
});
