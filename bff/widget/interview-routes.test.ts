import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, WidgetConfig, WidgetConversation, type WidgetMessage } from '../../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { newVisitor, sendWidgetMessage } from '../../test/widget-client.ts';
import { Inbox, SiteKey, User } from '../../shared/schemas/helpdesk/index.ts';

const INTERVIEW = {
  title: 'Delivery feedback',
  intro: 'Thanks for taking a minute: two short questions.',
  questions: [
    { id: 'satisfaction', text: 'How happy were you with the delivery?', choices: ['Very happy', 'Unhappy'] },
    { id: 'improve', text: 'What could we do better?' },
  ],
  closing: 'Thank you!',
};

/**
 * Issue 29: an inbox offers a running interview of the engine on the widget's home screen, set
 * through the Application API; a visitor starts it with `POST /v1/widget/interviews`, which opens
 * the engine's conversation through its interview sessions route. The intro and the first question
 * (its choices as quick replies) come as the AI's messages; a choice gets the next question. Only
 * the interview the visitor's own inbox offers can start, and a bad call changes nothing.
 */
describe.each(DRIVERS)('interviews offered in the widget on $name', (driver) => {
  let stack: TestStack;
  let admin: User;
  let agent: User;

  const app = (path: string, token: string | undefined, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);
  const platform = (path: string, body: unknown) =>
    desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
  const newInterview = async () => {
    const made = await request(`${stack.engineUrl}/v1/interviews`, { token: stack.apiKey, body: INTERVIEW });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.id as string;
  };
  /** A new inbox of the account offering `offer`, and a visitor's session token on it. */
  async function inboxWithVisitor(offer: object | null) {
    const made = await app('/inboxes', admin.access_token, { body: { name: `Shop ${randomToken(4)}` } });
    const inbox = Inbox.parse(made.body);
    const set = await app(`/inboxes/${inbox.id}`, admin.access_token, {
      method: 'PATCH',
      body: { interview_offer: offer },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const key = SiteKey.parse(
      (await app(`/inboxes/${inbox.id}/site_keys`, admin.access_token, { body: { environment: 'sandbox' } })).body,
    );
    return { inbox, token: (await newVisitor(stack.url, key.key!)).token };
  }
  const start = (token: string | undefined, interviewId: string) =>
    request(`${stack.url}/v1/widget/interviews`, {
      ...(token ? { token } : {}),
      body: { interview_id: interviewId, locale: 'en' },
    });
  const conversationsOf = async (token: string) =>
    (await request(`${stack.url}/v1/widget/conversations`, { token })).body.conversations as WidgetConversation[];
  /** The conversation's messages once the AI's `count`-th has come. */
  async function messagesOnce(token: string, id: string, count: number): Promise<WidgetMessage[]> {
    for (;;) {
      const page = await request(`${stack.url}/v1/widget/conversations/${id}/messages`, { token });
      const messages = page.body.messages as WidgetMessage[];
      if (messages.filter((message) => message.author === 'ai').length >= count) return messages;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    stack = await startStack(driver, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    const person = async (name: string, role: string) => {
      const user = User.parse((await platform('/users', { name, email: `${randomToken(8)}@offer.example` })).body);
      await platform(`/accounts/${stack.accountId}/account_users`, { user_id: user.id, role });
      return user;
    };
    admin = await person('Ada', 'administrator');
    agent = await person('Sam', 'agent');
  });
  afterAll(() => stack?.stop());

  it('offers the interview in the config and runs it: the first question with its choices, then the next', async () => {
    const interviewId = await newInterview();
    const { inbox, token } = await inboxWithVisitor({ interview_id: interviewId, label: 'Tell us about it' });
    const shown = await app(`/inboxes/${inbox.id}`, admin.access_token);
    expect(Inbox.parse(shown.body).interview_offer).toEqual({ interview_id: interviewId, label: 'Tell us about it' });
    const config = await request(`${stack.url}/v1/widget/config`, { token });
    expect(WidgetConfig.parse(config.body).inbox.interview_offer).toEqual({
      interview_id: interviewId,
      label: 'Tell us about it',
    });

    const opened = await start(token, interviewId);
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const conversation = WidgetConversation.parse(opened.body);
    const first = await messagesOnce(token, conversation.id, 2);
    expect(first.map((message) => message.text)).toEqual([INTERVIEW.intro, INTERVIEW.questions[0]!.text]);
    expect(first[1]!.choices?.map((choice) => choice.label)).toEqual(expect.arrayContaining(['Very happy', 'Unhappy']));

    const sent = await sendWidgetMessage(stack.url, token, conversation.id, 'Very happy', 'm-1');
    expect(sent.status).toBe(201);
    const next = await messagesOnce(token, conversation.id, 3);
    expect(next.filter((message) => message.author === 'ai').at(-1)!.text).toBe(INTERVIEW.questions[1]!.text);
  });

  it('refuses an interview the inbox does not offer (none, or another inbox’s) with 404, opening nothing', async () => {
    const offered = await newInterview();
    const { token: noOffer } = await inboxWithVisitor(null);
    const none = await start(noOffer, offered);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('not_found');
    expect(await conversationsOf(noOffer)).toEqual([]);

    const { token: other } = await inboxWithVisitor({ interview_id: await newInterview() });
    const foreign = await start(other, offered);
    expect(foreign.status).toBe(404);
    expect(await conversationsOf(other)).toEqual([]);
  });

  it('refuses a bad interview id with 400 invalid_request and a call without a session with 401', async () => {
    const { token } = await inboxWithVisitor(null);
    const bad = await start(token, 'not-an-interview');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    expect(await conversationsOf(token)).toEqual([]);
    expect((await start(undefined, await newInterview())).status).toBe(401);
  });

  it('lets only an administrator set the offer, refuses a bad one with 422 and clears it with null', async () => {
    const made = Inbox.parse(
      (await app('/inboxes', admin.access_token, { body: { name: `Shop ${randomToken(4)}` } })).body,
    );
    const interviewId = await newInterview();
    const patch = (token: string | undefined, offer: unknown) =>
      app(`/inboxes/${made.id}`, token, { method: 'PATCH', body: { interview_offer: offer } });
    expect((await patch(agent.access_token, { interview_id: interviewId })).status).toBe(401);
    expect((await patch(admin.access_token, { interview_id: 'ivw_bad' })).status).toBe(422);
    expect((await patch(admin.access_token, { interview_id: interviewId, label: '' })).status).toBe(422);
    const read = async () => Inbox.parse((await app(`/inboxes/${made.id}`, admin.access_token)).body).interview_offer;
    expect(await read()).toBeNull();
    expect((await patch(admin.access_token, { interview_id: interviewId })).status).toBe(200);
    expect(await read()).toEqual({ interview_id: interviewId });
    expect((await patch(admin.access_token, null)).status).toBe(200);
    expect(await read()).toBeNull();
  });
});
