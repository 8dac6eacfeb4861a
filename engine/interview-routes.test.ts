import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';

/** An interview as a caller makes one: one question with choices, one without. */
const FEEDBACK_INTERVIEW = {
  title: 'Delivery feedback',
  intro: 'Thanks for taking a few minutes: three short questions about your last delivery.',
  questions: [
    { id: 'satisfaction', text: 'How happy were you with the delivery?', choices: ['Very happy', 'Happy', 'Unhappy'] },
    { id: 'improve', text: 'What could we do better?' },
    { id: 'channel', text: 'How would you rather reach us?', choices: ['Chat', 'Phone', 'E-mail'] },
  ],
  closing: 'Thank you! Your answers help us a lot.',
};

const question = (index: number) => ({ id: `q${index}`, text: `Question ${index}?` });

/**
 * `/v1/interviews` (issue 29): interviews are made, read, listed, changed and deleted by an API
 * key of their account and environment; bad input is a 400 that stores nothing.
 */
describe.each(DRIVERS)('the interview routes on $name', (driver) => {
  let engine: TestEngine;
  let otherAccountKey: string;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const make = async (body: object = FEEDBACK_INTERVIEW) => {
    const response = await api('/v1/interviews', { body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as { id: string; title: string; updated_at: string };
  };
  const stored = async () =>
    (await engine.sql.query<{ count: number }>('SELECT count(*)::int AS count FROM interviews'))[0]!.count;

  beforeAll(async () => {
    engine = await startEngine(driver);
    otherAccountKey = (await engine.issueKey({ otherAccount: true })).key;
  });
  afterAll(() => engine?.stop());

  it('makes an interview, reads it back, changes it and deletes it', async () => {
    const made = await make();
    expect(made).toEqual({
      id: expect.stringMatching(/^ivw_/),
      ...FEEDBACK_INTERVIEW,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api(`/v1/interviews/${made.id}`)).body).toEqual(made);

    const changed = await api(`/v1/interviews/${made.id}`, {
      method: 'PATCH',
      body: { title: 'Delivery feedback, spring', questions: [question(1)] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      title: 'Delivery feedback, spring',
      intro: FEEDBACK_INTERVIEW.intro,
      questions: [question(1)],
      closing: FEEDBACK_INTERVIEW.closing,
    });

    expect((await api(`/v1/interviews/${made.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/v1/interviews/${made.id}`)).body.error.code).toBe('not_found');
    expect((await api(`/v1/interviews/${made.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('lists interviews in the order they were made, a page at a time', async () => {
    const made = [await make({ ...FEEDBACK_INTERVIEW, title: 'A' }), await make({ ...FEEDBACK_INTERVIEW, title: 'B' })];
    made.push(await make({ ...FEEDBACK_INTERVIEW, title: 'C' }));
    const all = (await api('/v1/interviews?limit=100')).body.interviews as { id: string }[];
    const ids = all.map((interview) => interview.id).filter((id) => made.some((one) => one.id === id));
    expect(ids).toEqual(made.map((one) => one.id));

    const start = all.findIndex((interview) => interview.id === made[0]!.id);
    const after = start === 0 ? '' : `&after=${all[start - 1]!.id}`;
    const page = await api(`/v1/interviews?limit=2${after}`);
    expect(page.body.interviews.map((interview: { id: string }) => interview.id)).toEqual([made[0]!.id, made[1]!.id]);
    expect(page.body).toMatchObject({ next: made[1]!.id, has_more: true });
    const rest = await api(`/v1/interviews?limit=2&after=${page.body.next}`);
    expect(rest.body).toMatchObject({ interviews: [{ id: made[2]!.id }], next: made[2]!.id, has_more: false });

    const gone = await api(`/v1/interviews?after=ivw_${'0'.repeat(22)}`);
    expect(gone.status).toBe(400);
    expect(gone.body.error.code).toBe('invalid_request');
    for (const one of made) await api(`/v1/interviews/${one.id}`, { method: 'DELETE' });
  });

  it('refuses an interview of no questions or more than twenty, too long texts, twin question ids and a lone choice, storing nothing', async () => {
    const before = await stored();
    const bad = [
      { ...FEEDBACK_INTERVIEW, questions: [] },
      { ...FEEDBACK_INTERVIEW, questions: Array.from({ length: 21 }, (_, index) => question(index)) },
      { ...FEEDBACK_INTERVIEW, title: 'x'.repeat(201) },
      { ...FEEDBACK_INTERVIEW, intro: 'x'.repeat(2001) },
      { ...FEEDBACK_INTERVIEW, questions: [{ id: 'q', text: 'x'.repeat(1001) }] },
      { ...FEEDBACK_INTERVIEW, questions: [question(1), question(1)] },
      { ...FEEDBACK_INTERVIEW, questions: [{ ...question(1), choices: ['Only one'] }] },
      {
        ...FEEDBACK_INTERVIEW,
        questions: [{ ...question(1), choices: Array.from({ length: 10 }, (_, i) => `c${i}`) }],
      },
      { ...FEEDBACK_INTERVIEW, questions: [{ id: 'has space', text: 'Why?' }] },
      { ...FEEDBACK_INTERVIEW, closing: '   ' },
      { ...FEEDBACK_INTERVIEW, colour: 'blue' },
      { title: 'No questions at all' },
    ];
    for (const body of bad) {
      const response = await api('/v1/interviews', { body });
      expect(response.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    }
    const broken = await api('/v1/interviews', { rawBody: '{"title": ' });
    expect([broken.status, broken.body.error.code]).toEqual([400, 'invalid_json']);
    expect(await stored()).toBe(before);

    const made = await make();
    for (const body of [{}, { questions: [] }, { title: '' }]) {
      const response = await api(`/v1/interviews/${made.id}`, { method: 'PATCH', body });
      expect(response.status).toBe(400);
    }
    expect((await api(`/v1/interviews/${made.id}`)).body).toEqual(made);
    expect((await api('/v1/interviews/not-an-id')).status).toBe(400);
    await api(`/v1/interviews/${made.id}`, { method: 'DELETE' });
  });

  it('refuses a request without a valid API key with 401, and shows nothing', async () => {
    const made = await make();
    for (const token of [undefined, 'service_test_not-a-key']) {
      const paths = ['/v1/interviews', `/v1/interviews/${made.id}`, `/v1/interviews/${made.id}/responses`];
      for (const path of paths) {
        const response = await request(engine.url + path, token ? { token } : {});
        expect([response.status, response.body.error.code]).toEqual([401, 'unauthorized']);
      }
      const created = await request(`${engine.url}/v1/interviews`, {
        ...(token ? { token } : {}),
        body: FEEDBACK_INTERVIEW,
      });
      expect(created.status).toBe(401);
    }
    await api(`/v1/interviews/${made.id}`, { method: 'DELETE' });
  });

  it("answers 404 for another account's interview, and for the live key's view of a sandbox one, changing nothing", async () => {
    const made = await make();
    for (const token of [otherAccountKey, engine.liveApiKey]) {
      const as = (path: string, options: Parameters<typeof request>[1] = {}) =>
        request(engine.url + path, { token, ...options });
      expect((await as(`/v1/interviews/${made.id}`)).status).toBe(404);
      expect((await as(`/v1/interviews/${made.id}`, { method: 'PATCH', body: { title: 'Mine now' } })).status).toBe(
        404,
      );
      expect((await as(`/v1/interviews/${made.id}`, { method: 'DELETE' })).status).toBe(404);
      expect((await as(`/v1/interviews/${made.id}/responses`)).status).toBe(404);
      const session = await as(`/v1/interviews/${made.id}/sessions`, { body: { customer_ref: 'someone' } });
      expect([session.status, session.body.error.code]).toEqual([404, 'not_found']);
      const listed = (await as('/v1/interviews')).body.interviews as { id: string }[];
      expect(listed.map((interview) => interview.id)).not.toContain(made.id);
    }
    expect((await api(`/v1/interviews/${made.id}`)).body).toEqual(made);
    await api(`/v1/interviews/${made.id}`, { method: 'DELETE' });
  });

  it('makes one interview for a retried create with the same Idempotency-Key', async () => {
    const before = await stored();
    const headers = { 'idempotency-key': `make-interview-${driver.name}` };
    const first = await api('/v1/interviews', { body: FEEDBACK_INTERVIEW, headers });
    const again = await api('/v1/interviews', { body: FEEDBACK_INTERVIEW, headers });
    expect(first.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await stored()).toBe(before + 1);
    await api(`/v1/interviews/${first.body.id}`, { method: 'DELETE' });
  });

  it('describes every interview route in /v1/openapi.json', async () => {
    const paths = (await request(`${engine.url}/v1/openapi.json`)).body.paths as Record<string, object>;
    expect(Object.keys(paths['/v1/interviews']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/v1/interviews/{id}']!).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(paths['/v1/interviews/{id}/sessions']!)).toEqual(['post']);
    expect(Object.keys(paths['/v1/interviews/{id}/responses']!)).toEqual(['get']);
  });
});
