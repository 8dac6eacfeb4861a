import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetConversation, WidgetMessage } from '../../shared/index.ts';
import {
  DEMO_SITE_KEY,
  DRIVERS,
  request,
  startStack,
  type TestStack,
  engineConversationOf,
  engineMove,
} from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { NOTICES } from '../engine-link/event-application.ts';
import { addSiteKey, createInbox, WIDGET_REQUESTS_PER_MINUTE } from '../index.ts';
import { POLLS_PER_MINUTE } from './session-auth.ts';

const DAY_MS = 24 * 3600_000;

describe.each(DRIVERS)('BFF widget routes over HTTP on $name', (driver) => {
  let stack: TestStack;
  // The BFF's clock: real time unless a test freezes it or moves it on (session tokens keep real time).
  const clock: { frozenAt: number | undefined } = { frozenAt: undefined };
  const now = () => new Date(clock.frozenAt ?? Date.now());

  beforeAll(async () => {
    // The feed is read by hand (stack.bff.feed.catchUp()), so engine-side moves arrive when a test says.
    stack = await startStack(driver, {}, { feedPollMs: 0, now });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const widget = (path: string) => `${stack.url}/v1/widget${path}`;
  const visitor = (siteKey = DEMO_SITE_KEY) => newVisitor(stack.url, siteKey);
  const openConversation = (token: string) => openWidgetConversation(stack.url, token);
  const getConversation = async (token: string, id: string): Promise<WidgetConversation> => {
    const response = await request(widget(`/conversations/${id}`), { token });
    expect(response.status).toBe(200);
    return response.body as WidgetConversation;
  };
  const send = (token: string, id: string, text: string, messageId: string) =>
    sendWidgetMessage(stack.url, token, id, text, messageId);
  const page = async (token: string, id: string, after?: number) => {
    const response = await request(
      widget(`/conversations/${id}/messages${after === undefined ? '' : `?after=${after}`}`),
      { token },
    );
    expect(response.status).toBe(200);
    return response.body as { messages: WidgetMessage[]; next: number | null };
  };
  const messages = async (token: string, id: string) => (await page(token, id)).messages;
  const engineId = (uuid: string) => engineConversationOf(stack, uuid);
  const surveyQuestions = async (uuid: string) =>
    (
      await stack.bffSql.query<{ text: string }>(
        "SELECT m.text FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.content_type = 'input_csat'",
        [uuid],
      )
    ).map((row) => row.text);
  const engine = (engineConversationId: string, move: string, body: object = {}) =>
    engineMove(stack, engineConversationId, move, body);

  /** Sends a customer message and waits until the relay has carried it and the answer is stored. */
  async function ask(token: string, id: string, text: string, messageId: string): Promise<WidgetMessage[]> {
    const sent = await send(token, id, text, messageId);
    expect(sent.status).toBe(201);
    await stack.bff.relay.settled();
    return until(
      () => messages(token, id),
      (list) => list.some((message) => message.id > (sent.body as WidgetMessage).id && message.author !== 'customer'),
      `an answer to "${text}"`,
    );
  }
  const expectError = (response: { status: number; body: any }, status: number, code: string) => {
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, message: expect.any(String) });
  };

  describe("the customer's language", () => {
    it("keeps the language the widget opened the conversation in and passes it to the engine: the AI's own words use it", async () => {
      const { token } = await visitor();
      const opened = await request(widget('/conversations'), { token, body: { locale: 'de' } });
      expect(opened.status).toBe(201);
      const [, reply] = await ask(token, opened.body.id, 'Wie lange dauert der Versand?', 'de-1');
      expect(reply!.text).toMatch(/Ich bin nicht sicher/);
      expect(reply!.choices).toContainEqual({ label: 'Mit einer Person sprechen', value: expect.any(String) });
    });

    it('refuses a locale that is no language tag with 400, opening nothing', async () => {
      const { token } = await visitor();
      const before = (await request(widget('/conversations'), { token })).body.conversations.length;
      expectError(
        await request(widget('/conversations'), { token, body: { locale: 'de<script>' } }),
        400,
        'invalid_request',
      );
      expect((await request(widget('/conversations'), { token })).body.conversations).toHaveLength(before);
    });
  });

  describe('GET /v1/widget/config', () => {
    it("gives the demo inbox's name, greeting, color, locale and features, and the session's visitor", async () => {
      const session = await visitor();
      const response = await request(widget('/config'), { token: session.token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        inbox: {
          name: 'Demo store',
          greeting: 'Hi! Ask me anything about orders, delivery, returns or payments.',
          color: '#1f3a5f',
          locale: 'en',
        },
        features: { survey: true, prechat_form: false, several_conversations: true },
        customer: { customer_ref: session.customer_ref, verified: false, name: null },
      });
    });

    it("gives another inbox's own settings to a visitor who came with that inbox's site key", async () => {
      const inbox = await createInbox(stack.bffSql, {
        name: 'Garden shop',
        greeting: 'Hello gardener!',
        color: '#2e7d32',
        locale: 'de',
        surveyEnabled: false,
        prechatEnabled: true,
      });
      const { key } = await addSiteKey(stack.bffSql, inbox.id, 'sandbox');
      const session = await visitor(key);
      const response = await request(widget('/config'), { token: session.token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        inbox: { name: 'Garden shop', greeting: 'Hello gardener!', color: '#2e7d32', locale: 'de' },
        features: { survey: false, prechat_form: true, several_conversations: true },
        customer: { customer_ref: session.customer_ref, verified: false, name: null },
      });
    });

    it('names a verified customer whose site server vouched for them with its API key', async () => {
      const session = await request(`${stack.url}/v1/widget-sessions`, {
        token: stack.apiKey,
        body: { customer_ref: 'user-42', name: 'Ada Lovelace' },
      });
      expect(session.status).toBe(201);
      const response = await request(widget('/config'), { token: session.body.token });
      expect(response.status).toBe(200);
      expect(response.body.customer).toEqual({ customer_ref: 'user-42', verified: true, name: 'Ada Lovelace' });
      expect(response.body.features.prechat_form).toBe(false);
    });

    it('refuses a request without a session token with 401 unauthorized', async () => {
      expectError(await request(widget('/config')), 401, 'unauthorized');
      expectError(await request(widget('/config'), { token: DEMO_SITE_KEY }), 401, 'unauthorized');
    });
  });

  it('keeps several conversations per customer, lists them newest first, and keeps each one its own messages', async () => {
    const { token } = await visitor();
    expect((await request(widget('/conversations'), { token })).body).toEqual({ conversations: [] });

    const first = await openConversation(token);
    expect(first).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'open',
      handled_by: 'ai',
      unread: 0,
      last_message: null,
      survey: null,
    });
    const second = await openConversation(token);
    expect(second.id).not.toBe(first.id);

    const inFirst = await ask(token, first.id, 'How do I return an item?', 'first-1');
    const inSecond = await ask(token, second.id, 'Do you ship abroad?', 'second-1');

    const list = await request(widget('/conversations'), { token });
    expect(list.status).toBe(200);
    const conversations = list.body.conversations as WidgetConversation[];
    expect(conversations.map((conversation) => conversation.id)).toEqual([second.id, first.id]);
    for (const [conversation, stored] of [
      [conversations[0]!, inSecond],
      [conversations[1]!, inFirst],
    ] as const) {
      expect(conversation).toMatchObject({ status: 'open', handled_by: 'ai', unread: 1, survey: null });
      expect(conversation.last_message).toEqual(stored.at(-1));
      expect(conversation.last_message?.author).toBe('ai');
      expect(await getConversation(token, conversation.id)).toEqual(conversation);
    }

    expect(inFirst.map((message) => [message.author, message.conversation_id])).toEqual([
      ['customer', first.id],
      ['ai', first.id],
    ]);
    expect(inFirst[0]!.text).toBe('How do I return an item?');
    expect(inFirst[1]!.text).toContain('within 30 days');
    expect(inSecond.map((message) => [message.author, message.conversation_id])).toEqual([
      ['customer', second.id],
      ['ai', second.id],
    ]);
    expect(inSecond[0]!.text).toBe('Do you ship abroad?');
    expect(inSecond[1]!.text).toContain('ship');
    // Each has its own conversation in the engine too.
    expect(await engineId(first.id)).not.toBe(await engineId(second.id));
  });

  it('shows a customer message as sent, then delivered once the engine has it, then read once an answer came after it', async () => {
    const { token } = await visitor();
    const { id } = await openConversation(token);
    const statusOf = async (messageId: number) =>
      (await messages(token, id)).find((message) => message.id === messageId)?.status;

    // With the AI: the answer comes in the same step as the delivery, so the message is read.
    const question = await send(token, id, 'How do I return an item?', 'status-1');
    expect(question.status).toBe(201);
    expect(question.body.status).toBe('sent');
    await until(
      () => statusOf(question.body.id),
      (status) => status === 'read',
      'the answered question to be read',
    );

    // With people: the engine takes the message and nobody answers yet, so it stays delivered.
    await ask(token, id, 'I want to talk to a person', 'status-2');
    expect((await getConversation(token, id)).handled_by).toBe('human');
    const waiting = await send(token, id, 'Is anyone there?', 'status-3');
    expect(waiting.status).toBe(201);
    expect(waiting.body.status).toBe('sent');
    await until(
      () => statusOf(waiting.body.id),
      (status) => status === 'delivered',
      'the message to be delivered',
    );
    await stack.bff.relay.settled();
    await stack.bff.feed.catchUp();
    expect(await statusOf(waiting.body.id)).toBe('delivered');

    // A person answers from the helpdesk: now it is read.
    expect(
      (
        await engine(await engineId(id), 'human-messages', {
          text: 'Yes, Dana here. How can I help?',
          author_name: 'Dana',
        })
      ).status,
    ).toBe(200);
    await stack.bff.feed.catchUp();
    await until(
      () => statusOf(waiting.body.id),
      (status) => status === 'read',
      'the message to be read after the answer',
    );
    // Answers and notices are never anything but sent.
    for (const message of await messages(token, id))
      if (message.author !== 'customer') expect(message.status).toBe('sent');
  });

  describe('polling and the per-customer limit', () => {
    it('gives only the messages after the cursor, and moves next on to the last one given', async () => {
      const { token } = await visitor();
      const { id } = await openConversation(token);
      expect(await page(token, id)).toEqual({ messages: [], next: null });

      const all = await ask(token, id, 'How do I return an item?', 'poll-1');
      const [question, answer] = all;
      const start = await page(token, id);
      expect(start).toEqual({ messages: all, next: answer!.id });
      expect(await page(token, id, question!.id)).toEqual({ messages: [answer], next: answer!.id });
      // Nothing newer: the cursor stays where it was.
      expect(await page(token, id, answer!.id)).toEqual({ messages: [], next: answer!.id });

      const more = await ask(token, id, 'Do you ship abroad?', 'poll-2');
      const newer = more.filter((message) => message.id > answer!.id);
      expect(newer.map((message) => message.author)).toEqual(['customer', 'ai']);
      expect(await page(token, id, answer!.id)).toEqual({ messages: newer, next: newer.at(-1)!.id });
    });

    it('counts every widget route but polling, with X-RateLimit headers, and refuses the 121st request of a clock minute with 429 rate_limited', async () => {
      const { token } = await visitor();
      const other = await visitor();
      // Ten seconds into a clock minute of the BFF's frozen clock.
      const minuteStart = (Math.floor(Date.now() / 60_000) + 60) * 60_000;
      clock.frozenAt = minuteStart + 10_000;
      try {
        const opened = await request(widget('/conversations'), { token, body: {} });
        expect(opened.status).toBe(201);
        const id = opened.body.id as string;
        expect(opened.headers.get('x-ratelimit-limit')).toBe(String(WIDGET_REQUESTS_PER_MINUTE));
        expect(opened.headers.get('x-ratelimit-remaining')).toBe(String(WIDGET_REQUESTS_PER_MINUTE - 1));
        expect(opened.headers.get('x-ratelimit-reset')).toBe(String(minuteStart / 1000 + 60));

        // Polling is free of the widget limit: it counts against its own, and does not use up the minute.
        for (let poll = 0; poll < 10; poll++) {
          const polled = await request(widget(`/conversations/${id}/messages?after=0`), { token });
          expect(polled.status).toBe(200);
          expect(polled.headers.get('x-ratelimit-limit')).toBe(String(POLLS_PER_MINUTE));
          expect(polled.headers.get('x-ratelimit-remaining')).toBe(String(POLLS_PER_MINUTE - poll - 1));
        }
        const got = await request(widget(`/conversations/${id}`), { token });
        expect(got.headers.get('x-ratelimit-remaining')).toBe(String(WIDGET_REQUESTS_PER_MINUTE - 2));

        // Every other route counts, whichever it is.
        const routes: [string, object | undefined][] = [
          ['/config', undefined],
          ['/conversations', undefined],
          [`/conversations/${id}`, undefined],
          [`/conversations/${id}/typing`, { typing: true }],
          [`/conversations/${id}/read`, { last_read_id: 0 }],
        ];
        for (let used = 2; used < WIDGET_REQUESTS_PER_MINUTE; used++) {
          const [path, body] = routes[used % routes.length]!;
          const response = await request(widget(path), { token, ...(body ? { body } : {}) });
          expect(response.status).toBeLessThan(300);
          expect(response.headers.get('x-ratelimit-remaining')).toBe(String(WIDGET_REQUESTS_PER_MINUTE - used - 1));
        }

        const refused = await send(token, id, 'one too many', 'over-1');
        expectError(refused, 429, 'rate_limited');
        expect(refused.headers.get('retry-after')).toBe('50');
        expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(refused.headers.get('x-ratelimit-limit')).toBe(String(WIDGET_REQUESTS_PER_MINUTE));
        expectError(await request(widget('/config'), { token }), 429, 'rate_limited');
        expectError(await request(widget('/conversations'), { token, body: {} }), 429, 'rate_limited');

        // Polling still works, and the refused requests changed nothing.
        expect(await page(token, id)).toEqual({ messages: [], next: null });
        const [row] = await stack.bffSql.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM conversations WHERE customer_ref = (SELECT customer_ref FROM conversations WHERE uuid = $1)',
          [id],
        );
        expect(row!.count).toBe(1);
        // The limit is per customer: someone else is not held back.
        expect((await request(widget('/config'), { token: other.token })).status).toBe(200);

        // The next clock minute starts afresh.
        clock.frozenAt = minuteStart + 60_000;
        const later = await request(widget('/config'), { token });
        expect(later.status).toBe(200);
        expect(later.headers.get('x-ratelimit-remaining')).toBe(String(WIDGET_REQUESTS_PER_MINUTE - 1));
      } finally {
        clock.frozenAt = undefined;
      }
    });
  });

  it(`lets a customer poll ${POLLS_PER_MINUTE} times a minute, not more: polling is free of the widget limit, not unlimited`, async () => {
    const { token } = await visitor();
    const { id } = (await request(widget('/conversations'), { token, body: {} })).body as { id: string };
    const minuteStart = (Math.floor(Date.now() / 60_000) + 120) * 60_000;
    clock.frozenAt = minuteStart + 5_000;
    try {
      for (let poll = 0; poll < POLLS_PER_MINUTE; poll++)
        expect((await request(widget(`/conversations/${id}/messages?after=0`), { token })).status).toBe(200);
      const refused = await request(widget(`/conversations/${id}/messages?after=0`), { token });
      expectError(refused, 429, 'rate_limited');
      expect(refused.headers.get('retry-after')).toBe('55');
      // The widget limit is untouched by it.
      expect((await request(widget('/config'), { token })).status).toBe(200);
    } finally {
      clock.frozenAt = undefined;
    }
  });

  it('moves the read position forward only, clamps it to the last message, and counts unread answers after it', async () => {
    const { token } = await visitor();
    const { id } = await openConversation(token);
    const [question, answer] = await ask(token, id, 'How do I return an item?', 'read-1');
    expect((await getConversation(token, id)).unread).toBe(1);

    const read = await request(widget(`/conversations/${id}/read`), { token, body: { last_read_id: answer!.id } });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ conversation_id: id, last_read_id: answer!.id, unread: 0 });
    expect((await getConversation(token, id)).unread).toBe(0);

    // An older id does not move it back.
    const backwards = await request(widget(`/conversations/${id}/read`), {
      token,
      body: { last_read_id: question!.id },
    });
    expect(backwards.status).toBe(200);
    expect(backwards.body).toEqual({ conversation_id: id, last_read_id: answer!.id, unread: 0 });
    expect((await getConversation(token, id)).unread).toBe(0);

    // A bad body is refused and moves nothing.
    for (const body of [
      { last_read_id: -1 },
      { last_read_id: '99' },
      { last_read_id: 1.5 },
      {},
      { last_read_id: 1, extra: true },
    ]) {
      expectError(await request(widget(`/conversations/${id}/read`), { token, body }), 400, 'invalid_request');
    }

    const second = await ask(token, id, 'Do you ship abroad?', 'read-2');
    expect((await getConversation(token, id)).unread).toBe(1);
    // Beyond the last message: clamped to it, so answers that come later still count as unread.
    const clamped = await request(widget(`/conversations/${id}/read`), {
      token,
      body: { last_read_id: 2_000_000_000 },
    });
    expect(clamped.status).toBe(200);
    expect(clamped.body).toEqual({ conversation_id: id, last_read_id: second.at(-1)!.id, unread: 0 });
    await ask(token, id, 'Which payment methods do you accept?', 'read-3');
    expect((await getConversation(token, id)).unread).toBe(1);
  });

  it('passes on typing with 204 and refuses a bad typing body with 400', async () => {
    const { token } = await visitor();
    const { id } = await openConversation(token);
    for (const typing of [true, false]) {
      const response = await request(widget(`/conversations/${id}/typing`), { token, body: { typing } });
      expect(response.status).toBe(204);
      expect(response.body).toBe('');
    }
    for (const body of [{}, { typing: 'yes' }, { typing: 1 }, { typing: true, text: 'hel' }]) {
      expectError(await request(widget(`/conversations/${id}/typing`), { token, body }), 400, 'invalid_request');
    }
    expectError(
      await request(widget(`/conversations/${id}/typing`), { token, rawBody: '{"typing":' }),
      400,
      'invalid_json',
    );
    expect(await messages(token, id)).toEqual([]);
  });

  it('closes a conversation once: resolved here and closed in the engine; a second close or a new message is 409 invalid_state', async () => {
    const { token } = await visitor();
    const { id } = await openConversation(token);
    const before = await ask(token, id, 'How do I return an item?', 'close-1');
    const engineConversation = await engineId(id);

    const closed = await request(widget(`/conversations/${id}/close`), { token, body: {} });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ id, status: 'resolved' });
    expect(await getConversation(token, id)).toMatchObject({ status: 'resolved' });

    expectError(await request(widget(`/conversations/${id}/close`), { token, body: {} }), 409, 'invalid_state');
    expectError(await send(token, id, 'one more thing', 'close-2'), 409, 'invalid_state');
    await stack.bff.relay.settled();
    // The close asked for a rating: the survey question is stored for Client API clients, and the widget is not shown it (it has its own form).
    expect(await messages(token, id)).toEqual(before);
    expect(await surveyQuestions(id)).toEqual(['Please rate this conversation.']);
    expect((await getConversation(token, id)).unread).toBe(
      before.filter((message) => message.author !== 'customer').length,
    );
    const [row] = await stack.bffSql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM messages WHERE message_id = 'close-2'",
    );
    expect(row!.count).toBe(0);

    const transcript = await until(
      () => request(`${stack.engineUrl}/v1/conversations/${engineConversation}/transcript`, { token: stack.apiKey }),
      (response) => response.body?.state === 'closed',
      'the engine conversation to close',
    );
    expect(transcript.status).toBe(200);
    // The refused message never reached the engine.
    expect((transcript.body.turns as { text: string }[]).some((turn) => turn.text === 'one more thing')).toBe(false);
  });

  it('takes a survey answer only once resolved, 1 to 5, changeable until 14 days after the close asked for it', async () => {
    const { token } = await visitor();
    const { id } = await openConversation(token);
    const survey = (body: unknown) => request(widget(`/conversations/${id}/survey`), { token, body });

    expectError(await survey({ rating: 5, comment: 'Too early' }), 409, 'invalid_state');
    expect((await getConversation(token, id)).survey).toBeNull();

    const askedAt = Date.now();
    clock.frozenAt = askedAt;
    try {
      expect((await request(widget(`/conversations/${id}/close`), { token, body: {} })).status).toBe(200);
      for (const body of [
        { rating: 0 },
        { rating: 6 },
        { rating: '5' },
        { rating: 4.5 },
        {},
        { rating: 5, stars: 5 },
        { rating: 5, comment: 'x'.repeat(2001) },
      ]) {
        expectError(await survey(body), 400, 'invalid_request');
      }
      expect((await getConversation(token, id)).survey).toBeNull();

      // First answered two days after the close asked.
      clock.frozenAt = askedAt + 2 * DAY_MS;
      const answered = await survey({ rating: 4, comment: 'Quick and clear' });
      expect(answered.status).toBe(200);
      expect(answered.body).toEqual({ conversation_id: id, rating: 4, comment: 'Quick and clear' });
      expect((await getConversation(token, id)).survey).toEqual({ rating: 4, comment: 'Quick and clear' });

      // Changed just before the 14 days since the question are up.
      clock.frozenAt = askedAt + 14 * DAY_MS - 60_000;
      const changed = await survey({ rating: 2 });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({ conversation_id: id, rating: 2, comment: '' });
      expect((await getConversation(token, id)).survey).toEqual({ rating: 2, comment: '' });

      // 14 days after the question (only 12 after the first answer) it is locked.
      clock.frozenAt = askedAt + 14 * DAY_MS + 60_000;
      expectError(await survey({ rating: 5, comment: 'Changed my mind' }), 422, 'unprocessable');
      expect((await getConversation(token, id)).survey).toEqual({ rating: 2, comment: '' });
    } finally {
      clock.frozenAt = undefined;
    }
  });

  it('asks for a rating when the AI closes the conversation too, and takes the answer', async () => {
    const { token } = await visitor();
    const { id } = await openConversation(token);
    await ask(token, id, 'How do I return an item?', 'ai-close-1');
    await ask(token, id, 'Thanks, that helps!', 'ai-close-2');
    const resolved = await until(
      () => getConversation(token, id),
      (conversation) => conversation.status === 'resolved',
      'the AI to close',
    );
    expect(resolved.status).toBe('resolved');
    await until(
      () => surveyQuestions(id),
      (questions) => questions.length > 0,
      'the survey question',
    );
    expect(await surveyQuestions(id)).toEqual(['Please rate this conversation.']);
    expect((await messages(token, id)).some((message) => message.author === 'system')).toBe(false);

    const answered = await request(widget(`/conversations/${id}/survey`), { token, body: { rating: 5 } });
    expect(answered.status).toBe(200);
    expect((await getConversation(token, id)).survey).toEqual({ rating: 5, comment: '' });
  });

  it("answers every route of another customer's conversation with 404 not_found and changes nothing", async () => {
    const owner = (await visitor()).token;
    const { id } = await openConversation(owner);
    await ask(owner, id, 'How do I return an item?', 'mine-1');
    const ownerBefore = await getConversation(owner, id);
    const messagesBefore = await messages(owner, id);
    const stranger = (await visitor()).token;

    const attempts: [string, string, unknown][] = [
      ['GET', `/conversations/${id}`, undefined],
      ['GET', `/conversations/${id}/messages`, undefined],
      ['GET', `/conversations/${id}/messages?after=0`, undefined],
      ['POST', `/conversations/${id}/messages`, { text: 'let me in', message_id: 'intruder-1' }],
      ['POST', `/conversations/${id}/typing`, { typing: true }],
      ['POST', `/conversations/${id}/read`, { last_read_id: 2_000_000_000 }],
      ['POST', `/conversations/${id}/close`, {}],
      ['POST', `/conversations/${id}/survey`, { rating: 1, comment: 'bad' }],
    ];
    for (const [method, path, body] of attempts) {
      const response = await request(widget(path), {
        token: stranger,
        method,
        ...(body === undefined ? {} : { body }),
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }

    expect(await getConversation(owner, id)).toEqual(ownerBefore);
    expect(ownerBefore).toMatchObject({ status: 'open', unread: 1, survey: null });
    expect(await messages(owner, id)).toEqual(messagesBefore);
    expect((await request(widget('/conversations'), { token: stranger })).body).toEqual({ conversations: [] });

    // Once resolved, the stranger still cannot answer its survey.
    expect((await request(widget(`/conversations/${id}/close`), { token: owner, body: {} })).status).toBe(200);
    const survey = await request(widget(`/conversations/${id}/survey`), { token: stranger, body: { rating: 1 } });
    expectError(survey, 404, 'not_found');
    expect((await getConversation(owner, id)).survey).toBeNull();
  });

  it('shows a handover to people, their answers with their name, and the handback to the AI', async () => {
    const { token } = await visitor();
    const { id } = await openConversation(token);

    const afterHandover = await ask(token, id, 'I want to talk to a person', 'handover-1');
    expect(await getConversation(token, id)).toMatchObject({ handled_by: 'human', status: 'open' });
    expect(afterHandover.map((message) => message.author)).toEqual(['customer', 'ai', 'system']);
    expect(afterHandover[2]!.text).toBe(NOTICES.handover);
    const seen = afterHandover.at(-1)!.id;

    const engineConversation = await engineId(id);
    const human = await engine(engineConversation, 'human-messages', {
      text: 'Hi, Dana from the team here. How can I help?',
      author_name: 'Dana',
    });
    expect(human.status).toBe(200);
    await stack.bff.feed.catchUp();
    const answered = await page(token, id, seen);
    expect(answered.messages).toEqual([
      expect.objectContaining({
        author: 'human',
        author_name: 'Dana',
        text: 'Hi, Dana from the team here. How can I help?',
        conversation_id: id,
        status: 'sent',
      }),
    ]);
    expect((await getConversation(token, id)).last_message).toEqual(answered.messages[0]);

    const back = await engine(engineConversation, 'handback');
    expect(back.status).toBe(200);
    await stack.bff.feed.catchUp();
    expect((await getConversation(token, id)).handled_by).toBe('ai');
    const notice = await page(token, id, answered.next!);
    expect(notice.messages).toEqual([expect.objectContaining({ author: 'system', text: NOTICES.handback })]);

    // Reading the feed again adds nothing twice.
    await stack.bff.feed.catchUp();
    expect(await page(token, id, notice.next!)).toEqual({ messages: [], next: notice.next });

    // The AI answers again.
    const again = await ask(token, id, 'Do you ship abroad?', 'handover-2');
    expect(again.at(-1)).toMatchObject({ author: 'ai' });
  });

  it('describes itself at /openapi.json as a valid OpenAPI 3.1 document with every widget route', async () => {
    const response = await request(`${stack.url}/openapi.json`);
    expect(response.status).toBe(200);
    const document = response.body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    const expected = [
      'post /v1/widget-sessions',
      'get /v1/widget/config',
      'post /v1/widget/start',
      'get /v1/widget/conversations',
      'post /v1/widget/conversations',
      'get /v1/widget/conversations/{id}',
      'get /v1/widget/conversations/{id}/messages',
      'post /v1/widget/conversations/{id}/messages',
      'post /v1/widget/conversations/{id}/typing',
      'post /v1/widget/conversations/{id}/read',
      'post /v1/widget/conversations/{id}/close',
      'post /v1/widget/conversations/{id}/survey',
    ];
    for (const route of expected) {
      const [method, path] = route.split(' ') as [string, string];
      expect(document.paths[path]?.[method], route).toBeDefined();
    }
  });
});
