import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { issueApiKey } from './index.ts';
import { WITHHELD } from './idempotency.ts';

const OPEN_ROUTE = 'POST /v1/conversations';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(DRIVERS)('Idempotency-Key on $name', (driver) => {
  let engine: TestEngine;
  let now = new Date('2026-01-01T10:00:00Z');
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const feed = async (token = engine.apiKey) =>
    (await request(`${engine.url}/v1/events?limit=1000`, { token })).body.events as {
      id: string;
      type: string;
      conversation_id: string;
      data: Record<string, unknown>;
    }[];
  const withKey = (key: string, options: Parameters<typeof request>[1] = {}) => ({
    ...options,
    headers: { 'idempotency-key': key, ...options.headers },
  });
  const kept = (keyId: string, key: string) =>
    engine.sql.query<{ route: string; state: string; status: number | null; request_sha256: string }>(
      'SELECT route, state, status, request_sha256 FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2 ORDER BY route',
      [keyId, key],
    );
  /** A fresh sandbox key of the test account, with its id (the `key_id` of its idempotency records). */
  const secondKey = () => issueApiKey(engine.sql, engine.accountId, 'sandbox');

  beforeAll(async () => {
    engine = await startEngine(driver, () => now);
  });
  afterAll(() => engine?.stop());

  it('replays the first answer to the same key and body: same 201 and body, Idempotent-Replayed, one conversation', async () => {
    const key = randomUUID();
    const before = await feed();
    const first = await api('/v1/conversations', withKey(key, { body: { customer_ref: 'replayed' } }));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ id: expect.stringMatching(/^cnv_/), customer_ref: 'replayed' });
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const again = await api('/v1/conversations', withKey(key, { body: { customer_ref: 'replayed' } }));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);

    const after = await feed();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length)).toEqual([
      expect.objectContaining({ type: 'conversation.opened', conversation_id: first.body.id }),
    ]);
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused, storing nothing', async () => {
    const key = randomUUID();
    const first = await api('/v1/conversations', withKey(key, { body: { customer_ref: 'original' } }));
    expect(first.status).toBe(201);
    const before = await feed();
    const record = await api('/v1/me');
    const [stored] = await kept(record.body.key.id, key);

    const reused = await api('/v1/conversations', withKey(key, { body: { customer_ref: 'different' } }));
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ error: { code: 'idempotency_key_reused', message: expect.any(String) } });
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
    expect(await feed()).toEqual(before);
    expect(await kept(record.body.key.id, key)).toEqual([stored]);

    // The bytes count, not the meaning: the same JSON spelled differently is another body.
    const respelled = await api('/v1/conversations', withKey(key, { rawBody: '{ "customer_ref": "original" }' }));
    expect(respelled.status).toBe(422);
    expect(respelled.body.error.code).toBe('idempotency_key_reused');
    expect(await feed()).toEqual(before);
  });

  it('opens one conversation for many concurrent requests with the same key; the others get the replay or 409', async () => {
    const key = randomUUID();
    const before = await feed();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => api('/v1/conversations', withKey(key, { body: { customer_ref: 'concurrent' } }))),
    );

    const ran = responses.filter(
      (response) => response.status === 201 && response.headers.get('idempotent-replayed') === null,
    );
    expect(ran).toHaveLength(1);
    const id = ran[0]!.body.id as string;
    for (const response of responses) {
      if (response.status === 201) expect(response.body).toEqual(ran[0]!.body);
      else expect(response).toMatchObject({ status: 409, body: { error: { code: 'idempotency_key_in_use' } } });
    }
    expect((await feed()).slice(before.length)).toEqual([
      expect.objectContaining({ type: 'conversation.opened', conversation_id: id }),
    ]);
  });

  describe('while the first request is still running', () => {
    const rawBody = JSON.stringify({ customer_ref: 'in-flight' });

    /**
     * Stands in for a request in flight: the row the idempotency middleware writes when it claims a
     * key (state 'running') and keeps until the handler has answered.
     */
    const claimAsRunning = async (keyId: string, key: string, startedAt: Date) => {
      await engine.sql.query(
        `INSERT INTO idempotency_keys (key_id, idempotency_key, route, request_sha256, state, created_at)
         VALUES ($1, $2, $3, $4, 'running', $5)`,
        [keyId, key, OPEN_ROUTE, sha256(rawBody), startedAt],
      );
    };

    it('answers a retry with 409 idempotency_key_in_use and runs nothing', async () => {
      const { id: keyId, key: apiKey } = await secondKey();
      const key = randomUUID();
      await claimAsRunning(keyId, key, new Date(now.getTime() - 59_000));
      const before = await feed();

      const retry = await request(`${engine.url}/v1/conversations`, withKey(key, { token: apiKey, rawBody }));
      expect(retry.status).toBe(409);
      expect(retry.body).toEqual({ error: { code: 'idempotency_key_in_use', message: expect.any(String) } });
      expect(await feed()).toEqual(before);
      expect(await kept(keyId, key)).toEqual([
        { route: OPEN_ROUTE, state: 'running', status: null, request_sha256: sha256(rawBody) },
      ]);
    });

    it('treats a running first request older than 60 s as abandoned and lets the retry run', async () => {
      const { id: keyId, key: apiKey } = await secondKey();
      const key = randomUUID();
      await claimAsRunning(keyId, key, new Date(now.getTime() - 61_000));
      const before = await feed();

      const retry = await request(`${engine.url}/v1/conversations`, withKey(key, { token: apiKey, rawBody }));
      expect(retry.status).toBe(201);
      expect(retry.body.customer_ref).toBe('in-flight');
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect((await feed()).slice(before.length)).toEqual([
        expect.objectContaining({ type: 'conversation.opened', conversation_id: retry.body.id }),
      ]);
      expect(await kept(keyId, key)).toEqual([
        { route: OPEN_ROUTE, state: 'done', status: 201, request_sha256: sha256(rawBody) },
      ]);

      // The retry's answer is now the one kept.
      const again = await request(`${engine.url}/v1/conversations`, withKey(key, { token: apiKey, rawBody }));
      expect(again.status).toBe(201);
      expect(again.body).toEqual(retry.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    });
  });

  describe('keeps the record per key, route and credential', () => {
    it('runs the same key afresh on a different route', async () => {
      const key = randomUUID();
      const opened = await api('/v1/conversations', withKey(key, { body: { customer_ref: 'routes' } }));
      expect(opened.status).toBe(201);
      const before = await feed();

      const sent = await api(
        `/v1/conversations/${opened.body.id}/messages`,
        withKey(key, { body: { text: 'How do I return an item?' } }),
      );
      expect(sent.status).toBe(200);
      expect(sent.headers.get('idempotent-replayed')).toBeNull();
      expect(sent.body).toMatchObject({
        conversation_id: opened.body.id,
        events: [expect.objectContaining({ type: 'conversation.reply' })],
      });
      expect((await feed()).slice(before.length).map((event) => event.id)).toEqual(
        sent.body.events.map((event: { id: string }) => event.id),
      );
    });

    it('runs the same key afresh with another API key of the same account', async () => {
      const key = randomUUID();
      const body = { customer_ref: 'credentials' };
      const first = await api('/v1/conversations', withKey(key, { body }));
      expect(first.status).toBe(201);
      const before = await feed();

      const { key: other } = await secondKey();
      const second = await request(`${engine.url}/v1/conversations`, withKey(key, { token: other, body }));
      expect(second.status).toBe(201);
      expect(second.headers.get('idempotent-replayed')).toBeNull();
      expect(second.body.id).not.toBe(first.body.id);
      expect((await feed()).slice(before.length)).toEqual([
        expect.objectContaining({ type: 'conversation.opened', conversation_id: second.body.id }),
      ]);

      // Each credential replays its own first answer.
      const firstAgain = await api('/v1/conversations', withKey(key, { body }));
      expect(firstAgain.body).toEqual(first.body);
      expect(firstAgain.headers.get('idempotent-replayed')).toBe('true');
      const secondAgain = await request(`${engine.url}/v1/conversations`, withKey(key, { token: other, body }));
      expect(secondAgain.body).toEqual(second.body);
      expect(secondAgain.headers.get('idempotent-replayed')).toBe('true');
    });
  });

  it('keeps the first answer 24 hours: it still replays a second before, and runs again a second after', async () => {
    const key = randomUUID();
    const body = { customer_ref: 'a-day-later' };
    const start = new Date('2026-01-02T08:00:00Z');
    now = start;
    const first = await api('/v1/conversations', withKey(key, { body }));
    expect(first.status).toBe(201);

    now = new Date(start.getTime() + 24 * 3600_000 - 1000);
    const before = await feed();
    const stillKept = await api('/v1/conversations', withKey(key, { body }));
    expect(stillKept.body).toEqual(first.body);
    expect(stillKept.headers.get('idempotent-replayed')).toBe('true');
    expect(await feed()).toEqual(before);

    now = new Date(start.getTime() + 24 * 3600_000 + 1000);
    const expired = await api('/v1/conversations', withKey(key, { body }));
    expect(expired.status).toBe(201);
    expect(expired.headers.get('idempotent-replayed')).toBeNull();
    expect(expired.body.id).not.toBe(first.body.id);
    expect((await feed()).slice(before.length)).toEqual([
      expect.objectContaining({ type: 'conversation.opened', conversation_id: expired.body.id }),
    ]);
  });

  it('never keeps a secret: a replayed answer withholds the token it carried, and the record holds none', async () => {
    const { id } = (await api('/v1/conversations', { body: { customer_ref: 'secret-keeper' } })).body as { id: string };
    const key = randomUUID();
    const first = await api(`/v1/conversations/${id}/voice-sessions`, withKey(key, { body: {} }));
    expect(first.status).toBe(201);
    expect(first.body.token).toMatch(/^vst_/);
    const again = await api(`/v1/conversations/${id}/voice-sessions`, withKey(key, { body: {} }));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({ ...first.body, token: WITHHELD });
    const stored = await engine.sql.query<{ body: string }>(
      'SELECT body FROM idempotency_keys WHERE idempotency_key = $1',
      [key],
    );
    expect(stored[0]!.body).not.toContain(first.body.token);
    expect(stored[0]!.body).not.toMatch(/vst_|wst_|whsec_/);
  });

  it('deletes records older than a day on its own, without waiting for the same key to come back, and keeps younger ones, which still replay', async () => {
    const old = randomUUID();
    const young = randomUUID();
    const exists = async (key: string) =>
      (await engine.sql.query('SELECT 1 FROM idempotency_keys WHERE idempotency_key = $1', [key])).length === 1;
    const start = new Date('2026-03-01T08:00:00Z');
    now = start;
    await api('/v1/conversations', withKey(old, { body: { customer_ref: 'forgotten' } }));
    now = new Date(start.getTime() + 23 * 3600_000);
    const first = await api('/v1/conversations', withKey(young, { body: { customer_ref: 'remembered' } }));
    expect(first.status).toBe(201);
    expect(await exists(old)).toBe(true);

    // A day and an hour on, any request (with another key, on a GET) prunes what is past its day.
    now = new Date(start.getTime() + 25 * 3600_000);
    expect((await api('/v1/me')).status).toBe(200);
    expect(await exists(old)).toBe(false);
    expect(await exists(young)).toBe(true);
    const replayed = await api('/v1/conversations', withKey(young, { body: { customer_ref: 'remembered' } }));
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(first.body);
  });

  it('keeps and replays error answers too: a 404 comes back the same, with Idempotent-Replayed', async () => {
    const key = randomUUID();
    const path = '/v1/conversations/cnv_unknown0000000000000/messages';
    const body = { text: 'Is anyone there?' };
    const before = await feed();
    const first = await api(path, withKey(key, { body }));
    expect(first.status).toBe(404);
    expect(first.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const again = await api(path, withKey(key, { body }));
    expect(again.status).toBe(404);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await feed()).toEqual(before);
  });

  it('keeps and replays a 400 for an invalid body as well', async () => {
    const key = randomUUID();
    const first = await api('/v1/conversations', withKey(key, { body: { customer_ref: 42 } }));
    expect(first.status).toBe(400);
    expect(first.body.error.code).toBe('invalid_request');
    const again = await api('/v1/conversations', withKey(key, { body: { customer_ref: 42 } }));
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('makes a retried message send safe by message_id alone, without the header: same events back, nothing new in the feed', async () => {
    const opened = await api('/v1/conversations', { body: { customer_ref: 'message-ids' } });
    const path = `/v1/conversations/${opened.body.id}/messages`;
    const body = { text: 'Do you ship abroad?', message_id: randomUUID() };
    const first = await api(path, { body });
    expect(first.status).toBe(200);
    expect(first.body.events).toHaveLength(1);
    const before = await feed();

    const retry = await api(path, { body });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await feed()).toEqual(before);

    // A different message_id is a new message and gets answered again.
    const next = await api(path, { body: { ...body, message_id: randomUUID() } });
    expect(next.status).toBe(200);
    expect((await feed()).slice(before.length).map((event) => event.id)).toEqual(
      next.body.events.map((event: { id: string }) => event.id),
    );
    expect(next.body.events[0].id).not.toBe(first.body.events[0].id);
  });

  describe('refuses a malformed Idempotency-Key with 400 invalid_request, running nothing', () => {
    it.each([
      { name: '300 characters', key: 'k'.repeat(300) },
      { name: 'a space inside', key: 'my key' },
      { name: 'a non-ASCII character', key: 'clé-1' },
    ])('$name', async ({ key }) => {
      const before = await feed();
      const response = await api('/v1/conversations', withKey(key, { body: { customer_ref: 'malformed-key' } }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: { code: 'invalid_request', message: expect.stringContaining('Idempotency-Key') },
      });
      expect(await feed()).toEqual(before);
      const rows = await engine.sql.query('SELECT 1 FROM idempotency_keys WHERE idempotency_key = $1', [key]);
      expect(rows).toHaveLength(0);
    });

    it('takes a key of exactly 255 printable characters', async () => {
      const key = `${randomUUID()}${'~'.repeat(255 - 36)}`;
      const response = await api('/v1/conversations', withKey(key, { body: { customer_ref: 'longest-key' } }));
      expect(response.status).toBe(201);
      const again = await api('/v1/conversations', withKey(key, { body: { customer_ref: 'longest-key' } }));
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(response.body);
    });
  });

  it('ignores the header on GET requests: fresh answers, nothing kept, even for a key that would be malformed', async () => {
    const key = randomUUID();
    const first = await api('/v1/events?limit=1000', withKey(key));
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const opened = await api('/v1/conversations', { body: { customer_ref: 'get-requests' } });

    const second = await api('/v1/events?limit=1000', withKey(key));
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.events).toHaveLength(first.body.events.length + 1);
    expect(second.body.events.at(-1)).toMatchObject({ type: 'conversation.opened', conversation_id: opened.body.id });

    const malformed = await api('/v1/me', withKey('not a valid key'));
    expect(malformed.status).toBe(200);
    const rows = await engine.sql.query('SELECT 1 FROM idempotency_keys WHERE idempotency_key = ANY($1)', [
      [key, 'not a valid key'],
    ]);
    expect(rows).toHaveLength(0);
  });
});
