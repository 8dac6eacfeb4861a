import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopActions } from '../test/shop-fixtures.ts';
import { request, startEngine, type TestEngine } from '../test/stack.ts';
import { createAccount, defineAction, issueApiKey, setAccountRateLimit, setSandboxFixture } from './index.ts';
import { feedbackChoicesIn } from './brain/texts.ts';

const FEEDBACK_CHOICES = feedbackChoicesIn('en');
import { PERSON_REQUEST } from './brain/texts.ts';

interface Event {
  id: string;
  type: string;
  conversation_id: string;
  data: any;
}

describe('the AI agent', () => {
  let engine: TestEngine;
  let fixtureKey: string;
  let fixtureLiveKey: string;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const open = async (token = engine.apiKey) =>
    (await request(`${engine.url}/v1/conversations`, { token, body: { customer_ref: 'brain-customer' } })).body
      .id as string;
  const say = async (id: string, text: string, token = engine.apiKey) => {
    const response = await request(`${engine.url}/v1/conversations/${id}/messages`, { token, body: { text } });
    expect(response.status).toBe(200);
    return response.body.events as Event[];
  };
  const feedOf = async (id: string, token = engine.apiKey) =>
    ((await request(`${engine.url}/v1/events?limit=1000`, { token })).body.events as Event[]).filter(
      (event) => event.conversation_id === id,
    );
  const types = (events: Event[]) => events.map((event) => event.type);
  const state = async (id: string) => (await api(`/v1/conversations/${id}/transcript`)).body.state as string;

  beforeAll(async () => {
    engine = await startEngine();
    for (const action of shopActions) await defineAction(engine.sql, engine.accountId, action);
    // A second account whose sandbox runs lookup_order itself, from a fixture.
    const withFixtures = await createAccount(engine.sql, 'Fixture shop');
    await setAccountRateLimit(engine.sql, withFixtures, 'sandbox', 100_000);
    for (const action of shopActions) await defineAction(engine.sql, withFixtures, action);
    await setSandboxFixture(engine.sql, withFixtures, 'lookup_order', {
      status: 'on its way',
      carrier: 'DHL',
      estimated_delivery: 'on Thursday',
    });
    fixtureKey = (await issueApiKey(engine.sql, withFixtures, 'sandbox')).key;
    fixtureLiveKey = (await issueApiKey(engine.sql, withFixtures, 'live')).key;
  });
  afterAll(() => engine?.stop());

  describe('handing over', () => {
    it('hands over at once when the customer asks for a person, then stays silent until a handback', async () => {
      const id = await open();
      const events = await say(id, 'Can I talk to a real person please');
      expect(types(events)).toEqual(['conversation.reply', 'conversation.handover']);
      expect(events[1]!.data).toMatchObject({ type: 'handover', reason: 'customer_request', requested_by: 'ai' });
      expect(await state(id)).toBe('human');

      expect(await say(id, 'Hello? How do I return an item?')).toEqual([]);
      const relayed = await api(`/v1/conversations/${id}/human-messages`, {
        body: { text: 'Hi, I am Sam. Let me help.', author_name: 'Sam' },
      });
      expect(relayed.body.events).toEqual([
        expect.objectContaining({
          type: 'conversation.human_message',
          data: { text: 'Hi, I am Sam. Let me help.', author_name: 'Sam' },
        }),
      ]);

      const back = await api(`/v1/conversations/${id}/handback`, { body: {} });
      expect(types(back.body.events)).toEqual(['conversation.handback']);
      const answer = await say(id, 'How do I return an item?');
      expect(answer[0]!.data.text).toContain('within 30 days');
    });

    it('never hands over on its own: each miss says it is not sure and offers a person, who comes when asked for', async () => {
      const id = await open();
      for (const question of [
        'What is the airspeed of an unladen swallow?',
        'Tell me about quantum chromodynamics',
        'Who won the cup final?',
      ]) {
        const events = await say(id, question);
        expect(types(events)).toEqual(['conversation.reply']);
        expect(events[0]!.data.text).toMatch(/not sure/);
        expect(events[0]!.data.choices).toContainEqual({ label: 'Talk to a person', value: PERSON_REQUEST });
      }
      expect(await state(id)).toBe('ai');
      const handover = await say(id, PERSON_REQUEST);
      expect(types(handover)).toEqual(['conversation.reply', 'conversation.handover']);
      expect(handover[1]!.data).toMatchObject({ reason: 'customer_request' });
    });

    it('offers the nearest articles as choices when it is not sure, and answers the one picked, naming its source and asking whether it helped', async () => {
      const id = await open();
      const [offer] = await say(id, 'gift card');
      expect(offer!.data.text).toMatch(/not sure/);
      expect(offer!.data.choices).toEqual([
        { label: 'Items that cannot be returned', value: 'Items that cannot be returned' },
        { label: 'Talk to a person', value: PERSON_REQUEST },
      ]);
      const [answer] = await say(id, offer!.data.choices[0].value);
      expect(answer!.data.text).toContain('Gift cards, opened personal care products');
      expect(answer!.data.text).toContain('Source: Returns and refunds › Items that cannot be returned');
      expect(answer!.data.text).toMatch(/Did that help\?$/);
      expect(answer!.data.choices).toEqual(FEEDBACK_CHOICES);
    });

    it('records "did that help?" once per answer: yes and no are kept with the article, and no offers a person', async () => {
      const id = await open();
      await say(id, 'How much does shipping cost?');
      const [glad] = await say(id, FEEDBACK_CHOICES[0]!.value);
      expect(glad!.data.text).toMatch(/Glad that helped/);
      // Pressed again, it is no answer to anything any more: nothing more is recorded.
      await say(id, FEEDBACK_CHOICES[0]!.value);
      await say(id, 'How long does delivery take?');
      const [sorry] = await say(id, FEEDBACK_CHOICES[1]!.value);
      expect(sorry!.data.text).toMatch(/didn't help/);
      expect(sorry!.data.choices).toEqual([{ label: 'Talk to a person', value: PERSON_REQUEST }]);
      const kept = await engine.sql.query<{ source_title: string; helpful: boolean }>(
        'SELECT source_title, helpful FROM answer_feedback WHERE conversation_id = $1 ORDER BY id',
        [id],
      );
      expect(kept).toEqual([
        { source_title: 'Shipping and delivery', helpful: true },
        { source_title: 'Shipping and delivery', helpful: false },
      ]);
    });

    it("says it is not sure in the customer's language when the articles do not answer", async () => {
      const id = await open();
      const asked = await api(`/v1/conversations/${id}/messages`, {
        body: { text: '¿Cómo puedo devolver un artículo?', locale: 'es-MX' },
      });
      expect(asked.status).toBe(200);
      const [reply] = asked.body.events as Event[];
      expect(reply!.data.text).toMatch(/No estoy seguro/);
      // The button sends the customer's words in their language, and the brain reads them as a request for a person.
      expect(reply!.data.choices).toContainEqual({
        label: 'Hablar con una persona',
        value: 'Quisiera hablar con una persona, por favor.',
      });
      // The language is kept for the conversation's next messages.
      const [next] = await say(id, 'Wie lange dauert der Versand?');
      expect(next!.data.text).toMatch(/No estoy seguro/);
    });

    it('forgets a miss once it answers', async () => {
      const id = await open();
      await say(id, 'What is the airspeed of an unladen swallow?');
      await say(id, 'How long does delivery take?');
      expect(types(await say(id, 'Tell me about quantum chromodynamics'))).toEqual(['conversation.reply']);
    });
  });

  describe('closing', () => {
    it('closes as resolved on a thank-you after a good answer, then scores the conversation', async () => {
      const id = await open();
      await say(id, 'How much does shipping cost?');
      const events = await say(id, 'Great, thanks!');
      expect(types(events)).toEqual(['conversation.reply', 'conversation.closed', 'quality.scored']);
      expect(events[1]!.data).toEqual({ type: 'close', resolved: true, closed_by: 'ai' });
      expect(events[2]!.data.score).toBeGreaterThanOrEqual(80);
      expect(events[2]!.data.reasons).toContainEqual(expect.objectContaining({ code: 'resolved' }));
      expect(await state(id)).toBe('closed');
      const after = await api(`/v1/conversations/${id}/messages`, { body: { text: 'one more thing' } });
      expect(after.status).toBe(409);
    });

    it('does not close on a thank-you when nothing was answered', async () => {
      const id = await open();
      const events = await say(id, 'thanks');
      expect(types(events)).toEqual(['conversation.reply']);
      expect(await state(id)).toBe('ai');
    });

    it('judges whether the AI resolved it when the caller closes, unless told', async () => {
      const answered = await open();
      await say(answered, 'How do I reset my password?');
      const closed = await api(`/v1/conversations/${answered}/close`, { body: {} });
      expect(closed.body.conversation).toMatchObject({
        state: 'closed',
        resolved: true,
        closed_at: expect.any(String),
      });
      expect(types(closed.body.events)).toEqual(['conversation.closed', 'quality.scored']);
      expect(closed.body.events[0].data).toEqual({ type: 'close', resolved: true, closed_by: 'caller' });

      const handedOver = await open();
      await say(handedOver, 'agent');
      expect((await api(`/v1/conversations/${handedOver}/close`, { body: {} })).body.conversation.resolved).toBe(false);

      const told = await open();
      expect(
        (await api(`/v1/conversations/${told}/close`, { body: { resolved: true } })).body.conversation.resolved,
      ).toBe(true);
    });

    it('gives the quality score and its reasons once closed, and 409 before', async () => {
      const id = await open();
      await say(id, 'What is the airspeed of an unladen swallow?');
      expect((await api(`/v1/conversations/${id}/quality`)).status).toBe(409);
      await api(`/v1/conversations/${id}/close`, { body: {} });
      const quality = await api(`/v1/conversations/${id}/quality`);
      expect(quality.body).toMatchObject({
        conversation_id: id,
        score: expect.any(Number),
        scored_at: expect.any(String),
      });
      expect(quality.body.score).toBeLessThan(60);
      expect(quality.body.reasons.map((reason: { code: string }) => reason.code)).toEqual(
        expect.arrayContaining(['not_resolved', 'unanswered_questions']),
      );
      const scored = (await feedOf(id)).find((event) => event.type === 'quality.scored');
      expect(scored!.data.score).toBe(quality.body.score);
    });
  });

  describe('actions', () => {
    it('asks the site to run an action it defined, with the inputs found in the message', async () => {
      const id = await open();
      const events = await say(id, 'Where is my order #12345?');
      expect(types(events)).toEqual(['conversation.action_request']);
      expect(events[0]!.data).toEqual({
        type: 'action_request',
        action_request_id: expect.stringMatching(/^act_/),
        action: 'lookup_order',
        inputs: { order_number: '12345' },
      });
    });

    it('asks for a missing input, then requests the action when the customer gives it', async () => {
      const id = await open();
      const asked = await say(id, 'Where is my order?');
      expect(types(asked)).toEqual(['conversation.reply']);
      expect(asked[0]!.data.text).toMatch(/order number/i);
      const requested = await say(id, 'It is 98765');
      expect(requested[0]!.data).toMatchObject({ action: 'lookup_order', inputs: { order_number: '98765' } });
    });

    it('masks card numbers and one-time codes the customer typed', async () => {
      const id = await open();
      const events = await say(
        id,
        'Please cancel order 55555 because card 4111 1111 1111 1111 was charged twice, my code is 123456',
      );
      const request = events.find((event) => event.type === 'conversation.action_request')!;
      expect(request.data.action).toBe('cancel_order');
      const reason = String(request.data.inputs.reason);
      expect(reason).toContain('[card ending 1111]');
      expect(reason).not.toMatch(/4111[ -]?1111/);
      expect(reason).not.toContain('123456');
      expect(reason).toContain('••••••');
      const transcript = await api(`/v1/conversations/${id}/transcript`);
      expect(JSON.stringify(transcript.body)).not.toMatch(/4111 1111|123456/);
    });

    it('answers from an action result only as events, after the request returned', async () => {
      const id = await open();
      const [request] = await say(id, 'Where is my order 24680?');
      const result = await api(`/v1/conversations/${id}/action-results`, {
        body: {
          action_request_id: request!.data.action_request_id,
          result: { status: 'shipped', carrier: 'UPS', estimated_delivery: 'tomorrow' },
        },
      });
      expect(result.status).toBe(202);
      expect(result.body).toEqual({
        conversation_id: id,
        action_request_id: request!.data.action_request_id,
        status: 'succeeded',
      });
      const reply = (await feedOf(id)).at(-1)!;
      expect(reply.type).toBe('conversation.reply');
      expect(reply.data.text).toBe('Order 24680 is shipped. It travels with UPS and should arrive tomorrow.');
    });

    it('tells the customer plainly when an action failed', async () => {
      const id = await open();
      const [request] = await say(id, 'Where is my order 13579?');
      await api(`/v1/conversations/${id}/action-results`, {
        body: {
          action_request_id: request!.data.action_request_id,
          result: { status: 'failed', error: 'the order system is offline' },
        },
      });
      const reply = (await feedOf(id)).at(-1)!;
      expect(reply.data.text).toMatch(/failed/);
      expect(reply.data.text).toContain('the order system is offline');
    });

    it('refuses a second result for the same request, and an unknown request', async () => {
      const id = await open();
      const [request] = await say(id, 'Where is my order 11111?');
      const body = { action_request_id: request!.data.action_request_id, result: { status: 'shipped' } };
      expect((await api(`/v1/conversations/${id}/action-results`, { body })).status).toBe(202);
      const before = await feedOf(id);
      const again = await api(`/v1/conversations/${id}/action-results`, { body });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('invalid_state');
      const unknown = await api(`/v1/conversations/${id}/action-results`, {
        body: { action_request_id: 'act_0000000000000000000000', result: {} },
      });
      expect(unknown.status).toBe(404);
      expect(await feedOf(id)).toEqual(before);
    });

    it('runs an action itself in the sandbox when it has a fixture, and says so', async () => {
      const id = await open(fixtureKey);
      const events = await say(id, 'Where is my order 4242?', fixtureKey);
      expect(types(events)).toEqual(['conversation.action_request', 'conversation.reply']);
      expect(events[0]!.data).toMatchObject({ action: 'lookup_order', handled_by: 'sandbox' });
      expect(events[1]!.data.text).toBe('Order 4242 is on its way. It travels with DHL and should arrive on Thursday.');
      expect(events[1]!.data.card).toEqual({
        title: 'Order 4242',
        fields: [
          { label: 'Status', value: 'on its way' },
          { label: 'Carrier', value: 'DHL' },
          { label: 'Arrives', value: 'on Thursday' },
        ],
      });
    });

    it('never uses sandbox fixtures for live data', async () => {
      const id = await open(fixtureLiveKey);
      const events = await say(id, 'Where is my order 4242?', fixtureLiveKey);
      expect(types(events)).toEqual(['conversation.action_request']);
      expect(events[0]!.data.handled_by).toBeUndefined();
    });
  });

  describe('records', () => {
    it('keeps an ordered transcript and exports it as JSON and as text', async () => {
      const id = await open();
      await say(id, 'How do I return an item?');
      await say(id, 'human please');
      await api(`/v1/conversations/${id}/human-messages`, { body: { text: 'Sam here, happy to help.' } });
      const transcript = await api(`/v1/conversations/${id}/transcript`);
      expect(transcript.body.turns.map((turn: { role: string }) => turn.role)).toEqual([
        'customer',
        'ai',
        'customer',
        'ai',
        'system',
        'human',
      ]);
      const times = transcript.body.turns.map((turn: { created_at: string }) => Date.parse(turn.created_at));
      expect([...times].sort((a, b) => a - b)).toEqual(times);

      const exported = await api(`/v1/conversations/${id}/export`);
      expect(exported.body.conversation).toMatchObject({ id, state: 'human' });
      expect(exported.body.turns).toEqual(transcript.body.turns);
      expect(exported.body.events.map((event: Event) => event.type)).toEqual([
        'conversation.opened',
        'conversation.reply',
        'conversation.reply',
        'conversation.handover',
        'conversation.human_message',
      ]);

      const text = await api(`/v1/conversations/${id}/export?format=text`);
      expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(text.body).toContain('Customer: How do I return an item?');
      expect(text.body).toContain('Agent: Sam here, happy to help.');
      expect((await api(`/v1/conversations/${id}/export?format=pdf`)).status).toBe(400);
    });
  });

  describe('voice sessions', () => {
    it('gives a token that works once', async () => {
      const id = await open();
      const session = await api(`/v1/conversations/${id}/voice-sessions`, { method: 'POST' });
      expect(session.status).toBe(201);
      expect(session.body).toMatchObject({ token: expect.stringMatching(/^vst_/), conversation_id: id });
      const first = await request(`${engine.url}/v1/voice-sessions/connect`, { body: { token: session.body.token } });
      expect(first.body).toEqual({
        conversation_id: id,
        customer_ref: 'brain-customer',
        state: 'ai',
        call_id: expect.stringMatching(/^call_/),
      });
      const second = await request(`${engine.url}/v1/voice-sessions/connect`, { body: { token: session.body.token } });
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe('token_used');
      const forged = await request(`${engine.url}/v1/voice-sessions/connect`, { body: { token: 'vst_made_up' } });
      expect(forged.status).toBe(401);
    });

    it('lets only one of two racing uses win', async () => {
      const id = await open();
      const { body } = await api(`/v1/conversations/${id}/voice-sessions`, { method: 'POST' });
      const results = await Promise.all(
        [1, 2, 3].map(() => request(`${engine.url}/v1/voice-sessions/connect`, { body: { token: body.token } })),
      );
      expect(results.map((result) => result.status).sort()).toEqual([200, 409, 409]);
    });
  });
});
