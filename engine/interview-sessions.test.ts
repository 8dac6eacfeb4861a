import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../shared/index.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.ts';
import { mentions } from '../test/every-row.ts';

const INTERVIEW = {
  title: 'Delivery feedback',
  intro: 'Thanks for taking a few minutes: four short questions about your last delivery.',
  questions: [
    { id: 'satisfaction', text: 'How happy were you with the delivery?', choices: ['Very happy', 'Happy', 'Unhappy'] },
    { id: 'improve', text: 'What could we do better?' },
    { id: 'channel', text: 'How would you rather reach us?', choices: ['Chat', 'Phone', 'E-mail'] },
    { id: 'anything', text: 'Anything else you would like to tell us?' },
  ],
  closing: 'Thank you! Your answers help us a lot.',
};

interface Event {
  id: string;
  type: string;
  conversation_id: string | null;
  data: { text?: string; choices?: { label: string; value: string }[]; [key: string]: unknown };
}

/**
 * Running an interview (issue 29) over real HTTP: the AI asks one question at a time, takes a
 * choice or free text, asks once more about an empty reply, lets the customer skip, stop or ask for
 * a person, and reports the answers as `interview.completed` in the feed, in signed webhooks and
 * on `/responses`.
 */
describe.each(DRIVERS)('running an interview on $name', (driver) => {
  let engine: TestEngine;
  let receiver: WebhookReceiver;
  let interviewId: string;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const start = async (customer_ref: string, locale?: string) => {
    const opened = await api(`/v1/interviews/${interviewId}/sessions`, {
      body: { customer_ref, ...(locale ? { locale } : {}) },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    return opened.body as { conversation: { id: string; state: string }; events: Event[] };
  };
  const say = async (conversationId: string, text: string) => {
    const sent = await api(`/v1/conversations/${conversationId}/messages`, { body: { text } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent.body.events as Event[];
  };
  const replies = (events: Event[]) =>
    events.filter((event) => event.type === 'conversation.reply').map((event) => event.data.text);
  const completion = (events: Event[]) => events.find((event) => event.type === 'interview.completed');

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    engine = await startEngine(driver, undefined, { webhooks: { allowedPrivateOrigins: [receiver.origin] } });
  });
  afterAll(async () => {
    await engine?.stop();
    await receiver?.close();
  });
  beforeEach(async () => {
    interviewId = (await api('/v1/interviews', { body: INTERVIEW })).body.id;
  });

  it('asks each question in turn and reports every answer in the feed and in a signed webhook', async () => {
    const endpoint = (await api('/v1/webhook-endpoints', { body: { url: receiver.url } })).body as {
      id: string;
      secret: string;
    };
    const { conversation, events } = await start('interviewed-customer');
    expect(conversation).toMatchObject({ id: expect.stringMatching(/^cnv_/), state: 'ai' });
    expect(events.map((event) => event.type)).toEqual([
      'conversation.opened',
      'conversation.reply',
      'conversation.reply',
    ]);
    expect(replies(events)).toEqual([INTERVIEW.intro, INTERVIEW.questions[0]!.text]);
    expect(events[2]!.data.choices).toEqual([
      { label: 'Very happy', value: 'Very happy' },
      { label: 'Happy', value: 'Happy' },
      { label: 'Unhappy', value: 'Unhappy' },
      { label: 'Skip', value: 'skip' },
    ]);

    // A choice answered by its value (as its button sends it), in the customer's case.
    expect(replies(await say(conversation.id, 'happy'))).toEqual([INTERVIEW.questions[1]!.text]);
    // An empty reply is asked about once more; the next is the answer.
    const again = await say(conversation.id, '...');
    expect(replies(again)).toEqual([expect.stringContaining('in a few words')]);
    expect(again[0]!.data.choices).toEqual([{ label: 'Skip', value: 'skip' }]);
    expect(replies(await say(conversation.id, 'Deliver on Saturdays, please'))).toEqual([INTERVIEW.questions[2]!.text]);
    expect(replies(await say(conversation.id, 'skip'))).toEqual([INTERVIEW.questions[3]!.text]);
    const last = await say(conversation.id, 'No, all good');
    expect(replies(last)).toEqual([INTERVIEW.closing]);

    const answers = [
      { question_id: 'satisfaction', answer: 'Happy', skipped: false },
      { question_id: 'improve', answer: 'Deliver on Saturdays, please', skipped: false },
      { question_id: 'channel', answer: '', skipped: true },
      { question_id: 'anything', answer: 'No, all good', skipped: false },
    ];
    const done = completion(last)!;
    expect(done).toMatchObject({
      conversation_id: conversation.id,
      data: { interview_id: interviewId, conversation_id: conversation.id, answers, outcome: 'completed' },
    });
    const feed = (await api('/v1/events?types=interview.completed&limit=1000')).body.events as Event[];
    expect(feed.find((event) => event.id === done.id)).toEqual(done);

    await engine.engine.webhooks.drain();
    const delivered = receiver.received.find((hook) => hook.headers['x-service-event-id'] === done.id)!;
    expect(delivered.headers['x-service-event-type']).toBe('interview.completed');
    const { 'x-service-timestamp': timestamp, 'x-service-signature': signature } = delivered.headers;
    expect(
      await verifyWebhook(endpoint.secret, String(timestamp), String(signature), delivered.body, Date.now()),
    ).toBeUndefined();
    expect(JSON.parse(delivered.body)).toMatchObject({
      type: 'interview.completed',
      environment: 'sandbox',
      data: { answers },
    });

    const responses = (await api(`/v1/interviews/${interviewId}/responses`)).body;
    expect(responses).toEqual({
      responses: [
        {
          conversation_id: conversation.id,
          customer_ref: 'interviewed-customer',
          outcome: 'completed',
          started_at: expect.any(String),
          ended_at: expect.any(String),
          answers,
        },
      ],
      next: conversation.id,
      has_more: false,
    });
    // Afterwards the conversation goes on with the AI: a question is the brain's, no interview's.
    const after = await say(conversation.id, 'How do I return an item?');
    expect(completion(after)).toBeUndefined();
    expect(replies(after)).toHaveLength(1);
    expect(replies(after)[0]).not.toBe(INTERVIEW.closing);
    await api(`/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE' });
  });

  it("asks once more about a single word that is none of a question's choices, then keeps it; the German Skip button skips", async () => {
    const { conversation, events } = await start('german-customer', 'de');
    expect(events[2]!.data.choices!.at(-1)).toEqual({ label: 'Überspringen', value: 'weiter' });
    const again = await say(conversation.id, 'hmm');
    expect(replies(again)).toEqual([expect.stringContaining('eine der Antworten')]);
    expect(again[0]!.data.choices).toHaveLength(4);
    expect(replies(await say(conversation.id, 'hmm'))).toEqual([INTERVIEW.questions[1]!.text]);
    await say(conversation.id, 'weiter');
    await say(conversation.id, 'Chat');
    const done = completion(await say(conversation.id, 'weiter'))!;
    expect(done.data['answers']).toEqual([
      { question_id: 'satisfaction', answer: 'hmm', skipped: false },
      { question_id: 'improve', answer: '', skipped: true },
      { question_id: 'channel', answer: 'Chat', skipped: false },
      { question_id: 'anything', answer: '', skipped: true },
    ]);
  });

  it('stops when the customer says stop, keeping the answers given, and the AI answers as usual after it', async () => {
    const { conversation } = await start('stopping-customer');
    await say(conversation.id, 'Very happy');
    const stopped = await say(conversation.id, 'Stop');
    expect(replies(stopped)).toEqual([expect.stringContaining("we'll stop here")]);
    expect(completion(stopped)!.data).toEqual({
      interview_id: interviewId,
      conversation_id: conversation.id,
      answers: [{ question_id: 'satisfaction', answer: 'Very happy', skipped: false }],
      outcome: 'stopped',
    });
    const after = await say(conversation.id, 'What can I do about a late delivery?');
    expect(completion(after)).toBeUndefined();
    expect(replies(after)).not.toContain(INTERVIEW.questions[2]!.text);
    const responses = (await api(`/v1/interviews/${interviewId}/responses`)).body.responses;
    expect(responses).toMatchObject([{ conversation_id: conversation.id, outcome: 'stopped' }]);
  });

  it('hands the conversation to people when the customer asks for a person mid-interview', async () => {
    const { conversation } = await start('person-customer');
    const events = await say(conversation.id, 'I want to talk to a person');
    expect(events.map((event) => event.type)).toEqual([
      'conversation.reply',
      'interview.completed',
      'conversation.handover',
    ]);
    expect(events[1]!.data).toMatchObject({ answers: [], outcome: 'handed_over' });
    expect(events[2]!.data).toMatchObject({ reason: 'customer_request', requested_by: 'ai' });
    const transcript = await api(`/v1/conversations/${conversation.id}/transcript`);
    expect(transcript.body).toMatchObject({ state: 'human' });
  });

  it('keeps the questions a session opened with when the interview changes, and a deleted interview leaves the conversation to the AI', async () => {
    const { conversation } = await start('changing-customer');
    const shorter = { questions: [{ id: 'only', text: 'One question only?' }] };
    expect((await api(`/v1/interviews/${interviewId}`, { method: 'PATCH', body: shorter })).status).toBe(200);
    // A retried message (same message_id) replays its answer and moves the interview on once.
    const first = await api(`/v1/conversations/${conversation.id}/messages`, {
      body: { text: 'Happy', message_id: 'm-1' },
    });
    const retried = await api(`/v1/conversations/${conversation.id}/messages`, {
      body: { text: 'Happy', message_id: 'm-1' },
    });
    expect(replies(first.body.events)).toEqual([INTERVIEW.questions[1]!.text]);
    expect(retried.body.events).toEqual(first.body.events);
    expect(replies(await say(conversation.id, 'Faster, please'))).toEqual([INTERVIEW.questions[2]!.text]);

    expect((await api(`/v1/interviews/${interviewId}`, { method: 'DELETE' })).status).toBe(204);
    const after = await say(conversation.id, 'Chat');
    expect(completion(after)).toBeUndefined();
    expect(replies(after)).not.toContain(INTERVIEW.questions[3]!.text);
    const left = await engine.sql.query('SELECT 1 FROM interview_answers WHERE conversation_id = $1', [
      conversation.id,
    ]);
    expect(left).toHaveLength(0);
  });

  it("pages an interview's responses in the order they ended", async () => {
    const ended: string[] = [];
    for (const customer of ['first', 'second', 'third']) {
      const { conversation } = await start(`paging-${customer}`);
      await say(conversation.id, 'stop');
      ended.push(conversation.id);
    }
    const page = (await api(`/v1/interviews/${interviewId}/responses?limit=2`)).body;
    expect(page.responses.map((response: { conversation_id: string }) => response.conversation_id)).toEqual(
      ended.slice(0, 2),
    );
    expect(page).toMatchObject({ next: ended[1], has_more: true });
    const rest = (await api(`/v1/interviews/${interviewId}/responses?limit=2&after=${page.next}`)).body;
    expect(rest).toMatchObject({ responses: [{ conversation_id: ended[2] }], next: ended[2], has_more: false });

    const running = await start('still-running');
    const bad = await api(`/v1/interviews/${interviewId}/responses?after=${running.conversation.id}`);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_request']);
    expect((await api(`/v1/interviews/${interviewId}/responses?limit=0`)).status).toBe(400);
  });

  it("erases the customer's answers when the customer is forgotten, keeping the response as a count", async () => {
    const { conversation } = await start('forgotten-customer');
    await say(conversation.id, 'My neighbour Anna Schmidt took the parcel');
    await say(conversation.id, 'stop');
    expect((await api('/v1/customers/forgotten-customer/forget', { method: 'POST' })).status).toBe(202);
    const [response] = (await api(`/v1/interviews/${interviewId}/responses`)).body.responses;
    expect(response).toMatchObject({
      conversation_id: conversation.id,
      answers: [{ question_id: 'satisfaction', answer: '', skipped: false }],
    });
    const kept = await engine.sql.query<{ answer: string }>(
      'SELECT answer FROM interview_answers WHERE conversation_id = $1',
      [conversation.id],
    );
    expect(kept.map((row) => row.answer)).toEqual(['']);
    // Nowhere else either: the turn's text is emptied and the interview.completed event keeps only numbers.
    expect(await mentions(engine.sql, ['Anna Schmidt'])).toEqual([]);
  });

  it('refuses to open a session with a bad body, an unknown interview, or while the AI is switched off, opening nothing', async () => {
    const count = async () =>
      (await engine.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM conversations'))[0]!.n;
    const before = await count();
    for (const body of [
      {},
      { customer_ref: '' },
      { customer_ref: 'has space' },
      { customer_ref: 'x', locale: 'not a tag' },
    ]) {
      const response = await api(`/v1/interviews/${interviewId}/sessions`, { body });
      expect([response.status, response.body.error.code]).toEqual([400, 'invalid_request']);
    }
    const unknown = await api(`/v1/interviews/ivw_${'A'.repeat(22)}/sessions`, { body: { customer_ref: 'x' } });
    expect(unknown.status).toBe(404);
    await api('/v1/agent/kill-switch', { method: 'PUT', body: { enabled: true } });
    const off = await api(`/v1/interviews/${interviewId}/sessions`, { body: { customer_ref: 'x' } });
    expect([off.status, off.body.error.code]).toEqual([409, 'invalid_state']);
    await api('/v1/agent/kill-switch', { method: 'PUT', body: { enabled: false } });
    expect(await count()).toBe(before);
  });
});
