import { expect } from 'vitest';
import { desk } from '../helpdesk-client.ts';
import type { TestStack } from '../stack.ts';

/**
 * A person of the demo account made through the Platform API, an administrator (who may add
 * themself to an inbox) answering the demo inbox, and a one-time link that signs them in to the
 * console.
 */
export async function consoleAgent(
  stack: TestStack,
  name: string,
  email: string,
): Promise<{ user: { id: number; access_token: string }; url: string }> {
  const platform = (path: string, options: { body?: unknown } = {}) =>
    desk(`${stack.url}/platform/api/v1${path}`, stack.newPlatformToken!, options);
  const user = (await platform('/users', { body: { name, email, password: 'correct horse battery' } })).body as {
    id: number;
    access_token: string;
  };
  const role = await platform(`/accounts/${stack.accountId}/account_users`, {
    body: { user_id: user.id, role: 'administrator' },
  });
  expect(role.status).toBe(200);
  const inboxes = (await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/inboxes`, user.access_token)).body as {
    payload: { id: number }[];
  };
  await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/inbox_members`, user.access_token, {
    body: { inbox_id: inboxes.payload[0]!.id, user_ids: [user.id] },
  });
  const link = (await platform(`/users/${user.id}/login`)).body as { url: string };
  return { user, url: link.url };
}
