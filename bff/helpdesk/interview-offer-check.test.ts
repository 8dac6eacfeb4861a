import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { Inbox, User } from '../../shared/schemas/helpdesk/index.ts';

const INTERVIEW = {
  title: 'Checkout feedback',
  intro: 'One question.',
  questions: [{ id: 'easy', text: 'Was checking out easy?', choices: ['Yes', 'No'] }],
  closing: 'Thanks!',
};

/**
 * Issue 29: an inbox's interview offer is checked against the engine when it is set, over real
 * HTTP to the engine in-process. An interview the engine does not hold (never made, or deleted)
 * is 422 `unknown_interview` naming the field, and the inbox keeps what it offered before.
 */
describe.each(DRIVERS)("an inbox's interview offer checked at the engine on $name", (driver) => {
  let stack: TestStack;
  let admin: User;
  let inboxId: number;

  const patch = (offer: unknown) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}/inboxes/${inboxId}`, admin.access_token, {
      method: 'PATCH',
      body: { interview_offer: offer },
    });
  const offered = async () =>
    Inbox.parse(
      (await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/inboxes/${inboxId}`, admin.access_token)).body,
    ).interview_offer;
  const engine = (path: string, options: { method?: string; body?: unknown } = {}) =>
    request(`${stack.engineUrl}${path}`, { token: stack.apiKey, ...options });

  beforeAll(async () => {
    stack = await startStack(driver, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ida', email: `${randomToken(8)}@offer.example` })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
    const made = await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/inboxes`, admin.access_token, {
      body: { name: `Shop ${randomToken(4)}` },
    });
    inboxId = Inbox.parse(made.body).id;
  });
  afterAll(() => stack?.stop());

  it('takes an interview the engine holds', async () => {
    const interviewId = (await engine('/v1/interviews', { body: INTERVIEW })).body.id as string;
    const set = await patch({ interview_id: interviewId, label: 'Two seconds?' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(await offered()).toEqual({ interview_id: interviewId, label: 'Two seconds?' });
  });

  it('refuses an unknown interview with 422 unknown_interview and keeps the offer it had', async () => {
    const kept = await offered();
    const unknown = await patch({ interview_id: `ivw_${'0'.repeat(20)}` });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([
      expect.objectContaining({ code: 'unknown_interview', field: 'interview_offer.interview_id' }),
    ]);
    expect(await offered()).toEqual(kept);
  });

  it('refuses an interview deleted at the engine, and still clears the offer with null', async () => {
    const interviewId = (await engine('/v1/interviews', { body: INTERVIEW })).body.id as string;
    expect((await engine(`/v1/interviews/${interviewId}`, { method: 'DELETE' })).status).toBeLessThan(300);
    const deleted = await patch({ interview_id: interviewId });
    expect(deleted.status).toBe(422);
    expect(deleted.body.errors[0].code).toBe('unknown_interview');
    expect((await patch(null)).status).toBe(200);
    expect(await offered()).toBeNull();
  });
});
