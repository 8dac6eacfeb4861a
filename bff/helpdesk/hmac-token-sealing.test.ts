import { openSecretBox } from '../../shared/server/index.ts';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { Inbox, User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * An inbox's identity validation key (`hmac_token`) signs `identifier_hash` for any verified
 * contact: whoever reads the database must not find it. It is stored sealed, like the BFF's other
 * secrets, and opened only to check a hash. Before, the column held the key in plain text.
 */
describe('the identity validation key at rest', () => {
  let stack: TestStack;
  let admin: User;

  beforeAll(async () => {
    stack = await startStack(DRIVERS[0], { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@sealing.example' })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
  });
  afterAll(() => stack?.stop());

  const app = (path: string, body?: unknown) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, admin.access_token, { body });
  const stored = async (inbox: Inbox) =>
    (
      await stack.bffSql.query<{ hmac_token: string }>('SELECT hmac_token FROM inboxes WHERE identifier = $1', [
        inbox.inbox_identifier,
      ])
    )[0]!.hmac_token;
  /** A Client API contact that claims `identifier` with this hash: whether the inbox took it as proved. */
  async function proves(inbox: Inbox, identifier: string, key: string): Promise<boolean> {
    const identifier_hash = createHmac('sha256', key).update(identifier).digest('hex');
    const answer = await request(`${stack.url}/public/api/v1/inboxes/${inbox.inbox_identifier}/contacts`, {
      body: { identifier, identifier_hash, name: 'Cleo' },
    });
    if (answer.status !== 200) return false;
    const [row] = await stack.bffSql.query<{ hmac_verified: boolean }>(
      'SELECT hmac_verified FROM contacts WHERE source_id_hash = $1',
      [openSecretBox(undefined, 'memory://').lookupHash(answer.body.source_id)],
    );
    return answer.status === 200 && row?.hmac_verified === true;
  }

  it('stores a new inbox’s key sealed, shows it once, and checks identifier_hash with it', async () => {
    const inbox = Inbox.parse((await app('/inboxes', { name: 'Sealed shop', hmac_mandatory: true })).body);
    const key = inbox.hmac_token!;
    expect(key).toMatch(/^[0-9A-Za-z]{32}$/);
    const column = await stored(inbox);
    expect(column).toMatch(/^sealed:v1:/);
    expect(column).not.toContain(key);
    expect(await proves(inbox, 'customer-1', key)).toBe(true);
    expect(await proves(inbox, 'customer-2', 'not the key')).toBe(false);
  });

  it('stores a rotated key sealed too, and only the new key proves an identifier', async () => {
    const inbox = Inbox.parse((await app('/inboxes', { name: 'Rotating shop' })).body);
    const old = inbox.hmac_token!;
    const rotated = Inbox.parse((await app(`/inboxes/${inbox.id}/rotate_hmac`, {})).body);
    const key = rotated.hmac_token!;
    const column = await stored(inbox);
    expect(column).toMatch(/^sealed:v1:/);
    expect(column).not.toContain(key);
    expect(await proves(inbox, 'customer-3', key)).toBe(true);
    expect(await proves(inbox, 'customer-4', old)).toBe(false);
  });
});
