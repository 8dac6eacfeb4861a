import { randomInt } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { Inbox, SiteKey, User } from '../../shared/schemas/helpdesk/index.ts';
import { AI_MESSAGES_PER_ADDRESS_RANGE } from '../../shared/schemas/helpdesk/index.ts';
import { MESSAGE_LIMITS } from './message-limits.ts';

const newAddress = () => `203.0.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/**
 * An inbox whose customers share one address (an office, a mobile network) raises how many new
 * messages a minute one address may send its AI, where its other settings are set: the
 * Application API's inbox (JSON or a form). A bad value is 422 and changes nothing. The BFF's clock
 * is frozen a second into a minute; one trusted proxy names the client in X-Forwarded-For.
 */
describe("an inbox's ai_messages_per_address_per_minute", () => {
  const { least, most } = AI_MESSAGES_PER_ADDRESS_RANGE;
  let stack: TestStack;
  let admin: User;
  let agent: User;
  const clock: { frozenAt: number | undefined } = { frozenAt: undefined };
  const now = () => new Date(clock.frozenAt ?? Date.now());
  const app = (
    path: string,
    token: string | undefined,
    options: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ) => desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);

  beforeAll(async () => {
    stack = await startStack(
      undefined,
      { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN },
      { now, trustProxyHops: 1, messageLimits: { perAddressPerMinute: MESSAGE_LIMITS.perAddressPerMinute } },
    );
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: `ada-${randomToken(6)}@limits.example` })).body);
    agent = User.parse((await platform('/users', { name: 'Sam', email: `sam-${randomToken(6)}@limits.example` })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: agent.id, role: 'agent' });
  });
  afterAll(() => stack?.stop());
  beforeEach(() => {
    clock.frozenAt = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
  });
  afterEach(() => {
    clock.frozenAt = undefined;
  });

  /** A new inbox of the account with a sandbox site key, made as an operator makes one. */
  async function newInbox(settings: object = {}) {
    const made = await app('/inboxes', admin.access_token, { body: { name: `Office ${randomToken(4)}`, ...settings } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const inbox = Inbox.parse(made.body);
    const key = SiteKey.parse(
      (await app(`/inboxes/${inbox.id}/site_keys`, admin.access_token, { body: { environment: 'sandbox' } })).body,
    );
    return { inbox, siteKey: key.key! };
  }

  /** `count` new messages from `address` to the inbox of `siteKey`, 20 per visitor (each within its own 30); their statuses. */
  async function sendFrom(address: string, siteKey: string, count: number): Promise<number[]> {
    const headers = { 'x-forwarded-for': address };
    const statuses: number[] = [];
    for (let sent = 0; sent < count; sent += 20) {
      const session = await request(`${stack.url}/v1/widget-sessions`, { token: siteKey, body: {}, headers });
      expect(session.status, JSON.stringify(session.body)).toBe(201);
      const token = session.body.token as string;
      const opened = await request(`${stack.url}/v1/widget/conversations`, { token, body: {}, headers });
      expect(opened.status).toBe(201);
      for (let index = sent; index < Math.min(sent + 20, count); index++) {
        const answer = await request(`${stack.url}/v1/widget/conversations/${opened.body.id}/messages`, {
          token,
          body: { text: `message ${index}`, message_id: `m-${index}` },
          headers,
        });
        statuses.push(answer.status);
      }
    }
    return statuses;
  }

  it(
    'is the default until raised; raised, it lets one address send more in the same minute, up to the new number; null goes back to the default',
    { timeout: 120_000 },
    async () => {
      const { inbox, siteKey } = await newInbox();
      expect(inbox.ai_messages_per_address_per_minute).toBe(least);
      const office = newAddress();
      expect(await sendFrom(office, siteKey, least + 1)).toEqual([...Array(least).fill(201), 429]);

      const raised = await app(`/inboxes/${inbox.id}`, admin.access_token, {
        method: 'PATCH',
        body: { ai_messages_per_address_per_minute: least + 30 },
      });
      expect(raised.status).toBe(200);
      expect(Inbox.parse(raised.body).ai_messages_per_address_per_minute).toBe(least + 30);
      // The same address, the same minute: thirty more, then no more.
      expect(await sendFrom(office, siteKey, 31)).toEqual([...Array(30).fill(201), 429]);

      // Back to the default: the address, past it, is refused at once; the next minute it has the default again.
      const reset = await app(`/inboxes/${inbox.id}`, admin.access_token, {
        method: 'PATCH',
        body: { ai_messages_per_address_per_minute: null },
      });
      expect(Inbox.parse(reset.body).ai_messages_per_address_per_minute).toBe(least);
      expect(await sendFrom(office, siteKey, 1)).toEqual([429]);
      clock.frozenAt! += 60_000;
      expect(await sendFrom(office, siteKey, least + 1)).toEqual([...Array(least).fill(201), 429]);
    },
  );

  it('is taken when an inbox is made, and as a form field (the inbox PATCH takes forms), and the change is in the audit log', async () => {
    const { inbox } = await newInbox({ ai_messages_per_address_per_minute: 500 });
    expect(inbox.ai_messages_per_address_per_minute).toBe(500);
    const form = await app(`/inboxes/${inbox.id}`, admin.access_token, {
      method: 'PATCH',
      rawBody: `ai_messages_per_address_per_minute=${most}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect(Inbox.parse(form.body).ai_messages_per_address_per_minute).toBe(most);
    const audit = (await app('/audit_logs?types[]=Inbox', admin.access_token)).body as {
      audit_logs: { auditable_id: string; action: string; audited_changes: Record<string, unknown> }[];
    };
    const update = audit.audit_logs.find(
      (entry) => entry.auditable_id === String(inbox.id) && entry.action === 'update',
    );
    expect(update?.audited_changes['ai_messages_per_address_per_minute']).toEqual([500, most]);
  });

  it(`refuses a value that is not a whole number from ${least} to ${most} with 422, and an agent's change with 401, changing nothing`, async () => {
    const { inbox } = await newInbox({ ai_messages_per_address_per_minute: 120 });
    for (const value of [0, -1, least - 1, most + 1, 90.5, '90.5', 'sixty', '', true, [90], { per_minute: 90 }, 1e12]) {
      const refused = await app(`/inboxes/${inbox.id}`, admin.access_token, {
        method: 'PATCH',
        body: { ai_messages_per_address_per_minute: value },
      });
      expect(refused.status, JSON.stringify(value)).toBe(422);
      expect(JSON.stringify(refused.body)).toContain('ai_messages_per_address_per_minute');
    }
    const made = await app('/inboxes', admin.access_token, {
      body: { name: 'Too many', ai_messages_per_address_per_minute: most + 1 },
    });
    expect(made.status).toBe(422);
    expect(
      (
        await app(`/inboxes/${inbox.id}`, agent.access_token, {
          method: 'PATCH',
          body: { ai_messages_per_address_per_minute: 600 },
        })
      ).status,
    ).toBe(401);
    expect(
      Inbox.parse((await app(`/inboxes/${inbox.id}`, admin.access_token)).body).ai_messages_per_address_per_minute,
    ).toBe(120);
  });

  it('is in the OpenAPI document of the inbox, with its bounds', async () => {
    const document = (await request(`${stack.url}/openapi.json`)).body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    };
    const patch = document.paths['/api/v1/accounts/{account_id}/inboxes/{inbox_id}']!['patch']!;
    const schema = JSON.stringify(patch.requestBody!.content['application/json']!.schema);
    expect(schema).toContain('ai_messages_per_address_per_minute');
    expect(schema).toContain(`"minimum":${least}`);
    expect(schema).toContain(`"maximum":${most}`);
  });
});
